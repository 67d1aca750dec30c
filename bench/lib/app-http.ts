import type { FastifyInstance } from 'fastify'
import { DEMO_PASSWORD } from '../../server/seed/run'
import type { FeedBody } from './no-db-app'

/** Small HTTP helpers the benches share: listen on a loopback port, sign a seeded member in, read one feed page. */

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return `http://127.0.0.1:${address.port}`
}

/** A seeded member's token through the real login (one argon2id verification: fine for a few members). */
export async function login(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  })
  if (res.status !== 200) throw new Error(`login ${username} answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

/** One page of the real feed, to check it works before loading it and to serve the same bytes from the no-DB route. */
export async function feedPage(base: string, token: string): Promise<{ status: number; body: FeedBody | undefined }> {
  const res = await fetch(`${base}/api/posts/feed`, { headers: { authorization: `Bearer ${token}` } })
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as FeedBody) : undefined }
}
