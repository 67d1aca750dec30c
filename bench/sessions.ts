import { Effect } from 'effect'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../server/app'
import { deriveSecrets, freshKdf } from '../src/crypto/kdf'
import { listen } from './lib/app-http'
import { benchUrl, dropBenchDatabase, recreateBenchDatabase } from './lib/database'
import type { FetchLoadRequest } from './lib/fetch-load-worker'
import { type LoadResult, runWorker } from './lib/load'
import { type Check, fromHttp, simpleMarkdown, type Scenario, writeResultFiles } from './lib/report'
import { numberArg } from './lib/args'

/**
 * `npm run bench -- --only sessions`: what signing in and being signed in cost. On PostgreSQL, with the limits off:
 * - a password sign-in (POST /auth/login with the derived secret, as the browser sends it): one argon2id
 *   verification on the server plus the session row, 2 clients;
 * - an authenticated request (GET /auth/me, the cheapest call that resolves a bearer token), 4 clients, 200 members'
 *   tokens in turn: the session lookup must be a cache hit, so expiry rules must be decided on the cached entry.
 * Targets: every measured authenticated request is a session cache hit, and its p50 stays under 2 ms.
 */

const DATABASE = 'wren_bench_sessions'
const MEMBERS = 200
const PASSWORD = 'Bench password 1'
const arg = numberArg
const durationSeconds = arg('duration', 10)
const signInConnections = 2
const requestConnections = arg('connections', 4)
const resultsDir = fileURLToPath(new URL('./results', import.meta.url))
const workerFile = fileURLToPath(new URL('./lib/fetch-load-worker.ts', import.meta.url))
const load = (request: FetchLoadRequest) => runWorker<FetchLoadRequest, LoadResult>(workerFile, request)

async function main() {
  await recreateBenchDatabase(DATABASE)
  const databaseUrl = benchUrl(undefined, DATABASE)
  const dataDir = path.join(os.tmpdir(), `wren-bench-sessions-${process.pid}`)
  const loadBefore = os.loadavg()[0] ?? 0
  const scenarios: Scenario[] = []
  const app = await buildApp({ config: { databaseUrl, dataDir, rateLimits: false, logLevel: 'silent' }, logger: false })
  let cache = { hits: 0, misses: 0 }
  try {
    const base = await listen(app)
    // One derivation serves every member: the browser's work is not what is measured here.
    const secrets = await Effect.runPromise(deriveSecrets(PASSWORD, freshKdf()))
    const tokens: string[] = []
    for (let n = 0; n < MEMBERS; n += 1) {
      const res = await fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: `sessions_${n}`,
          email: `sessions_${n}@bench.invalid`,
          displayName: `Sessions ${n}`,
          authSecret: secrets.authSecret,
          kdf: secrets.kdf,
        }),
      })
      if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`)
      tokens.push(((await res.json()) as { token: string }).token)
    }

    const signIn = await load({
      base,
      requests: [
        {
          path: '/api/auth/login',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'sessions_0', authSecret: secrets.authSecret }),
        },
      ],
      ok: [200],
      connections: signInConnections,
      warmupRequests: 20,
      durationSeconds,
    })
    scenarios.push(fromHttp('password sign-in (POST /auth/login)', signIn))

    // Every token once before measuring: the cache holds them all, as it would for members active this minute.
    for (const token of tokens) await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    const before = app.services.sessions.cacheStats
    const hitsBefore = { hits: before.hits, misses: before.misses }
    const requests = await load({
      base,
      requests: tokens.map((token) => ({ path: '/api/auth/me', method: 'GET', headers: { authorization: `Bearer ${token}` } })),
      ok: [200],
      connections: requestConnections,
      warmupRequests: 1000,
      durationSeconds,
    })
    scenarios.push(fromHttp(`authenticated request (GET /auth/me), ${MEMBERS} members in turn`, requests))
    const after = app.services.sessions.cacheStats
    cache = { hits: after.hits - hitsBefore.hits, misses: after.misses - hitsBefore.misses }
  } finally {
    await app.close()
    await dropBenchDatabase(DATABASE)
  }

  const request = scenarios.find((s) => s.name.startsWith('authenticated'))
  if (!request) throw new Error('no authenticated run')
  const checks: Check[] = [
    {
      name: 'authenticated requests: every session lookup is a cache hit',
      pass: cache.misses === 0 && cache.hits > 0,
      detail: `${cache.hits} hits, ${cache.misses} misses`,
    },
    {
      name: 'authenticated request p50 under 2 ms',
      pass: request.p50 < 2 && request.failures === 0,
      detail: `p50 ${request.p50.toFixed(3)} ms, p99 ${request.p99.toFixed(3)} ms, ${request.failures} failures`,
    },
  ]
  const date = new Date().toISOString().slice(0, 10)
  const environment = {
    cpus: os.cpus().length,
    node: process.version,
    loadAverage1mBefore: Number(loadBefore.toFixed(2)),
    loadAverage1mAfter: Number((os.loadavg()[0] ?? 0).toFixed(2)),
  }
  const settings = { members: MEMBERS, signInConnections, requestConnections, durationSeconds }
  const markdown = simpleMarkdown(`Sign-in and session lookup, ${date}`, scenarios, checks, { ...settings, ...environment })
  const files = await writeResultFiles(resultsDir, date, 'sessions', { date, environment, settings, scenarios, cache, checks }, markdown)
  console.log(markdown)
  console.log(`written: ${files.markdown}`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
