import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fakeEnvelope } from '../api/e2ee-support'
import { Balancer, documentedConfigDrift } from './haproxy'
import { checkpoint } from './checkpoint'
import { createDatabase, dropDatabase, freePort, sleep, WrenProcess } from './processes'
import { type RestartReport, rollingRestart } from './restart'
import { RoundPlayer } from './rounds'
import { type Delivery, MemberSocket, missedDeliveries } from './sockets'
import { Verdict } from './verdict'
import { fakeKeys, type Member, type Op, perform, Planner, register, System } from './workload'

/**
 * `npm run test:cluster`: two Wren processes on one PostgreSQL and one Redis behind HAProxy, a mixed workload of
 * several members through the balancer, a rolling restart of both processes while it runs, and every write checked
 * against a third process on its own database that gets the same calls in the same order (the oracle). Exits 1 on
 * any failed request, any difference from the oracle, any acknowledged write missing, or any message event a
 * connected socket did not get. CLUSTER_SEED replays a run's choices; CLUSTER_KEEP=1 keeps the logs.
 */

const MEMBERS = 6
/** Workload before the restart, and after it, before each checkpoint. */
const WARM_MS = 8_000
const AFTER_RESTART_MS = 3_000
/** How long a checkpoint waits for every process to agree with the oracle (cross-process invalidations). */
const SETTLE_MS = 5_000
/** How long after a send an event may take to reach a connected socket. */
const DELIVERY_MS = 3_000

const seed = Number(process.env.CLUSTER_SEED || Math.floor(Math.random() * 2 ** 31))
const startedAt = Date.now()
const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`
const log = (line: string) => console.log(`[${elapsed()}] ${line}`)

const verdict = new Verdict()
/** What the run started (processes, HAProxy, databases), stopped or dropped last first, also on Ctrl-C. */
const cleanups: (() => Promise<unknown>)[] = []

let cleaning: Promise<void> | undefined

/** One cleanup however many ask (the end of the run and a signal): each waits for all of it. */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((err: unknown) => console.error(`cleanup: ${String(err)}`))
    }
  })()
  return cleaning
}

// Ctrl-C stops what the run started and drops its databases first. `npm run test:cluster` runs node with tsx's loader
// in this one process, as the servers run: the tsx CLI's wrapper ends its child before such a cleanup is done. A second
// signal must not begin it again.
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: stopping what the run started`)
    void cleanUp().finally(() => process.exit(130))
  })
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wren-cluster-'))
  const run = randomBytes(4).toString('hex')
  const clusterDb = `wren_cluster_${run}`
  const oracleDb = `wren_cluster_${run}_oracle`
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
  log(`seed ${seed}, files in ${dir}`)
  try {
    const drift = await documentedConfigDrift()
    if (drift) verdict.fail(drift)
    const [clusterUrl, oracleUrl] = await Promise.all([createDatabase(clusterDb), createDatabase(oracleDb)])
    cleanups.push(() => dropDatabase(clusterDb), () => dropDatabase(oracleDb))

    // Media live on a disk both processes share; the oracle has its own, as it has its own database.
    const shared = { dataDir: path.join(dir, 'shared-data'), databaseUrl: clusterUrl, redisUrl, logDir: dir }
    // a drains as docs/architecture.md advises: it keeps answering for five of HAProxy's 200 ms check intervals, so
    // HAProxy has stopped sending before it stops listening. b has the default, no delay: it stops listening at once
    // and its restart leans on HAProxy's retries. Neither may fail a request.
    const a = new WrenProcess({ name: 'a', port: await freePort(), drainDelayMs: 1_000, ...shared })
    const b = new WrenProcess({ name: 'b', port: await freePort(), drainDelayMs: 0, ...shared })
    const oracle = new WrenProcess({
      name: 'oracle',
      port: await freePort(),
      dataDir: path.join(dir, 'oracle-data'),
      databaseUrl: oracleUrl,
      logDir: dir,
      drainDelayMs: 0,
    })
    cleanups.push(() => a.stop(), () => b.stop(), () => oracle.stop())
    // The first process migrates the new database; the second starts on a migrated one, as in a rolling deploy.
    await Promise.all([a.start(), oracle.start()])
    await b.start()
    const balancer = new Balancer({ port: await freePort(), statsPort: await freePort(), servers: [a, b].map((p) => ({ name: p.options.name, port: p.options.port })) }, dir)
    await balancer.start()
    cleanups.push(() => balancer.stop())
    await Promise.all([balancer.waitFor('a', 'UP'), balancer.waitFor('b', 'UP')])
    log(`processes a (:${a.options.port}), b (:${b.options.port}) behind HAProxy (:${balancer.options.port}); oracle (:${oracle.options.port})`)

    const cluster = new System('cluster', balancer.url)
    const reference = new System('oracle', oracle.url)
    const members: Member[] = Array.from({ length: MEMBERS }, (_, index) => ({ index, username: `m${index}_${run}` }))
    const courier: Member = { index: MEMBERS, username: `courier_${run}` }
    for (const member of [...members, courier]) {
      const keys = fakeKeys()
      for (const system of [cluster, reference]) {
        const answer = await register(system, member, keys)
        if (answer.status !== 201) throw new Error(`${system.label}: registering ${member.username} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
      }
    }
    const sockets = new Map(members.map((m) => [m.username, new MemberSocket(balancer.url, cluster.token(m))]))
    cleanups.push(async () => {
      for (const socket of sockets.values()) socket.close()
    })
    await Promise.all([...sockets.values()].map((s) => s.connected()))
    log(`${members.length} members and a courier registered on both systems, sockets connected through HAProxy`)

    const planner = new Planner(members, seed)
    const player = new RoundPlayer(cluster, reference, planner, verdict, elapsed)

    const systems = { oracle: reference, cluster, processes: [a, b], members }

    await player.playFor(WARM_MS)
    log(`${player.rounds} rounds before the restart`)
    await checkpoint('before the restart', systems, SETTLE_MS, verdict, log)

    const restartStarted = Date.now()
    const latenciesBefore = player.latencies.length
    const restarting = rollingRestart(balancer, [a, b])
    await player.playFor(AFTER_RESTART_MS, restarting)
    const restarts: RestartReport[] = await restarting
    const restartLatencies = player.latencies.slice(latenciesBefore)
    log(`rolling restart done in ${((Date.now() - restartStarted) / 1000).toFixed(1)} s; ${player.rounds} rounds in all`)
    const final = await checkpoint('after the rolling restart', systems, SETTLE_MS, verdict, log)

    // Every acknowledged write is there at the end, on the cluster itself (not only as the oracle also has it).
    for (const post of planner.posts) {
      if (!(post.text in (final[post.author.username]?.posts ?? {}))) verdict.fail(`acknowledged post lost: "${post.text}" by ${post.author.username}`)
    }
    for (const message of player.sentMessages) {
      const conversation = final[message.sender.username]?.conversations[message.recipient.username] ?? []
      if (!conversation.includes(message.content)) {
        verdict.fail(`acknowledged message lost: ${message.id} from ${message.sender.username} to ${message.recipient.username}`)
      }
    }

    // Sockets: every message sent while its recipient's socket stayed connected arrived; every socket reconnected
    // after its process restarted and receives again (the courier's message to each member, sent last).
    const probes: Delivery[] = []
    for (const member of members) {
      const op: Op = { kind: 'message', actor: courier, target: member, content: fakeEnvelope() }
      const sentAt = Date.now()
      const outcome = await perform(cluster, op)
      verdict.judge(cluster, op, outcome)
      verdict.judge(reference, op, await perform(reference, op))
      if (outcome.messageId) probes.push({ recipient: member, id: outcome.messageId, sentAt, ackAt: Date.now() })
    }
    await sleep(DELIVERY_MS)
    const { lost, whileReconnecting } = missedDeliveries(player.sentMessages, sockets, DELIVERY_MS)
    for (const message of lost) verdict.fail(`message ${message.id} to ${message.recipient.username} never reached their connected socket`)
    for (const probe of probes) {
      const socket = sockets.get(probe.recipient.username) as MemberSocket
      if (!socket.received.has(probe.id)) {
        verdict.fail(`${probe.recipient.username}'s socket did not receive the courier's message after the restart (connected: ${socket.socket.connected}, connects: ${socket.connects})`)
      }
      if (socket.connects < 2) verdict.fail(`${probe.recipient.username}'s socket never reconnected although both processes restarted`)
    }

    if (restarts.some((r) => r.exitCode !== 0)) verdict.fail(`a process did not exit cleanly: ${restarts.map((r) => `${r.name} ${r.exitCode}`).join(', ')}`)

    const total = [...player.counts.values()].reduce((s, n) => s + n, 0)
    const sorted = [...player.latencies].sort((x, y) => x - y)
    const p = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(0)
    console.log('\n=== cluster test summary')
    console.log(`seed ${seed}; ${members.length} members; ${player.rounds} rounds; ${total} calls through HAProxy (the same on the oracle)`)
    console.log(`per kind: ${[...player.counts.entries()].sort().map(([k, n]) => `${k} ${n}`).join(', ')}`)
    console.log(`latency through HAProxy: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, slowest ${player.slowest.ms.toFixed(0)} ms (${player.slowest.what}); during the restart ${restartLatencies.length} calls, slowest ${Math.max(0, ...restartLatencies).toFixed(0)} ms`)
    for (const r of restarts) {
      console.log(`restart ${r.name}: HAProxy saw it down after ${r.downSeenMs} ms, drained and exited (code ${r.exitCode}) after ${r.drainMs} ms, ready again ${r.startMs} ms after start, back in HAProxy ${r.upSeenMs} ms later`)
    }
    const { retried, redispatched } = await balancer.retries()
    console.log(`HAProxy: ${retried} retries, ${redispatched} redispatches to the other process`)
    const reconnects = [...sockets.values()].reduce((s, x) => s + x.connects - 1, 0)
    console.log(`sockets: ${player.sentMessages.length} messages sent to members' sockets, ${whileReconnecting} sent while the recipient was reconnecting, ${reconnects} reconnects; ${probes.length} courier probes`)
    console.log(`failures: ${verdict.failures.length}; differences from the oracle: ${verdict.mismatches.length}; time ${elapsed()}`)
    verdict.print()
  } finally {
    await cleanUp()
    if (verdict.passed && !process.env.CLUSTER_KEEP) await rm(dir, { recursive: true, force: true })
    else console.log(`logs kept in ${dir}`)
  }
}

try {
  await main()
} catch (err) {
  verdict.fail(`the run stopped: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  console.error(verdict.failures.at(-1))
}
process.exit(verdict.passed ? 0 : 1)
