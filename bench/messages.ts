import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { adminUrl, benchUrl, dropBenchDatabase, serverVersion } from './lib/database'
import { postgresCpuMs, redisCpuMs } from './lib/msg-cpu'
import { type LoadProcess, type ServerProcess, startLoad, startServer } from './lib/msg-processes'
import type { Latency, LoadOutcome, ServerUsage, WindowOutcome } from './lib/msg-protocol'
import { makeMessagingData, type MessagingData } from './lib/msg-setup'
import { type Check, writeResultFiles } from './lib/report'

/**
 * `npm run bench -- --only messages`: direct-message delivery at scale.
 *
 * 1. A fresh database `wren_bench_msg`: N members (5,000) with message keys and a session each, paired in
 *    conversations (bench/lib/msg-setup.ts, direct SQL: no 5,000 argon2 hashes).
 * 2. Three configurations, each with its own server process(es) and its own load process (msg-load-worker.ts)
 *    holding one socket.io client per member:
 *    - `one`: one Wren process (buildApp + attachRealtime as server/main.ts, rate limits off);
 *    - `redis`: two Wren processes with REDIS_URL; sockets alternate between them, every send goes to process A,
 *      so half the deliveries cross Redis to process B;
 *    - `echo`: a plain socket.io server, no database, no auth: a client emits, the server forwards to the
 *      recipient's (and sender's) room. The floor: what socket.io itself costs per message on this machine.
 *    All of them are connected (and warmed up) first; then they are measured in turns, one window of `--seconds`
 *    each per round (A-B-A-B...), so the machine's other work weighs on every configuration alike. Messages go at
 *    a fixed rate (open loop); each is timed from just before the send call to the recipient socket's `new_message`.
 * 3. Per configuration: connect time of all sockets, delivery p50/p95/p99/max (all rounds pooled, and each round's
 *    p99 with the load average as it began), delivered/missing, HTTP answer time, CPU per message (server processes
 *    via process.cpuUsage; PostgreSQL backends of this database; Redis), the ratios to the echo (p99: the median of
 *    the rounds over the echo's), the targets (p99 < 50 ms on one process, < 100 ms through Redis, through Redis
 *    <= 2 x the echo), and bench/results/<date>-<name>.{json,md}. The database is dropped at the end.
 *
 * Flags: --members N (5,000), --rate N messages/s (200), --seconds S per round (10), --rounds N (4),
 * --warmup-seconds S (6), --configs one,redis,echo, --connect-concurrency N (100), --http-connections N (32),
 * --profile DIR (V8 CPU profiles of the server processes), --name NAME of the results files (messages).
 */

export const MESSAGES_DATABASE = 'wren_bench_msg'
const resultsDir = fileURLToPath(new URL('./results', import.meta.url))
const CONFIGS = ['one', 'redis', 'echo', 'echo-db'] as const
type ConfigName = (typeof CONFIGS)[number]

function options() {
  const { values } = parseArgs({
    options: {
      members: { type: 'string', default: '5000' },
      rate: { type: 'string', default: '200' },
      seconds: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '4' },
      'warmup-seconds': { type: 'string', default: '6' },
      configs: { type: 'string', default: CONFIGS.join(',') },
      'connect-concurrency': { type: 'string', default: '100' },
      'http-connections': { type: 'string', default: '32' },
      profile: { type: 'string' },
      name: { type: 'string', default: 'messages' },
    },
    strict: true,
  })
  const number = (name: string, raw: string, min: number, max: number) => {
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`)
    return n
  }
  const configs = values.configs.split(',').map((c) => c.trim())
  for (const c of configs) {
    if (!(CONFIGS as readonly string[]).includes(c)) throw new Error(`--configs takes ${CONFIGS.join(', ')} (got "${c}")`)
  }
  return {
    members: number('members', values.members, 2, 50_000),
    rate: number('rate', values.rate, 1, 20_000),
    seconds: number('seconds', values.seconds, 1, 300),
    rounds: number('rounds', values.rounds, 1, 50),
    warmupSeconds: number('warmup-seconds', values['warmup-seconds'], 0, 120),
    configs: configs as ConfigName[],
    connectConcurrency: number('connect-concurrency', values['connect-concurrency'], 1, 5_000),
    httpConnections: number('http-connections', values['http-connections'], 1, 1_000),
    profile: values.profile ? path.resolve(values.profile) : undefined,
    name: /^[a-z0-9-]{1,40}$/.test(values.name) ? values.name : 'messages',
  }
}

const log = (line: string) => console.log(line)
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'

/** One configuration's numbers. CPU figures are over the measured window. */
interface ConfigResult {
  name: ConfigName
  label: string
  processes: number
  outcome: LoadOutcome
  windowSeconds: number
  /** Sum over the server processes. */
  serverCpuMs: number
  serverElu: number[]
  serverRssMb: number[]
  postgresCpuMs: number
  redisCpuMs?: number
  /** Microseconds of CPU per delivered message, everything in the window counted. */
  cpuPerMessageUs: CpuPerMessage
  /** The same with the connected sockets' own idle cost (heartbeats; measured after the run) taken out. */
  netCpuPerMessageUs: CpuPerMessage
  /** CPU milliseconds per second with the sockets connected and no messages. */
  idle: { seconds: number; serverCpuMsPerSecond: number; postgresCpuMsPerSecond: number; redisCpuMsPerSecond?: number }
}

/** The machine's 1-minute load average as a round's window began. */
interface RoundLoad {
  config: ConfigName
  round: number
  loadAverage: number
}

interface CpuPerMessage {
  server: number
  postgres: number
  redis?: number
  total: number
}

const LABELS: Record<ConfigName, string> = {
  one: 'Wren, one process',
  redis: 'Wren, two processes through Redis',
  echo: 'socket.io echo, no database, no auth',
  'echo-db': 'socket.io echo + HTTP POST + one PostgreSQL insert, no auth',
}

interface Snapshot {
  at: number
  usages: ServerUsage[]
  postgres: number
  redis?: number
}

async function snapshot(servers: ServerProcess[], measureRedis: boolean): Promise<Snapshot> {
  const [usages, postgres, redis] = await Promise.all([
    Promise.all(servers.map((s) => s.usage())),
    postgresCpuMs(MESSAGES_DATABASE),
    measureRedis ? redisCpuMs(redisUrl) : Promise.resolve(undefined),
  ])
  return { at: performance.now(), usages, postgres, ...(redis !== undefined ? { redis } : {}) }
}

/** One configuration with its servers up and its load process connected and warm. */
interface OpenConfig {
  name: ConfigName
  servers: ServerProcess[]
  load: LoadProcess
  idle: ConfigResult['idle']
  /** Summed over the measured windows. */
  cpu: { serverMs: number; postgresMs: number; redisMs?: number; seconds: number; active: number[]; idle: number[] }
}

async function startServers(name: ConfigName, o: ReturnType<typeof options>, url: string, dataDir: string) {
  const profileDir = o.profile ? path.join(o.profile, name) : undefined
  const servers: ServerProcess[] = []
  try {
    if (name === 'echo') servers.push(await startServer({ mode: 'echo' }, profileDir))
    else if (name === 'echo-db') servers.push(await startServer({ mode: 'echo-db', databaseUrl: url }, profileDir))
    else {
      const count = name === 'redis' ? 2 : 1
      for (let i = 0; i < count; i += 1) {
        const start = { mode: 'wren', databaseUrl: url, dataDir, ...(name === 'redis' ? { redisUrl } : {}) } as const
        servers.push(await startServer(start, profileDir))
      }
    }
  } catch (err) {
    for (const s of servers) await s.close()
    throw err
  }
  return servers
}

const serverCpu = (from: Snapshot, to: Snapshot) =>
  to.usages.reduce((sum, u, i) => sum + (u.cpuMicros - (from.usages[i]?.cpuMicros ?? 0)) / 1000, 0)

/** Starts the servers and the load process: sockets connected, the idle cost measured, warmed up. */
async function openConfig(
  name: ConfigName,
  data: MessagingData,
  o: ReturnType<typeof options>,
  url: string,
  dataDir: string,
): Promise<OpenConfig> {
  const servers = await startServers(name, o, url, dataDir)
  try {
    const [first] = servers
    if (!first) throw new Error('no server')
    let idleBefore: Snapshot | undefined
    let idleAfter: Snapshot | undefined
    const load = await startLoad(
      {
        mode: name === 'echo' || name === 'echo-db' ? name : 'wren',
        socketUrls: servers.map((s) => s.url),
        sendUrl: first.url,
        members: data.members,
        pairs: data.pairs,
        rate: o.rate,
        warmupSeconds: o.warmupSeconds,
        seconds: o.seconds,
        drainSeconds: 10,
        idleSeconds: 4,
        connectConcurrency: o.connectConcurrency,
        httpConnections: o.httpConnections,
      },
      async (phase) => {
        if (phase === 'connected') log(`  connected; idle ${4} s, then warming up ${o.warmupSeconds} s...`)
        else if (phase === 'idle-start') idleBefore = await snapshot(servers, name === 'redis')
        else if (phase === 'idle-end') idleAfter = await snapshot(servers, name === 'redis')
      },
    )
    if (!idleBefore || !idleAfter) throw new Error('the load process did not report its idle window')
    const idleSeconds = (idleAfter.at - idleBefore.at) / 1000
    const idle = {
      seconds: idleSeconds,
      serverCpuMsPerSecond: serverCpu(idleBefore, idleAfter) / idleSeconds,
      postgresCpuMsPerSecond: (idleAfter.postgres - idleBefore.postgres) / idleSeconds,
      ...(idleAfter.redis !== undefined && idleBefore.redis !== undefined
        ? { redisCpuMsPerSecond: (idleAfter.redis - idleBefore.redis) / idleSeconds }
        : {}),
    }
    const zeros = servers.map(() => 0)
    return { name, servers, load, idle, cpu: { serverMs: 0, postgresMs: 0, seconds: 0, active: zeros, idle: [...zeros] } }
  } catch (err) {
    for (const s of servers) await s.close()
    throw err
  }
}

/** One measured window of an open configuration, its CPU added to the configuration's. */
async function measureRound(config: OpenConfig): Promise<WindowOutcome> {
  let before: Snapshot | undefined
  let after: Snapshot | undefined
  const measureRedis = config.name === 'redis'
  const round = await config.load.window(async (phase) => {
    if (phase === 'measuring') before = await snapshot(config.servers, measureRedis)
    else after = await snapshot(config.servers, measureRedis)
  })
  if (!before || !after) throw new Error('the load process did not report its window')
  const b = before
  const a = after
  config.cpu.serverMs += serverCpu(b, a)
  config.cpu.postgresMs += a.postgres - b.postgres
  if (a.redis !== undefined && b.redis !== undefined) config.cpu.redisMs = (config.cpu.redisMs ?? 0) + a.redis - b.redis
  config.cpu.seconds += (a.at - b.at) / 1000
  a.usages.forEach((u, i) => {
    const start = b.usages[i]?.elu
    if (!start) return
    config.cpu.active[i] = (config.cpu.active[i] ?? 0) + u.elu.active - start.active
    config.cpu.idle[i] = (config.cpu.idle[i] ?? 0) + u.elu.idle - start.idle
  })
  return round
}

/** Disconnects, stops the servers and sums the configuration up. */
async function closeConfig(config: OpenConfig): Promise<ConfigResult> {
  try {
    const outcome = await config.load.finish()
    const usages = await Promise.all(config.servers.map((s) => s.usage()))
    const { cpu, idle } = config
    const serverElu = cpu.active.map((active, i) => {
      const total = active + (cpu.idle[i] ?? 0)
      return total > 0 ? active / total : 0
    })
    const delivered = Math.max(1, outcome.delivered)
    const perMessage = (ms: number) => (ms * 1000) / delivered
    const windowSeconds = cpu.seconds
    const redis = cpu.redisMs
    const net = {
      server: Math.max(0, cpu.serverMs - idle.serverCpuMsPerSecond * windowSeconds),
      postgres: Math.max(0, cpu.postgresMs - idle.postgresCpuMsPerSecond * windowSeconds),
      redis:
        redis !== undefined && idle.redisCpuMsPerSecond !== undefined
          ? Math.max(0, redis - idle.redisCpuMsPerSecond * windowSeconds)
          : undefined,
    }
    return {
      name: config.name,
      label: LABELS[config.name],
      processes: config.servers.length,
      outcome,
      windowSeconds,
      serverCpuMs: cpu.serverMs,
      serverElu,
      serverRssMb: usages.map((u) => Math.round(u.rssBytes / 2 ** 20)),
      postgresCpuMs: cpu.postgresMs,
      ...(redis !== undefined ? { redisCpuMs: redis } : {}),
      cpuPerMessageUs: {
        server: perMessage(cpu.serverMs),
        postgres: perMessage(cpu.postgresMs),
        ...(redis !== undefined ? { redis: perMessage(redis) } : {}),
        total: perMessage(cpu.serverMs + cpu.postgresMs + (redis ?? 0)),
      },
      netCpuPerMessageUs: {
        server: perMessage(net.server),
        postgres: perMessage(net.postgres),
        ...(net.redis !== undefined ? { redis: perMessage(net.redis) } : {}),
        total: perMessage(net.server + net.postgres + (net.redis ?? 0)),
      },
      idle,
    }
  } finally {
    for (const s of config.servers) await s.close()
  }
}

const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1)
const int = (n: number) => Math.round(n).toLocaleString('en-US')

function resultTable(results: ConfigResult[]): string {
  const header =
    '| configuration | sockets | connect s | connect p99 ms | sent | delivered | missing | p50 ms | p95 ms | p99 ms | max ms | HTTP p50 ms | HTTP p99 ms | server CPU µs/msg (net of idle) | PostgreSQL CPU µs/msg (net) | server ELU |'
  const rule = `|${' --- |'.repeat(1)}${' ---: |'.repeat(15)}`
  const rows = results.map((r) => {
    const o = r.outcome
    return `| ${r.label} | ${int(o.connect.sockets)} | ${o.connect.seconds.toFixed(1)} | ${ms(o.connect.latency.p99)} | ${int(o.sent)} | ${int(o.delivered)} | ${int(o.lost)} | ${ms(o.delivery.p50)} | ${ms(o.delivery.p95)} | ${ms(o.delivery.p99)} | ${ms(o.delivery.max)} | ${o.http ? ms(o.http.p50) : '-'} | ${o.http ? ms(o.http.p99) : '-'} | ${int(r.cpuPerMessageUs.server)} (${int(r.netCpuPerMessageUs.server)}) | ${r.name === 'echo' ? '-' : `${int(r.cpuPerMessageUs.postgres)} (${int(r.netCpuPerMessageUs.postgres)})`} | ${r.serverElu.map((e) => e.toFixed(2)).join(' / ')} |`
  })
  return [header, rule, ...rows].join('\n')
}

function byServerLines(results: ConfigResult[]): string[] {
  return results
    .filter((r) => r.processes > 1)
    .flatMap((r) =>
      r.outcome.deliveryByServer.map(
        (l: Latency, i) =>
          `- ${r.label}, recipients on process ${i === 0 ? 'A (the one sends go to)' : 'B (through Redis)'}: p50 ${ms(l.p50)} ms, p95 ${ms(l.p95)} ms, p99 ${ms(l.p99)} ms, max ${ms(l.max)} ms (${int(l.count)} messages)`,
      ),
    )
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length === 0 ? 0 : sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

/** The delivery p99 of each round, and their median: the figure the ratios to the echo compare. */
interface RoundsSummary {
  config: ConfigName
  p99s: number[]
  medianP99: number
}

function roundsSummary(results: ConfigResult[]): RoundsSummary[] {
  return results.map((r) => {
    const p99s = r.outcome.windows.map((w) => w.delivery.p99)
    return { config: r.name, p99s, medianP99: median(p99s) }
  })
}

/** Through Redis over a baseline: the ratio of the rounds' median p99s, and each round's own ratio. */
function redisOver(
  results: ConfigResult[],
  baseline: 'echo' | 'echo-db' = 'echo',
): { median: number; perRound: number[] } | undefined {
  const rounds = roundsSummary(results)
  const echo = rounds.find((r) => r.config === baseline)
  const redis = rounds.find((r) => r.config === 'redis')
  if (!echo || !redis || echo.medianP99 === 0) return undefined
  return { median: redis.medianP99 / echo.medianP99, perRound: redis.p99s.map((p, i) => p / (echo.p99s[i] ?? Number.NaN)) }
}

function roundsTable(results: ConfigResult[], loads: RoundLoad[]): string {
  const count = Math.max(0, ...results.map((r) => r.outcome.windows.length))
  const header = `| configuration | ${Array.from({ length: count }, (_, i) => `round ${i + 1} p99 ms (load)`).join(' | ')} | median p99 ms |`
  const rule = `| --- |${' ---: |'.repeat(count + 1)}`
  const rows = results.map((r) => {
    const cells = r.outcome.windows.map((w, i) => {
      const load = loads.find((l) => l.config === r.name && l.round === i + 1)
      return `${ms(w.delivery.p99)} (${load ? load.loadAverage.toFixed(1) : '?'})`
    })
    return `| ${r.label} | ${cells.join(' | ')} | ${ms(median(r.outcome.windows.map((w) => w.delivery.p99)))} |`
  })
  return [header, rule, ...rows].join('\n')
}

function ratios(results: ConfigResult[]): Record<string, number> {
  const out: Record<string, number> = {}
  const echo = results.find((r) => r.name === 'echo')
  if (!echo) return out
  const rounds = roundsSummary(results)
  const echoRounds = rounds.find((x) => x.config === 'echo')
  for (const r of results) {
    if (r === echo) continue
    const own = rounds.find((x) => x.config === r.name)
    if (own && echoRounds && echoRounds.medianP99 > 0) {
      out[`${r.label} / echo, delivery p99, median of the rounds`] = own.medianP99 / echoRounds.medianP99
    }
    out[`${r.label} / echo, delivery p50`] = r.outcome.delivery.p50 / echo.outcome.delivery.p50
    out[`${r.label} / echo, delivery p99, all rounds pooled`] = r.outcome.delivery.p99 / echo.outcome.delivery.p99
    out[`${r.label} / echo, server CPU per message`] = r.cpuPerMessageUs.server / echo.cpuPerMessageUs.server
    out[`${r.label} / echo, server CPU per message net of idle sockets`] =
      r.netCpuPerMessageUs.server / echo.netCpuPerMessageUs.server
    out[`${r.label} / echo, all CPU per message net of idle (servers + PostgreSQL${r.name === 'redis' ? ' + Redis' : ''})`] =
      r.netCpuPerMessageUs.total / echo.netCpuPerMessageUs.server
  }
  // The second baseline: what an unauthenticated HTTP send with one durable insert costs before the same emit.
  const echoDb = results.find((r) => r.name === 'echo-db')
  const echoDbRounds = rounds.find((x) => x.config === 'echo-db')
  if (!echoDb || !echoDbRounds) return out
  for (const r of results) {
    if (r.name !== 'one' && r.name !== 'redis') continue
    const own = rounds.find((x) => x.config === r.name)
    if (own && echoDbRounds.medianP99 > 0) {
      out[`${r.label} / echo-db, delivery p99, median of the rounds`] = own.medianP99 / echoDbRounds.medianP99
    }
    out[`${r.label} / echo-db, delivery p50`] = r.outcome.delivery.p50 / echoDb.outcome.delivery.p50
    out[`${r.label} / echo-db, server CPU per message net of idle sockets`] =
      r.netCpuPerMessageUs.server / echoDb.netCpuPerMessageUs.server
  }
  return out
}

function checks(results: ConfigResult[]): Check[] {
  const out: Check[] = []
  const overEcho = redisOver(results)
  if (overEcho) {
    const rounds = roundsSummary(results)
    const echo = rounds.find((r) => r.config === 'echo')
    const redis = rounds.find((r) => r.config === 'redis')
    out.push({
      name: 'delivery through Redis p99 <= 2 x echo p99 (median of the rounds, echo and Redis measured in turns)',
      pass: overEcho.median <= 2,
      detail: `${overEcho.median.toFixed(2)} x (Redis ${ms(redis?.medianP99 ?? 0)} ms, echo ${ms(echo?.medianP99 ?? 0)} ms; per round ${overEcho.perRound.map((x) => x.toFixed(2)).join(', ')})`,
    })
  }
  const overEchoDb = redisOver(results, 'echo-db')
  if (overEchoDb) {
    const rounds = roundsSummary(results)
    const echoDb = rounds.find((r) => r.config === 'echo-db')
    const redis = rounds.find((r) => r.config === 'redis')
    out.push({
      name: 'delivery through Redis p99 <= 2 x echo-db p99 (the echo plus an HTTP send and one durable insert; median of the rounds)',
      pass: overEchoDb.median <= 2,
      detail: `${overEchoDb.median.toFixed(2)} x (Redis ${ms(redis?.medianP99 ?? 0)} ms, echo-db ${ms(echoDb?.medianP99 ?? 0)} ms; per round ${overEchoDb.perRound.map((x) => x.toFixed(2)).join(', ')})`,
    })
  }
  const target = { one: 50, redis: 100 } as const
  for (const r of results) {
    const o = r.outcome
    if (r.name === 'one' || r.name === 'redis') {
      const limit = target[r.name]
      out.push({ name: `${r.label}: delivery p99 < ${limit} ms`, pass: o.delivery.p99 < limit, detail: `p99 ${ms(o.delivery.p99)} ms (p50 ${ms(o.delivery.p50)} ms)` })
    }
    const busiest = Math.max(...r.serverElu)
    out.push({
      name: `${r.label}: server keeps up (event loop busy < 90%)`,
      pass: busiest < 0.9,
      detail: `busiest ${Math.round(busiest * 100)}%${busiest >= 0.9 ? ': saturated, the latencies are queueing' : ''}`,
    })
    out.push({ name: `${r.label}: every socket connects`, pass: o.connect.failed === 0, detail: `${o.connect.failed} failed${o.connect.firstError ? ` (${o.connect.firstError})` : ''}` })
    out.push({
      name: `${r.label}: every message delivered within 10 s of the last send`,
      pass: o.lost === 0 && o.misdelivered === 0,
      detail: `${o.lost} missing, ${o.misdelivered} misdelivered of ${int(o.sent)}`,
    })
    if (o.http) {
      const unanswered = Math.max(0, o.sent - o.http.count - o.http.failed)
      out.push({
        name: `${r.label}: every send answered 201 within 10 s of the last send`,
        pass: o.http.failed === 0 && unanswered === 0,
        detail: `${o.http.failed} failed${o.http.firstError ? ` (${o.http.firstError})` : ''}, ${unanswered} unanswered of ${int(o.sent)}`,
      })
    }
  }
  return out
}

function markdown(report: MessagesReport): string {
  return [
    `# Messaging benchmark, ${report.date}`,
    '',
    `${int(report.settings.members)} members connected, ${report.settings.rate} messages/s in ${report.settings.rounds} rounds of ${report.settings.seconds} s per configuration (measured in turns) after a ${report.settings.warmupSeconds} s warm-up; delivery = send call to the recipient socket's \`new_message\`.`,
    '',
    resultTable(report.results),
    '',
    ...(byServerLines(report.results).length > 0 ? ['## Delivery by the recipient\'s process', '', ...byServerLines(report.results), ''] : []),
    `## Rounds (${report.settings.rounds} of ${report.settings.seconds} s per configuration, measured in turns; 1-minute load average as each began)`,
    '',
    roundsTable(report.results, report.roundLoad),
    '',
    '## Ratios to the baselines (the socket.io echo; echo-db: the echo plus an HTTP send and one durable insert)',
    '',
    ...Object.entries(report.ratios).map(([k, v]) => `- ${k}: ${v.toFixed(2)}`),
    '',
    '## Targets',
    '',
    ...report.checks.map((c) => `- ${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`),
    '',
    '## CPU over the measured window',
    '',
    ...report.results.map(
      (r) =>
        `- ${r.label}: servers ${int(r.serverCpuMs)} ms (event loop busy ${r.serverElu.map((e) => `${Math.round(e * 100)}%`).join(' / ')}, RSS ${r.serverRssMb.join(' / ')} MB), PostgreSQL backends ${int(r.postgresCpuMs)} ms${r.redisCpuMs !== undefined ? `, Redis ${int(r.redisCpuMs)} ms` : ''}, over ${r.windowSeconds.toFixed(1)} s; ${int(r.cpuPerMessageUs.total)} µs per message in all, ${int(r.netCpuPerMessageUs.total)} net of idle (idle: servers ${r.idle.serverCpuMsPerSecond.toFixed(0)} ms/s, PostgreSQL ${r.idle.postgresCpuMsPerSecond.toFixed(0)} ms/s${r.idle.redisCpuMsPerSecond !== undefined ? `, Redis ${r.idle.redisCpuMsPerSecond.toFixed(0)} ms/s` : ''}); sends started at ${r.outcome.achievedRate.toFixed(0)}/s, load process event loop busy ${Math.round(r.outcome.loadElu * 100)}%`,
    ),
    '',
    '## Warm-up (not measured above)',
    '',
    ...report.results.map(
      (r) => `- ${r.label}: ${int(r.outcome.warmup.delivered)} of ${int(r.outcome.warmup.sent)} delivered, p50 ${ms(r.outcome.warmup.delivery.p50)} ms, p99 ${ms(r.outcome.warmup.delivery.p99)} ms`,
    ),
    '',
    '## Settings and machine',
    '',
    ...Object.entries({ ...report.settings, ...report.environment }).map(([k, v]) => `- ${k}: ${v}`),
    '',
  ].join('\n')
}

interface MessagesReport {
  date: string
  environment: Record<string, string | number>
  setup: { members: number; conversations: number; seconds: number }
  settings: { members: number; rate: number; seconds: number; rounds: number; warmupSeconds: number; connectConcurrency: number; httpConnections: number; configs: string }
  roundLoad: RoundLoad[]
  results: ConfigResult[]
  ratios: Record<string, number>
  checks: Check[]
}

async function main() {
  const o = options()
  const url = benchUrl(adminUrl(), MESSAGES_DATABASE)
  const loadBefore = os.loadavg()[0] ?? 0
  const started = Date.now()
  log(`Making ${o.members.toLocaleString('en-US')} members with keys and sessions, and their conversations...`)
  const data = await makeMessagingData(MESSAGES_DATABASE, url, o.members)
  log(`  done in ${data.seconds.toFixed(1)} s (${data.pairs.length.toLocaleString('en-US')} conversations)`)
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wren-bench-msg-'))
  const results: ConfigResult[] = []
  const roundLoad: RoundLoad[] = []
  try {
    // Every configuration connected at once, then measured in turns (one window each per round): the machine's
    // other work then weighs on all of them alike, which back-to-back runs of a few minutes each do not give.
    const open: OpenConfig[] = []
    try {
      for (const name of o.configs) {
        log(`${LABELS[name]}: connecting ${o.members.toLocaleString('en-US')} sockets...`)
        open.push(await openConfig(name, data, o, url, dataDir))
      }
      for (let round = 1; round <= o.rounds; round += 1) {
        for (const config of open) {
          const loadAverage = os.loadavg()[0] ?? 0
          const w = await measureRound(config)
          roundLoad.push({ config: config.name, round, loadAverage })
          log(
            `  round ${round}, ${LABELS[config.name]}: delivered ${w.delivered}/${w.sent}, p50 ${ms(w.delivery.p50)} p99 ${ms(w.delivery.p99)} max ${ms(w.delivery.max)} ms (load ${loadAverage.toFixed(2)})`,
          )
        }
      }
    } finally {
      for (const config of open.splice(0)) {
        const r = await closeConfig(config)
        results.push(r)
        const d = r.outcome.delivery
        log(
          `${r.label}: connect ${r.outcome.connect.seconds.toFixed(1)} s (${r.outcome.connect.failed} failed); delivered ${r.outcome.delivered}/${r.outcome.sent}, p50 ${ms(d.p50)} p95 ${ms(d.p95)} p99 ${ms(d.p99)} max ${ms(d.max)} ms; server CPU ${int(r.cpuPerMessageUs.server)} µs/msg`,
        )
      }
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
    await dropBenchDatabase(MESSAGES_DATABASE)
  }

  const report: MessagesReport = {
    date: new Date().toISOString().slice(0, 10),
    environment: {
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      loadAverage1mBefore: Number(loadBefore.toFixed(2)),
      loadAverage1mAfter: Number((os.loadavg()[0] ?? 0).toFixed(2)),
      postgres: await serverVersion(),
      totalSeconds: Math.round((Date.now() - started) / 1000),
    },
    setup: { members: data.members.length, conversations: data.pairs.length, seconds: Number(data.seconds.toFixed(1)) },
    settings: {
      members: o.members,
      rate: o.rate,
      seconds: o.seconds,
      rounds: o.rounds,
      warmupSeconds: o.warmupSeconds,
      connectConcurrency: o.connectConcurrency,
      httpConnections: o.httpConnections,
      configs: o.configs.join(','),
    },
    roundLoad,
    results,
    ratios: ratios(results),
    checks: checks(results),
  }
  console.log(`\n${resultTable(results)}\n`)
  console.log(`${roundsTable(results, roundLoad)}\n`)
  for (const line of byServerLines(results)) console.log(line)
  for (const [k, v] of Object.entries(report.ratios)) console.log(`${k}: ${v.toFixed(2)}`)
  for (const c of report.checks) console.log(`${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`)
  const files = await writeResultFiles(resultsDir, report.date, o.name, report, markdown(report))
  console.log(`\nWrote ${path.relative(process.cwd(), files.json)} and ${path.relative(process.cwd(), files.markdown)}`)
  console.log(`Total ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
