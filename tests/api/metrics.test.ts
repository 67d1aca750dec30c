import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isLoopback } from '../../server/metrics/http'
import { limitName } from '../../server/lib/rate-limiter'
import { buildTestApp, openTestDatabase, type TestDatabase } from './harness'

// GET /metrics (server/metrics/, docs/operations.md "Metrics"): off unless METRICS=on, and then only for the
// machine itself.

let database: TestDatabase
let off: FastifyInstance
let on: FastifyInstance

beforeAll(async () => {
  database = await openTestDatabase()
  off = await buildTestApp(database)
  on = await buildTestApp(database, {
    config: { metrics: true, trustProxy: true, rateLimits: true, loginLimitPerIp: { max: 1, windowMs: 60 * 60_000 } },
  })
})
afterAll(async () => {
  await off?.close()
  await on?.close()
  await database?.close()
})

async function scrape(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/metrics' })
  expect(res.statusCode).toBe(200)
  return res.body
}

/** The value of one sample line, e.g. value(text, 'wren_http_requests_total{method="GET",...}'); 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line ? Number(line.slice(series.length + 1)) : 0
}

describe('GET /metrics', () => {
  it('does not exist while METRICS is off, even from loopback', async () => {
    const res = await off.inject({ method: 'GET', url: '/metrics' })
    expect(res.statusCode).toBe(404)
    expect(res.body).not.toContain('wren_')
  })

  it('answers loopback with the Prometheus text format and every family of metrics', async () => {
    const res = await on.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    for (const name of [
      'wren_app_info',
      'wren_http_requests_total',
      'wren_http_request_duration_seconds',
      'wren_http_server_errors_total',
      'wren_db_statement_duration_seconds',
      'wren_cache_hits_total',
      'wren_cache_misses_total',
      'wren_cache_stored_total',
      'wren_realtime_sockets',
      'wren_realtime_events_total',
      'wren_jobs',
      'wren_rate_limit_refusals_total',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(res.body, name).toContain(`# TYPE ${name} `)
    }
    expect(res.body).toMatch(/^wren_app_info\{version="[^"]+",database="(pglite|postgres)"\} 1$/m)
    // Read by a query at scrape time: all four states, none of them made up by a failed read (which leaves none).
    for (const state of ['due', 'scheduled', 'running', 'failed']) expect(res.body).toMatch(new RegExp(`^wren_jobs\\{state="${state}"\\} 0$`, 'm'))
    expect(res.body).toMatch(/^wren_cache_hits_total\{cache="sessions"\} \d+$/m)
    // Pool gauges exist only where there is a pool.
    expect(res.body.includes('wren_db_pool_connections{state="idle"}')).toBe(database.handle.kind === 'postgres')
  })

  it('counts requests by route pattern, never by the path that was asked', async () => {
    const series = 'wren_http_requests_total{method="GET",route="/api/users/:username",status_class="4xx"}'
    const before = value(await scrape(on), series)
    for (const name of ['metrics_alice', 'metrics_bob']) {
      expect((await on.inject({ method: 'GET', url: `/api/users/${name}` })).statusCode).toBe(401)
    }
    const after = await scrape(on)
    expect(value(after, series)).toBe(before + 2)
    expect(value(after, 'wren_http_request_duration_seconds_count{method="GET",route="/api/users/:username"}')).toBeGreaterThanOrEqual(2)
    expect(after).not.toContain('metrics_alice')
    // A path no route names is counted as such, not under its own text.
    const unmatched = 'wren_http_requests_total{method="GET",route="(unmatched)",status_class="4xx"}'
    const unmatchedBefore = value(after, unmatched)
    expect((await on.inject({ method: 'GET', url: '/api/no-such-call/42' })).statusCode).toBe(404)
    const later = await scrape(on)
    expect(value(later, unmatched)).toBe(unmatchedBefore + 1)
    expect(later).not.toContain('no-such-call')
    // The health check read the database: its statement was timed.
    await on.inject({ method: 'GET', url: '/api/health' })
    expect(value(await scrape(on), 'wren_db_statement_duration_seconds_count')).toBeGreaterThan(0)
  })

  it('counts a rate-limit refusal under the name of the limit', async () => {
    const series = 'wren_rate_limit_refusals_total{limit="prelogin:address"}'
    const before = value(await scrape(on), series)
    const prelogin = () =>
      on.inject({ method: 'POST', url: '/api/auth/prelogin', remoteAddress: '203.0.113.9', payload: { username: 'nobody' } })
    // Prelogin allows three times the sign-in limit (1 here) per address.
    for (let i = 0; i < 3; i++) expect((await prelogin()).statusCode).toBe(200)
    expect((await prelogin()).statusCode).toBe(429)
    expect(value(await scrape(on), series)).toBe(before + 1)
  })

  it('is hidden from any other address, whatever X-Forwarded-For says', async () => {
    for (const remoteAddress of ['203.0.113.5', '::ffff:10.0.0.1', '2001:db8::1']) {
      const res = await on.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress,
        headers: { 'x-forwarded-for': '127.0.0.1' },
      })
      expect(res.statusCode, remoteAddress).toBe(404)
      expect(res.body).not.toContain('wren_')
    }
  })
})

describe('the pieces', () => {
  it('takes 127.0.0.0/8 and ::1 (mapped too) as loopback, nothing else', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true)
    for (const a of ['128.0.0.1', '10.0.0.1', '::ffff:10.0.0.1', '::2', 'fe80::1', '', undefined, '127.0.0.1.evil']) {
      expect(isLoopback(a), String(a)).toBe(false)
    }
  })

  it('names a limit by its key without whom it counts', () => {
    expect(limitName('writes:posts:0190aa')).toBe('writes:posts')
    expect(limitName('sign-in:address:2001:db8::/64')).toBe('sign-in:address')
    expect(limitName('sign-in:password:account:42')).toBe('sign-in:password')
  })
})
