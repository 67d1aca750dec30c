import type { FastifyInstance } from 'fastify'
import type { Socket } from 'socket.io-client'
import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { api, type AuthResponse, loginBody, registerMember } from './harness'
import { useTwoProcesses } from './two-processes'

/**
 * Two server processes sharing one database and one Redis (as in realtime-redis.test.ts): a session revoked or found
 * expired through one is refused at once by the other, whose cache held it, and its socket there is dropped.
 */

let now = Date.now()
const clock = { now: () => now }
const { apps, urls, open } = useTwoProcesses({ clock })

const dropped = (socket: Socket) =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket stayed connected for 5 s')), 5_000)
    socket.once('disconnect', (reason) => {
      clearTimeout(timer)
      resolve(reason)
    })
  })

const me = (app: FastifyInstance, token: string) => api(app, 'GET', '/api/auth/me', { token })

async function signIn(app: FastifyInstance, member: { user: { username: string }; password: string }, remember = true) {
  const res = await api(app, 'POST', '/api/auth/login', { body: { ...loginBody(member.user.username, member.password), remember } })
  return res.json<AuthResponse>().token
}

describe('sessions across two processes through Redis', () => {
  it('a session revoked through one process is refused by the other at once, and its socket there drops', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance]
    const member = await registerMember(one)
    const other = await signIn(two, member)
    // Process two has the other session cached, and a socket of it.
    expect((await me(two, other)).statusCode).toBe(200)
    const socket = await open(urls[1] ?? '', other)

    const list = (await api(one, 'GET', '/api/auth/sessions', { token: member.token })).json<Schemas['SessionsResponse']>()
    const otherId = list.sessions.find((s) => !s.current)?.id
    const gone = dropped(socket)
    const res = await api(one, 'DELETE', `/api/auth/sessions/${otherId}`, { token: member.token })
    expect(res.statusCode).toBe(204)
    expect(await gone).toBe('io server disconnect')
    expect((await me(two, other)).statusCode).toBe(401)
    expect((await me(two, member.token)).statusCode).toBe(200)
  })

  it('"sign out all other sessions" through one process drops sockets on the other', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance]
    const member = await registerMember(one)
    const others = [await signIn(two, member), await signIn(one, member)]
    const onTwo = await open(urls[1] ?? '', others[0] ?? '')
    const onOne = await open(urls[0] ?? '', others[1] ?? '')
    const gone = Promise.all([dropped(onTwo), dropped(onOne)])
    const res = await api(two, 'POST', '/api/auth/sessions/revoke-others', { token: member.token })
    expect(res.json()).toEqual({ revoked: 2 })
    await gone
    for (const token of others) for (const app of apps) expect((await me(app, token)).statusCode).toBe(401)
  })

  it('a session swept as expired by one process drops its idle socket on the other', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance]
    const member = await registerMember(one)
    const plain = await signIn(one, member, false)
    const socket = await open(urls[1] ?? '', plain)
    const gone = dropped(socket)
    now += 25 * 60 * 60 * 1000
    expect(await one.services.sessions.sweepEnded()).toBeGreaterThanOrEqual(1)
    await gone
    expect((await me(two, plain)).statusCode).toBe(401)
  })
})
