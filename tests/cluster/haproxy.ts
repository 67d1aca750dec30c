import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { READY_PATH, repositoryRoot, sleep, waitForOk } from './processes'

/** Debian's package. */
const HAPROXY = '/usr/sbin/haproxy'

export interface BalancerOptions {
  port: number
  statsPort: number
  servers: { name: string; port: number }[]
}

/**
 * The HAProxy configuration the cluster test runs and docs/architecture.md shows ("Running more than one process").
 *
 * - API requests are balanced round robin with no affinity: every answer must be right from either process.
 * - `option httpchk GET /api/ready` every 200 ms, down after one failure: a draining process answers 503 and leaves
 *   the rotation within a check interval; a slow answer is not a failure (`timeout check`).
 * - `retry-on conn-failure empty-response response-timeout` with `option redispatch 1`: a request that meets a
 *   process going away (connection refused, or an idle keep-alive connection it closed as the request was sent) is
 *   sent again to the other process. HAProxy retries POSTs too; that is safe only because a draining Wren finishes
 *   every request it has started and closes only idle connections, so a request it never answered is one it never ran.
 *   A process killed in the middle of a write breaks that (docs/architecture.md says what follows).
 * - socket.io: sticky by cookie on `/socket.io/` only. The SPA's client starts with HTTP long-polling and upgrades
 *   to a WebSocket (socket.io's default transports); every polling request of one engine.io session must reach the
 *   process that holds it, or it answers 400 "Session ID unknown". A cookie set by HAProxy pins the session, and when
 *   that process is down `option redispatch` sends the reconnecting client to the other one, which sets a new
 *   cookie. The test's socket clients keep cookies (`withCredentials`) and use the default transports, as the SPA
 *   does, instead of WebSocket-only, so the test proves the configuration a browser needs.
 * - `timeout tunnel` keeps upgraded WebSockets open beyond the HTTP timeouts.
 */
export function balancerConfig({ port, statsPort, servers }: BalancerOptions): string {
  const serverLines = (cookie: boolean) =>
    servers
      .map((s) => `  server ${s.name} 127.0.0.1:${s.port} check${cookie ? ` cookie ${s.name}` : ''}`)
      .join('\n')
  return `global
  maxconn 2000
  log stdout format raw local0

defaults
  mode http
  # X-Forwarded-For, for the processes' rate limits per client address (TRUST_PROXY names this balancer).
  option forwardfor
  log global
  option httplog
  option dontlog-normal
  timeout connect 1s
  timeout client 30s
  timeout server 15s
  timeout tunnel 1h
  # A check answered slowly (a busy event loop) must not take a process out: only a refusal, a 503 or 3 s of
  # silence do. Without this the read timeout is the 200 ms interval, and under load both processes left at once.
  timeout check 3s
  timeout http-keep-alive 30s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout

frontend wren
  bind 127.0.0.1:${port}
  # Fastify tells clients "Keep-Alive: timeout=72" and HAProxy passes that on, while it closes an idle client
  # connection after timeout http-keep-alive: a client trusting the hint sends a request on a connection HAProxy is closing
  # and gets no answer. The hint is HAProxy's to give, with a margin under its own timeout.
  http-response set-header Keep-Alive timeout=25
  acl realtime path_beg /socket.io/
  use_backend wren_realtime if realtime
  default_backend wren_api

backend wren_api
  balance roundrobin
  option httpchk GET ${READY_PATH}
  http-check expect status 200
  default-server inter 200ms fastinter 100ms downinter 200ms fall 1 rise 2
${serverLines(false)}

backend wren_realtime
  balance roundrobin
  cookie wren_node insert indirect nocache httponly
  option httpchk GET ${READY_PATH}
  http-check expect status 200
  default-server inter 200ms fastinter 100ms downinter 200ms fall 1 rise 2
${serverLines(true)}

listen stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
`
}

/** The ports docs/architecture.md shows the configuration with. */
const DOCUMENTED: BalancerOptions = { port: 8080, statsPort: 8404, servers: [{ name: 'a', port: 3001 }, { name: 'b', port: 3002 }] }

/** Whether docs/architecture.md ("Example HAProxy configuration") still shows this configuration; what differs if not. */
export async function documentedConfigDrift(): Promise<string | undefined> {
  const doc = await readFile(path.join(repositoryRoot, 'docs', 'architecture.md'), 'utf8')
  const shown = /### Example HAProxy configuration[\s\S]*?```haproxy\n([\s\S]*?)```/.exec(doc)?.[1]
  if (shown === undefined) return 'docs/architecture.md has no "Example HAProxy configuration" block'
  const wanted = balancerConfig(DOCUMENTED).split('\n')
  const lines = shown.split('\n')
  const at = wanted.findIndex((line, i) => line !== lines[i])
  if (at === -1 && lines.length === wanted.length) return undefined
  return `docs/architecture.md's example HAProxy configuration differs from tests/cluster/haproxy.ts at line ${at + 1}: ` +
    `${JSON.stringify(lines[at])} vs ${JSON.stringify(wanted[at])}`
}

export type ServerState = 'UP' | 'DOWN' | 'other'

/** HAProxy in the foreground (`-db`), its configuration in `dir`. */
export class Balancer {
  readonly url: string
  private child: ChildProcess | undefined
  private exit: Promise<void> = Promise.resolve()

  constructor(
    readonly options: BalancerOptions,
    private readonly dir: string,
  ) {
    this.url = `http://127.0.0.1:${options.port}`
  }

  async start(): Promise<void> {
    if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: apt-get install haproxy`)
    const config = path.join(this.dir, 'haproxy.cfg')
    await writeFile(config, balancerConfig(this.options))
    const log = createWriteStream(path.join(this.dir, 'haproxy.log'))
    const child = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout?.pipe(log)
    child.stderr?.pipe(log)
    this.child = child
    this.exit = new Promise((resolve) => child.once('exit', () => resolve()))
    await waitForOk(`http://127.0.0.1:${this.options.statsPort}/stats`, 10_000, () => child.exitCode === null).catch(
      async (err: unknown) => {
        throw new Error(`HAProxy did not start: ${String(err)}\n${await readFile(path.join(this.dir, 'haproxy.log'), 'utf8')}`)
      },
    )
  }

  async stop(): Promise<void> {
    this.child?.kill('SIGTERM')
    await this.exit
  }

  /** How HAProxy sees one server in the API backend, from its stats CSV. */
  async state(server: string): Promise<ServerState> {
    const res = await fetch(`http://127.0.0.1:${this.options.statsPort}/stats;csv`)
    const [header = '', ...rows] = (await res.text()).split('\n')
    const columns = header.replace(/^# /, '').split(',')
    const statusAt = columns.indexOf('status')
    for (const row of rows) {
      const cells = row.split(',')
      if (cells[0] === 'wren_api' && cells[1] === server) {
        const status = cells[statusAt] ?? ''
        return status.startsWith('UP') ? 'UP' : status.startsWith('DOWN') ? 'DOWN' : 'other'
      }
    }
    return 'other'
  }

  /** How many requests the API backend retried, and how many of those went to the other process. */
  async retries(): Promise<{ retried: number; redispatched: number }> {
    const res = await fetch(`http://127.0.0.1:${this.options.statsPort}/stats;csv`)
    const [header = '', ...rows] = (await res.text()).split('\n')
    const columns = header.replace(/^# /, '').split(',')
    const cells = rows.map((row) => row.split(',')).find((c) => c[0] === 'wren_api' && c[1] === 'BACKEND') ?? []
    const count = (name: string) => Number(cells[columns.indexOf(name)] || 0)
    return { retried: count('wretr'), redispatched: count('wredis') }
  }

  /** Resolves once HAProxy sees `server` in `state`; the time it took. */
  async waitFor(server: string, state: ServerState, timeoutMs = 20_000): Promise<number> {
    const started = Date.now()
    while (Date.now() - started < timeoutMs) {
      if ((await this.state(server)) === state) return Date.now() - started
      await sleep(25)
    }
    throw new Error(`HAProxy did not see ${server} ${state} within ${timeoutMs} ms`)
  }
}
