import { request as httpRequest, Agent } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { drainAndClose } from '../../server/http/drain'
import { buildTestApp, openTestDatabase, type TestDatabase } from './harness'

/**
 * What a client of a process being shut down (SIGTERM: server/main.ts calls drainAndClose) sees, over real
 * connections: a load balancer's readiness check turns 503 at once, nothing in flight is cut, and no keep-alive
 * connection is left for a client to send its next request into as the server goes.
 */

interface Exchange {
  socket: Socket
  /** The raw answers received so far. */
  text: () => string
  closed: Promise<void>
}

/** A raw keep-alive connection, so the test sees exactly which headers came and when the server closed it. */
async function openConnection(port: number): Promise<Exchange> {
  const socket = connect({ host: '127.0.0.1', port })
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    received += chunk
  })
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  return { socket, text: () => received, closed }
}

function send(exchange: Exchange, path: string): void {
  exchange.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`)
}

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

let database: TestDatabase | undefined
afterEach(async () => {
  await database?.close()
  database = undefined
})

/** An app listening on a real port, with one extra route that answers only when the test lets it. */
async function listeningApp(): Promise<{ app: FastifyInstance; port: number; finishSlow: () => void }> {
  database = await openTestDatabase()
  let finishSlow = () => {}
  const slowAnswer = new Promise<void>((resolve) => {
    finishSlow = resolve
  })
  const app = await buildTestApp(database, {
    beforeRoutes: (bare) => {
      bare.get('/slow', async () => {
        await slowAnswer
        return { done: true }
      })
    },
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, port: (app.server.address() as AddressInfo).port, finishSlow }
}

async function getJson(port: number, path: string): Promise<{ status: number; connection: string | undefined; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(body) }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('draining on shutdown', () => {
  it('turns not-ready at once, then closes idle keep-alive connections and finishes what is running with Connection: close', async () => {
    const { app, port, finishSlow } = await listeningApp()
    expect(await getJson(port, '/api/ready')).toMatchObject({ status: 200, body: { ready: true } })

    // One connection that answered and now waits idle for its next request; one with a request still running.
    const idle = await openConnection(port)
    send(idle, '/api/health')
    await until(() => idle.text().includes('"status":"ok"'), 'the idle connection\'s first answer')
    expect(idle.text()).toMatch(/connection: keep-alive/i)
    const busy = await openConnection(port)
    send(busy, '/slow')
    await new Promise((resolve) => setTimeout(resolve, 50))

    const closing = drainAndClose(app, 400)

    // The balancer's check fails at once; liveness still answers (the process is healthy, only leaving).
    const ready = await getJson(port, '/api/ready')
    expect(ready).toMatchObject({ status: 503, connection: 'close', body: { error: 'This server is shutting down' } })
    expect(await getJson(port, '/api/health')).toMatchObject({ status: 200, connection: 'close' })
    // Once the delay is over the connection idle all along is closed, while the running request goes on.
    expect(idle.socket.destroyed).toBe(false)
    await idle.closed
    expect(busy.socket.destroyed).toBe(false)

    // The running request finishes whole, told to close its connection, and the server then closes it.
    finishSlow()
    await busy.closed
    expect(busy.text()).toMatch(/^HTTP\/1\.1 200 OK/)
    expect(busy.text()).toMatch(/connection: close/i)
    expect(busy.text()).toContain('{"done":true}')
    await closing
    expect(app.server.listening).toBe(false)
  })

  it('fails no request of clients that stop sending when the readiness check turns 503, as a load balancer does', async () => {
    const { app, port } = await listeningApp()
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    let balancerSends = true
    const failures: string[] = []
    let answered = 0

    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        })
        req.on('error', reject)
        req.end()
      })

    // The balancer's health check, every 50 ms over its own connection.
    const checks = (async () => {
      while (balancerSends) {
        const status = await getJson(port, '/api/ready').then((r) => r.status, () => 0)
        if (status !== 200) balancerSends = false
        else await new Promise((resolve) => setTimeout(resolve, 50))
      }
    })()
    // Eight clients sending one request after another down keep-alive connections, while the balancer sends.
    const clients = Array.from({ length: 8 }, async () => {
      while (balancerSends) {
        try {
          const status = await get('/api/health')
          if (status === 200) answered += 1
          else failures.push(`status ${status}`)
        } catch (err) {
          failures.push((err as Error).message)
        }
      }
    })

    await new Promise((resolve) => setTimeout(resolve, 150))
    await drainAndClose(app, 300)
    await Promise.all([checks, ...clients])
    agent.destroy()

    expect(failures).toEqual([])
    expect(answered).toBeGreaterThan(10)
  })
})
