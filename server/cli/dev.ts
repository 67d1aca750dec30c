import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * `npm run dev`: the API server restarting on change (tsx watch) and Vite's dev server (hot reload, proxying /api and
 * /socket.io to the API), together. Each child leads its own process group so stopping kills their children too
 * (tsx's node, esbuild); when either exits, the other is stopped.
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)

const children: ChildProcess[] = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/main.ts'], { cwd: root, stdio: 'inherit', detached: true }),
  spawn(bin('vite'), [], { cwd: root, stdio: 'inherit', detached: true }),
]

let stopping = false
function stopAll(exitCode: number): void {
  if (stopping) return
  stopping = true
  for (const child of children) {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {
        // Already gone.
      }
    }
  }
  // Give the server its graceful close, then leave regardless.
  setTimeout(() => process.exit(exitCode), 3_000).unref()
}

for (const child of children) {
  child.on('exit', (code) => stopAll(code ?? 1))
  child.on('error', (err) => {
    console.error(err.message)
    stopAll(1)
  })
}
process.on('SIGINT', () => stopAll(0))
process.on('SIGTERM', () => stopAll(0))
process.on('exit', () => stopAll(0))
