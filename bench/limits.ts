import { Effect } from 'effect'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { buildApp } from '../server/app'
import { parseRateLimit } from '../server/config'
import { listen } from './lib/app-http'
import { benchUrl, dropBenchDatabase, recreateBenchDatabase } from './lib/database'
import type { LoadResult } from './lib/load'
import { runWorker } from './lib/load'
import type { FetchLoadRequest } from './lib/fetch-load-worker'
import { type Check, fromHttp, simpleMarkdown, type Scenario, writeResultFiles } from './lib/report'
import { deriveSecrets, freshKdf } from '../src/crypto/kdf'
import { numberArg } from './lib/args'
import { textPostRequests } from './lib/text-posts'

async function registrationSecrets(password: string) {
  const secrets = await Effect.runPromise(deriveSecrets(password, freshKdf()))
  return { authSecret: secrets.authSecret, kdf: secrets.kdf }
}

/**
 * `npm run bench -- --only limits`: what the per-member write limits cost a post. The same app on PostgreSQL creates
 * text posts from 50 members (round robin, 4 clients: below saturation) with limits off and on, without Redis
 * (limits in memory) and with Redis (REDIS_URL or redis://127.0.0.1:6379: limits counted there). With limits on the
 * post limit is raised out of reach, so every request pays the limiter's full path (a Redis round trip) and none is
 * refused. Target: limits add under 1 ms to a post's p50.
 */

const DATABASE = 'wren_bench_limits'
const MEMBERS = 50
const arg = numberArg
const durationSeconds = arg('duration', 10)
const warmupRequests = arg('warmup', 500)
const settleSeconds = arg('settle', 30)
/** Few clients: below saturation, so a post's latency is its cost and the limiter's share shows. */
const connections = arg('connections', 4)
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const resultsDir = fileURLToPath(new URL('./results', import.meta.url))
const workerFile = fileURLToPath(new URL('./lib/fetch-load-worker.ts', import.meta.url))

async function register(base: string, n: number): Promise<string> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `limits_${n}`,
      email: `limits_${n}@bench.invalid`,
      displayName: `Limits ${n}`,
      // What a browser sends for a password (src/crypto/kdf.ts): the derived secret and its settings.
      ...(await registrationSecrets('Bench password 1')),
    }),
  })
  if (res.status !== 201 && res.status !== 200) throw new Error(`register answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

type Variant = { name: string; rateLimits: boolean; redis: boolean }
/**
 * Pairs that differ only in the limits: with REDIS_URL the app also sends its cache invalidations through Redis, a
 * cost of its own, so the Redis-counted limits are held against the same app with limits off, not against no Redis.
 */
const variants: Variant[] = [
  { name: 'post, limits off', rateLimits: false, redis: false },
  { name: 'post, limits on (memory)', rateLimits: true, redis: false },
  { name: 'post, Redis, limits off', rateLimits: false, redis: true },
  { name: 'post, Redis, limits on (counted in Redis)', rateLimits: true, redis: true },
]

async function main() {
  await recreateBenchDatabase(DATABASE)
  const databaseUrl = benchUrl(undefined, DATABASE)
  const dataDir = path.join(os.tmpdir(), `wren-bench-limits-${process.pid}`)
  const loadBefore = os.loadavg()[0] ?? 0
  const scenarios: Scenario[] = []
  try {
    const setup = await buildApp({ config: { databaseUrl, dataDir, rateLimits: false, logLevel: 'silent' }, logger: false })
    const tokens: string[] = []
    try {
      const base = await listen(setup)
      for (let n = 0; n < MEMBERS; n += 1) tokens.push(await register(base, n))
      // Settle before measuring: on a fresh database the first thousands of posts get faster by the minute (plans
      // and statistics of tables that start empty), a drift larger than the limiter's cost. Post unmeasured for a
      // while, then give PostgreSQL fresh statistics.
      await runWorker<FetchLoadRequest, LoadResult>(workerFile, {
        base,
        requests: textPostRequests(tokens),
        ok: [200, 201],
        connections,
        warmupRequests: 0,
        durationSeconds: settleSeconds,
      })
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      await client.query('vacuum analyze').finally(() => client.end())
    } finally {
      await setup.close()
    }
    // A-B-C then C-B-A: the database grows and warms through the run, so each variant gets an early and a late turn.
    for (const [round, variant] of [...variants, ...[...variants].reverse()].entries()) {
      const app = await buildApp({
        config: {
          databaseUrl,
          dataDir,
          rateLimits: variant.rateLimits,
          postLimitPerMember: parseRateLimit('1000000/1h'),
          logLevel: 'silent',
          ...(variant.redis ? { redisUrl } : {}),
        },
        rateLimitNamespace: `bench-limits-${process.pid}-${scenarios.length}`,
        logger: false,
      })
      try {
        const base = await listen(app)
        const request: FetchLoadRequest = { base, requests: textPostRequests(tokens), ok: [200, 201], connections, warmupRequests, durationSeconds }
        const result = await runWorker<FetchLoadRequest, LoadResult>(workerFile, request)
        scenarios.push(fromHttp(`${variant.name}, run ${round < variants.length ? 1 : 2}`, result))
        console.log(`${variant.name}: p50 ${result.p50} ms, p99 ${result.p99} ms, ${Math.round(result.requestsPerSecond)}/s`)
      } finally {
        await app.close()
      }
    }
  } finally {
    await dropBenchDatabase(DATABASE)
  }
  const p50Of = (variant: Variant) => {
    const runs = scenarios.filter((s) => s.name.startsWith(`${variant.name},`))
    return { p50: runs.reduce((sum, s) => sum + s.p50, 0) / runs.length, failures: runs.reduce((sum, s) => sum + s.failures, 0) }
  }
  const pairs = [
    [variants[0], variants[1]],
    [variants[2], variants[3]],
  ] as const
  const checks: Check[] = pairs.map(([offVariant, onVariant]) => {
    if (!offVariant || !onVariant) throw new Error('missing variant')
    const off = p50Of(offVariant)
    const on = p50Of(onVariant)
    return {
      name: `${onVariant.name}: mean p50 of two runs under "${offVariant.name}" + 1 ms`,
      pass: on.p50 < off.p50 + 1 && on.failures === 0,
      detail: `${on.p50.toFixed(2)} ms vs ${off.p50.toFixed(2)} ms (${(on.p50 - off.p50).toFixed(2)} ms), ${on.failures} failures`,
    }
  })
  const date = new Date().toISOString().slice(0, 10)
  const environment = {
    cpus: os.cpus().length,
    node: process.version,
    loadAverage1mBefore: Number(loadBefore.toFixed(2)),
    loadAverage1mAfter: Number((os.loadavg()[0] ?? 0).toFixed(2)),
  }
  const report = { date, environment, settings: { members: MEMBERS, connections, settleSeconds, durationSeconds, warmupRequests }, scenarios, checks }
  const markdown = simpleMarkdown(`Write limits on the post path, ${date}`, scenarios, checks, { ...report.settings, ...environment })
  const files = await writeResultFiles(resultsDir, date, 'limits', report, markdown)
  console.log(markdown)
  console.log(`written: ${files.markdown}`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
