import { type ChildProcess, fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { LoadCommand, LoadMessage, LoadOutcome, LoadPlan, ServerAnswer, ServerStart, ServerUsage, WindowOutcome } from './msg-protocol'

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

/** A load process, connected and warm, measuring windows when asked. */
export interface LoadProcess {
  /** One measured window; `onPhase` is called as it starts and ends (the bench reads the CPU counters there). */
  window(onPhase: (phase: 'measuring' | 'measured') => Promise<void>): Promise<WindowOutcome>
  /** Disconnects the sockets; the whole run's outcome. */
  finish(): Promise<LoadOutcome>
}

type Phase = Exclude<LoadMessage['kind'], 'done' | 'error' | 'window' | 'ready'>

/**
 * Starts one LoadPlan in a fresh load process and resolves once its sockets are connected and warm. `onSetup` is called
 * at the idle window's start and end (the bench reads the servers' CPU counters there).
 */
export function startLoad(plan: LoadPlan, onSetup: (phase: Phase) => Promise<void>): Promise<LoadProcess> {
  const child = fork(loadFile, {
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  let onPhase: (phase: Phase) => Promise<void> = onSetup
  // Phase callbacks run in order, and an answer waits for the callbacks before it: their numbers belong to it.
  let phases = Promise.resolve()
  let waiter: { kinds: LoadMessage['kind'][]; resolve: (m: LoadMessage) => void; reject: (err: Error) => void } | undefined
  let ended: Error | undefined
  const expect = (...kinds: LoadMessage['kind'][]) =>
    new Promise<LoadMessage>((resolve, reject) => {
      if (ended) return reject(ended)
      waiter = { kinds, resolve, reject }
    })
  child.on('message', (m: LoadMessage) => {
    if (m.kind === 'measuring' || m.kind === 'measured' || m.kind === 'connected' || m.kind === 'idle-start' || m.kind === 'idle-end') {
      const kind = m.kind
      phases = phases.then(() => onPhase(kind)).catch(() => undefined)
      return
    }
    void phases.then(() => {
      const w = waiter
      if (m.kind === 'error') {
        ended = new Error(`load process: ${m.error}`)
        waiter = undefined
        w?.reject(ended)
      } else if (w && w.kinds.includes(m.kind)) {
        waiter = undefined
        w.resolve(m)
      }
    })
  })
  child.once('exit', (code) => {
    ended ??= new Error(`load process exited (${code}) before answering`)
    void phases.then(() => {
      const w = waiter
      waiter = undefined
      w?.reject(ended as Error)
    })
  })
  const send = (command: LoadPlan | LoadCommand) => child.send(command)
  const ready = expect('ready')
  send(plan)
  return ready.then(() => ({
    async window(callback) {
      onPhase = async (phase) => {
        if (phase === 'measuring' || phase === 'measured') await callback(phase)
      }
      const answer = expect('window')
      send({ cmd: 'window' })
      const m = await answer
      if (m.kind !== 'window') throw new Error('unexpected answer')
      return m.window
    },
    async finish() {
      const answer = expect('done')
      send({ cmd: 'finish' })
      const m = await answer
      if (m.kind !== 'done') throw new Error('unexpected answer')
      return m.outcome
    },
  }))
}
