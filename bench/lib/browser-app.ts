import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The browser bench's app: the production build (`panda codegen` + `vite build`, as the e2e config does) served by
 * the real server process (`tsx server/main.ts`) on a free loopback port, with a fresh temporary DATA_DIR, the
 * embedded database (DATABASE_URL empty), no Redis and RATE_LIMITS=off. `stop()` ends that process group only and
 * deletes the data directory.
 */

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] })
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))))
  })
}

/** The production bundle in dist/, built the way the e2e config and `npm run build` build it. */
export async function buildWebApp(): Promise<number> {
  const started = performance.now()
  await run('npx', ['panda', 'codegen', '--silent'])
  await run('npx', ['vite', 'build', '--logLevel', 'warn'])
  return (performance.now() - started) / 1000
}

export function freePort(): Promise<number> {
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

export interface RunningApp {
  baseUrl: string
  dataDir: string
  stop: () => Promise<void>
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`)
    try {
      const res = await fetch(`${baseUrl}/api/health`)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`the server did not answer ${baseUrl}/api/health within ${timeoutMs / 1000} s`)
}

export async function startApp(): Promise<RunningApp> {
  const port = await freePort()
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wren-bench-browser-'))
  // Node itself with tsx's loader (as bench/run.ts starts benches), so the child is the server: its exit is the
  // server's, after it has closed the database.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    // Its own process group, so stop() ends the server and whatever it started, and nothing else.
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
    },
  })
  const baseUrl = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise((r) => child.once('exit', r))
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {
        // already gone
      }
      const closed = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))])
      if (!closed) {
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {
          // gone meanwhile
        }
        await exited
      }
    }
    try {
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    } catch (err) {
      console.warn(`could not delete ${dataDir}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  try {
    await waitForHealth(baseUrl, child, 120_000)
  } catch (err) {
    await stop()
    throw err
  }
  return { baseUrl, dataDir, stop }
}
