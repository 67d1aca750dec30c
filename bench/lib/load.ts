import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** One autocannon run: what to hit, how hard, for how long. */
export interface LoadRequest {
  url: string
  headers: Record<string, string>
  connections: number
  /**
   * Requests sent before measuring. A count rather than a time: the feed runs as prepared statements, and
   * PostgreSQL plans the first five executions on each pooled connection one by one before it settles on a generic
   * plan, so "warm" means every connection has run it several times, however long that takes.
   */
  warmupRequests: number
  durationSeconds: number
}

/** Latencies in milliseconds. */
export interface LoadResult {
  p50: number
  p90: number
  p99: number
  max: number
  meanLatency: number
  requestsPerSecond: number
  requests: number
  non2xx: number
  errors: number
  timeouts: number
  bytesPerSecond: number
  durationSeconds: number
  /** The warm-up's own numbers: what the first requests after a start cost. */
  warmup?: Omit<LoadResult, 'warmup'>
}

type WorkerAnswer<T> = { ok: true; result: T } | { ok: false; error: string }

const workerFile = fileURLToPath(new URL('./load-worker.ts', import.meta.url))

/**
 * Runs `file` (a bench/lib worker) in a child process, sends it `request` over IPC and resolves with its one answer:
 * the load generator never shares the server's event loop.
 */
export function runWorker<Req, Res>(file: string, request: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    const child = fork(file, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    let answered = false
    child.once('message', (answer: WorkerAnswer<Res>) => {
      answered = true
      if (answer.ok) resolve(answer.result)
      else reject(new Error(`load worker: ${answer.error}`))
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      if (!answered) reject(new Error(`load worker exited with code ${code} before answering`))
    })
    child.send(request as object)
  })
}

/** Runs autocannon in a child process (load-worker.ts) and returns its numbers. */
export function measureHttp(request: LoadRequest): Promise<LoadResult> {
  return runWorker<LoadRequest, LoadResult>(workerFile, request)
}

/**
 * A bench/lib worker kept for several exchanges (runWorker's is for one): each `ask` sends a message and resolves
 * with the next answer, in order. Structured-clone serialization, so latencies that are Infinity (failed requests)
 * cross as they are.
 */
export function startWorker<Req, Res>(file: string): { ask: <R extends Res>(request: Req) => Promise<R>; stop: () => void } {
  const child = fork(file, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' })
  const waiting: Array<{ resolve: (value: Res) => void; reject: (err: Error) => void }> = []
  child.on('message', (answer: WorkerAnswer<Res>) => {
    const next = waiting.shift()
    if (!next) return
    if (answer.ok) next.resolve(answer.result)
    else next.reject(new Error(`load worker: ${answer.error}`))
  })
  const failAll = (err: Error) => {
    for (const w of waiting.splice(0)) w.reject(err)
  }
  child.once('error', failAll)
  child.once('exit', (code) => failAll(new Error(`load worker exited with code ${code} before answering`)))
  return {
    ask: <R extends Res>(request: Req) =>
      new Promise<R>((resolve, reject) => {
        waiting.push({ resolve: resolve as (value: Res) => void, reject })
        child.send(request as object)
      }),
    /** Ends the worker if it has not ended itself: a bench that fails midway must not be kept alive by its IPC. */
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill()
    },
  }
}
