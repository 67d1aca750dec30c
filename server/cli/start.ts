import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * `npm start`: what a new user runs. Builds the web app on first start (styles, then the Vite bundle) so one command
 * is enough, then starts the server, which logs its URL.
 */

const root = fileURLToPath(new URL('../../', import.meta.url))

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' })
    child.on('error', reject)
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    )
  })
}

if (!existsSync(path.join(root, 'dist', 'index.html'))) {
  console.log('Building the web app (first start only)...')
  try {
    await run('npx', ['panda', 'codegen'])
    await run('npx', ['vite', 'build'])
  } catch (err) {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  }
}

await import('../main')
