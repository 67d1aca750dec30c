import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

/** Real OS processes for the cluster test: Wren servers, their databases, free ports, and waiting on HTTP. */

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url))

/** What a load balancer asks a process before sending it traffic (docs/architecture.md, "Running more than one process"). */
export const READY_PATH = '/api/ready'

const postgresServer = process.env.CLUSTER_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432'

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A port nobody listens on now (the kernel's pick; released before the caller binds it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${postgresServer}/postgres` })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A new, empty database named `wren_cluster_*` (the test's own prefix, so it never touches another's). */
export async function createDatabase(name: string): Promise<string> {
  if (!/^wren_cluster_[a-z0-9_]+$/.test(name)) throw new Error(`not a cluster test database name: ${name}`)
  await admin((client) => client.query(`create database ${name}`))
  return `${postgresServer}/${name}`
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((client) => client.query(`drop database if exists ${name} with (force)`))
}

/** Polls `url` until it answers 200, or throws after `timeoutMs`. */
export async function waitForOk(url: string, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`${url}: the process exited before answering`)
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1_000) })
      if (res.status === 200) return
    } catch {
      // Not listening yet.
    }
    await sleep(100)
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`)
}

export interface WrenProcessOptions {
  name: string
  port: number
  dataDir: string
  databaseUrl: string
  redisUrl?: string
  logDir: string
  /** DRAIN_DELAY_MS: how long the process keeps answering after SIGTERM before it stops listening. */
  drainDelayMs: number
}

/**
 * One `server/main.ts` process, as `npm start` runs it after the build: node with tsx's loader in the same process,
 * so SIGTERM reaches the server itself rather than a wrapper that forwards it.
 */
export class WrenProcess {
  readonly url: string
  private child: ChildProcess | undefined
  private exit: Promise<number | null> = Promise.resolve(null)
  private starts = 0

  constructor(readonly options: WrenProcessOptions) {
    this.url = `http://127.0.0.1:${options.port}`
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null
  }

  private get logFile(): string {
    return path.join(this.options.logDir, `${this.options.name}-${this.starts}.log`)
  }

  /** Starts the process and resolves once it answers READY_PATH. */
  async start(timeoutMs = 30_000): Promise<void> {
    this.starts += 1
    const log = createWriteStream(this.logFile)
    const { port, dataDir, databaseUrl, redisUrl } = this.options
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: repositoryRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl ?? '',
        RATE_LIMITS: 'off',
        LOG_LEVEL: 'warn',
        DRAIN_DELAY_MS: String(this.options.drainDelayMs),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout?.pipe(log)
    child.stderr?.pipe(log)
    this.child = child
    this.exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
    await waitForOk(`${this.url}${READY_PATH}`, timeoutMs, () => this.running).catch(async (err: unknown) => {
      throw new Error(`${this.options.name} did not start: ${String(err)}\n${await this.logTail()}`)
    })
  }

  /** SIGTERM, then the exit code once the process has drained and gone (SIGKILL after `timeoutMs`). */
  async stop(timeoutMs = 15_000): Promise<number | null> {
    if (!this.running) return this.exit
    this.child?.kill('SIGTERM')
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), timeoutMs)
    try {
      return await this.exit
    } finally {
      clearTimeout(timer)
    }
  }

  async logTail(lines = 30): Promise<string> {
    const text = await readFile(this.logFile, 'utf8').catch(() => '')
    return text.split('\n').slice(-lines).join('\n')
  }
}
