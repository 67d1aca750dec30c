import type { FastifyInstance } from 'fastify'
import { type IncomingMessage, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loggerOptions, requestLineLevel } from '../../server/logging/logger-options'
import { buildTestApp, openTestDatabase, type TestDatabase } from './harness'

// The logs an operator reads (server/logging/, docs/operations.md "Logs"): one line per request, and the request's id
// on every line written while it is handled, including those services write through the app's logger.

describe('the logger options', () => {
  const choose = (format: 'auto' | 'json' | 'pretty', stdoutIsTty: boolean) => {
    const { format: chosen, options } = loggerOptions({ level: 'info', format, stdoutIsTty })
    return { chosen, prettyStream: options.stream !== undefined }
  }

  it('prints pretty lines on a terminal and JSON elsewhere, unless LOG_FORMAT says which', () => {
    expect(choose('auto', true)).toEqual({ chosen: 'pretty', prettyStream: true })
    expect(choose('auto', false)).toEqual({ chosen: 'json', prettyStream: false })
    expect(choose('json', true)).toEqual({ chosen: 'json', prettyStream: false })
    expect(choose('pretty', false)).toEqual({ chosen: 'pretty', prettyStream: true })
  })

  it('logs health checks at debug, slow requests at warn, the rest at info', () => {
    expect(requestLineLevel('/api/health', 3, 500)).toBe('debug')
    expect(requestLineLevel('/api/ready', 3, 500)).toBe('debug')
    expect(requestLineLevel('/api/posts/:id', 3, 500)).toBe('info')
    expect(requestLineLevel('/api/posts/:id', 501, 500)).toBe('warn')
    expect(requestLineLevel('/api/health', 501, 500)).toBe('warn')
    expect(requestLineLevel('/api/posts/:id', 501, 0)).toBe('info')
  })
})

interface Line {
  level: number
  msg: string
  reqId?: string
  request?: { method: string; url: string; route: string; status: number; durationMs: number }
}

let database: TestDatabase
let app: FastifyInstance
const lines: Line[] = []
const raw: string[] = []

beforeAll(async () => {
  database = await openTestDatabase()
  app = await buildTestApp(database, {
    config: { logLevel: 'debug', slowRequestMs: 40, trustProxy: ['10.0.0.0/8'] },
    logger: {
      stream: {
        write: (line: string) => {
          raw.push(line)
          lines.push(JSON.parse(line) as Line)
        },
      },
    },
    beforeRoutes: (instance) => {
      // What a service does: after an await (a statement), it logs through the services' `warn` (the app's logger),
      // with no request in hand. A JSON body, so the line is written after the body was read.
      instance.post('/test/service-log/:id', async (request) => {
        await instance.services.db.execute('select 1')
        const { wait } = request.body as { wait: number }
        await new Promise((resolve) => setTimeout(resolve, wait))
        instance.services.warn('a service noticed something', new Error('disk is slow'))
        return { ok: true }
      })
    },
  })
})
afterAll(async () => {
  await app?.close()
  await database?.close()
})

/** The request's lines once its own line is written (onResponse runs as the answer finishes, maybe after the client has it). */
async function logOf(id: string): Promise<Line[]> {
  for (let i = 0; i < 100 && !lines.some((l) => l.reqId === id && l.request); i++) await new Promise((r) => setTimeout(r, 10))
  return lines.filter((l) => l.reqId === id)
}

describe('request logs', () => {
  it('gives a service line the id of the request it was written for, and that id in X-Request-Id', async () => {
    // Over a real socket, the body a moment after the headers (inject hands it over at once): the handler then runs
    // from the socket's data events, and must still be inside the request's context.
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request({ port, method: 'POST', path: '/test/service-log/17', headers: { 'content-type': 'application/json' } })
      req.on('response', resolve).on('error', reject)
      req.flushHeaders()
      setTimeout(() => req.end(JSON.stringify({ wait: 0 })), 20)
    })
    res.resume()
    expect(res.statusCode).toBe(200)
    const id = String(res.headers['x-request-id'])
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const mine = await logOf(id)
    // On a busy machine even this request can pass the 40 ms slow mark: then its line is the warning.
    expect(mine.map((l) => l.msg), JSON.stringify(lines.slice(-4))).toEqual([
      'a service noticed something',
      expect.stringMatching(/^(slow request: )?POST \/test\/service-log\/17 200 \d+ ms$/),
    ])
    // One line for the request, carrying what an operator needs.
    expect(mine[1]?.request).toMatchObject({ method: 'POST', url: '/test/service-log/17', route: '/test/service-log/:id', status: 200 })
    expect(mine[1]?.level).toBe(mine[1]?.msg.startsWith('slow request') ? 40 : 30)
    // Written once per line, whether the line came from the request's logger or the app's.
    expect(raw.filter((l) => l.includes(id)).map((l) => l.split('"reqId"').length - 1)).toEqual([1, 1])
  })

  it('warns about a slow request with its route, method, status and duration', async () => {
    const res = await app.inject({ method: 'POST', url: '/test/service-log/18', payload: { wait: 60 } })
    const line = (await logOf(String(res.headers['x-request-id']))).find((l) => l.request)
    expect(line?.level).toBe(40)
    expect(line?.msg).toMatch(/^slow request: POST \/test\/service-log\/18 200 \d+ ms$/)
    expect(line?.request).toMatchObject({ method: 'POST', route: '/test/service-log/:id', status: 200 })
    expect(line?.request?.durationMs).toBeGreaterThan(40)
  })

  it('never writes the token of a mailed link (a reset or confirmation page opened from a mail)', async () => {
    const res = await app.inject({ method: 'GET', url: '/reset-password?token=SecretResetToken123&from=mail' })
    const line = (await logOf(String(res.headers['x-request-id']))).find((l) => l.request)
    expect(line?.request?.url).toBe('/reset-password?token=[hidden]&from=mail')
    expect(line?.msg).toContain('/reset-password?token=[hidden]&from=mail')
    expect(raw.some((l) => l.includes('SecretResetToken123'))).toBe(false)
  })

  it('writes the health check at debug', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' })
    expect((await logOf(String(res.headers['x-request-id']))).map((l) => [l.level, l.request?.route])).toEqual([[20, '/api/health']])
  })

  it("takes a proxy's X-Request-Id only from a trusted proxy, and only a sane one", async () => {
    const ask = (remoteAddress: string, id: string) =>
      app.inject({ method: 'GET', url: '/api/health', remoteAddress, headers: { 'x-request-id': id } })
    expect((await ask('10.1.2.3', 'edge-4f2a.77')).headers['x-request-id']).toBe('edge-4f2a.77')
    expect(await logOf('edge-4f2a.77')).toHaveLength(1)
    for (const [remoteAddress, id] of [
      ['203.0.113.7', 'edge-from-a-stranger'],
      ['10.1.2.3', 'has a space'],
      ['10.1.2.3', 'x'.repeat(129)],
    ] as const) {
      const given = (await ask(remoteAddress, id)).headers['x-request-id']
      expect(given).not.toBe(id)
      expect(given).toMatch(/^[0-9a-f-]{36}$/)
    }
  })
})
