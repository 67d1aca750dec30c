import { type ChildProcess, fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { LoadMessage, LoadOutcome, LoadPlan, ServerAnswer, ServerStart, ServerUsage } from './msg-protocol'

/** The messaging bench's child processes: server processes (msg-server.ts) and the load generator (msg-load-worker.ts). */

const serverFile = fileURLToPath(new URL('./msg-server.ts', import.meta.url))
const loadFile = fileURLToPath(new URL('./msg-load-worker.ts', import.meta.url))

export interface ServerProcess {
  url: string
  pid: number
  usage(): Promise<ServerUsage>
  close(): Promise<void>
}

function nextAnswer(child: ChildProcess, cmd: ServerAnswer['cmd']): Promise<ServerAnswer> {
  return new Promise((resolve, reject) => {
    const onMessage = (answer: ServerAnswer) => {
      if (answer.cmd !== cmd && answer.cmd !== 'error') return
      child.off('message', onMessage)
      child.off('exit', onExit)
      if (answer.cmd === 'error') reject(new Error(`server process: ${answer.error}`))
      else resolve(answer)
    }
    const onExit = (code: number | null) => {
      child.off('message', onMessage)
      reject(new Error(`server process exited (${code}) before answering ${cmd}`))
    }
    child.on('message', onMessage)
    child.once('exit', onExit)
  })
}

/** `profileDir`: the process writes a V8 CPU profile there when it exits (node --cpu-prof). */
export async function startServer(start: ServerStart, profileDir?: string): Promise<ServerProcess> {
  const execArgv = ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])]
  const child = fork(serverFile, { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const started = nextAnswer(child, 'started')
  child.send({ cmd: 'start', start })
  const answer = await started
  if (answer.cmd !== 'started') throw new Error('unexpected answer')
  return {
    url: `http://127.0.0.1:${answer.port}`,
    pid: child.pid ?? 0,
    async usage() {
      const pending = nextAnswer(child, 'usage')
      child.send({ cmd: 'usage' })
      const a = await pending
      if (a.cmd !== 'usage') throw new Error('unexpected answer')
      return a.usage
    },
    async close() {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.send({ cmd: 'close' })
      // The process ends once its server is closed and the IPC channel is gone; a stuck one is stopped.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/**
 * Runs one LoadPlan in a fresh load process. `onPhase` is called when the measured window starts and ends (the
 * bench reads the servers' CPU counters there).
 */
export function runLoad(plan: LoadPlan, onPhase: (phase: Exclude<LoadMessage['kind'], 'done' | 'error'>) => Promise<void>): Promise<LoadOutcome> {
  return new Promise((resolve, reject) => {
    const child = fork(loadFile, {
      execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    let settled = false
    let phases = Promise.resolve()
    child.on('message', (m: LoadMessage) => {
      if (m.kind === 'done' || m.kind === 'error') {
        settled = true
        // Phase callbacks first: their numbers belong to this run.
        void phases.then(() => (m.kind === 'done' ? resolve(m.outcome) : reject(new Error(`load process: ${m.error}`))))
        return
      }
      const kind = m.kind
      phases = phases.then(() => onPhase(kind)).catch(() => undefined)
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      if (!settled) reject(new Error(`load process exited (${code}) before answering`))
    })
    child.send(plan)
  })
}
