import type { EventLoopUtilization } from 'node:perf_hooks'
import type { BenchMember, BenchPair } from './msg-setup'

/** What the messaging bench's child processes (msg-server.ts, msg-load-worker.ts) and its parent say over IPC. */

export type ServerStart =
  | { mode: 'wren'; databaseUrl: string; dataDir: string; redisUrl?: string }
  | { mode: 'echo' }
  | { mode: 'echo-db'; databaseUrl: string }

export type ServerCommand = { cmd: 'start'; start: ServerStart } | { cmd: 'usage' } | { cmd: 'close' }

export interface ServerUsage {
  /** process.cpuUsage(), user + system, microseconds since the process started. */
  cpuMicros: number
  elu: EventLoopUtilization
  rssBytes: number
}

export type ServerAnswer =
  | { cmd: 'started'; port: number }
  | { cmd: 'usage'; usage: ServerUsage }
  | { cmd: 'closed' }
  | { cmd: 'error'; error: string }

/** The echo baseline's client event: forward `content` to `to` (and back to the sender's own sockets). */
export interface EchoSend {
  to: string
  conversationId: string
  content: string
}

/** The echo-db baseline's HTTP send (POST /send): the echo's fields and who sends. */
export interface EchoDbSend extends EchoSend {
  from: string
}

export interface LoadPlan {
  /** `echo-db` sends over HTTP like `wren` (EchoDbSend to `/send`), and its sockets connect like `echo`'s. */
  mode: 'wren' | 'echo' | 'echo-db'
  /** Socket servers; member i connects to `socketUrls[i % socketUrls.length]`. */
  socketUrls: string[]
  /** Wren: the HTTP base every send goes to (process A). */
  sendUrl: string
  members: BenchMember[]
  pairs: BenchPair[]
  /** Messages per second, open loop (sends are started on schedule whatever the answers do). */
  rate: number
  warmupSeconds: number
  /** Length of each measured window; the parent asks for windows one at a time (LoadCommand `window`). */
  seconds: number
  /** How long to wait for stragglers after the last send before counting a message lost. */
  drainSeconds: number
  /**
   * Once connected, before the first message: what the connected sockets cost by themselves (socket.io's
   * heartbeats: a ping per socket every 25 s), subtracted from the measured window's CPU.
   */
  idleSeconds: number
  connectConcurrency: number
  httpConnections: number
}

/** Latency summary in milliseconds. */
export interface Latency {
  count: number
  p50: number
  p95: number
  p99: number
  max: number
  mean: number
}

/** One measured window (a round: interleaved with another configuration's windows). */
export interface WindowOutcome {
  sent: number
  delivered: number
  lost: number
  misdelivered: number
  delivery: Latency
  deliveryByServer: Latency[]
  http?: Latency & { failed: number; firstError?: string }
  achievedRate: number
  loadElu: number
}

/** What the parent asks of a load process once it is warm. */
export type LoadCommand = { cmd: 'window' } | { cmd: 'finish' }

export interface LoadOutcome {
  connect: {
    sockets: number
    failed: number
    seconds: number
    /** One socket's handshake (websocket upgrade + socket.io connect with auth), under the storm's concurrency. */
    latency: Latency
    firstError?: string
  }
  /** Measured window only. */
  sent: number
  delivered: number
  /** Not delivered by `drainSeconds` after the last send: lost, or queued behind a saturated server. */
  lost: number
  /** Deliveries to a member other than the recipient (must be 0). */
  misdelivered: number
  /** Send call to the recipient socket's `new_message`. */
  delivery: Latency
  /** Per socket server the recipient was connected to (two processes: same process as the send vs through Redis). */
  deliveryByServer: Latency[]
  /** Wren: the POST's own answer time. */
  http?: Latency & { failed: number; firstError?: string }
  /** Sends actually started per second in the measured window (the schedule's rate, if the generator kept up). */
  achievedRate: number
  /** The load process's own event-loop utilisation while measuring (near 1 would mean the generator is the limit). */
  loadElu: number
  warmup: { sent: number; delivered: number; delivery: Latency }
  /** Each measured window on its own; the fields above pool them. */
  windows: WindowOutcome[]
}

export type LoadMessage =
  | { kind: 'connected' }
  | { kind: 'measuring' }
  | { kind: 'measured' }
  | { kind: 'idle-start' }
  | { kind: 'idle-end' }
  | { kind: 'ready' }
  | { kind: 'window'; window: WindowOutcome }
  | { kind: 'done'; outcome: LoadOutcome }
  | { kind: 'error'; error: string }
