import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/**
 * `npm run bench`: the home feed bench (bench/feed.ts), then the messaging bench (bench/messages.ts), each in its
 * own process so neither inherits the other's pools, caches or heap. `--only feed` or `--only messages` runs one.
 * Every other flag goes to the bench that knows it (the two have no flag in common):
 *
 * - feed: --posts, --users, --duration, --warmup, --connections, --keep-db, --reuse-db
 * - messages: --members, --rate, --seconds, --warmup-seconds, --configs, --connect-concurrency,
 *   --http-connections, --profile
 */

const BENCHES = {
  feed: { file: './feed.ts', values: ['posts', 'users', 'duration', 'warmup', 'connections'], switches: ['keep-db', 'reuse-db'] },
  messages: {
    file: './messages.ts',
    values: ['members', 'rate', 'seconds', 'warmup-seconds', 'configs', 'connect-concurrency', 'http-connections', 'profile'],
    switches: [] as string[],
  },
} as const
type BenchName = keyof typeof BENCHES

function split(argv: string[]): { only: BenchName | undefined; args: Record<BenchName, string[]> } {
  const args: Record<BenchName, string[]> = { feed: [], messages: [] }
  let only: BenchName | undefined
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? ''
    const [flag = '', inline] = arg.replace(/^--/, '').split('=', 2)
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"`)
    const value = () => {
      if (inline !== undefined) return inline
      i += 1
      const next = argv[i]
      if (next === undefined) throw new Error(`--${flag} needs a value`)
      return next
    }
    if (flag === 'only') {
      const name = value()
      if (name !== 'feed' && name !== 'messages') throw new Error(`--only takes feed or messages (got "${name}")`)
      only = name
      continue
    }
    const owner = (Object.keys(BENCHES) as BenchName[]).find(
      (b) => (BENCHES[b].values as readonly string[]).includes(flag) || (BENCHES[b].switches as readonly string[]).includes(flag),
    )
    if (!owner) throw new Error(`unknown flag --${flag}`)
    if ((BENCHES[owner].switches as readonly string[]).includes(flag)) args[owner].push(`--${flag}`)
    else args[owner].push(`--${flag}`, value())
  }
  return { only, args }
}

function runBench(name: BenchName, args: string[]): Promise<number> {
  const file = fileURLToPath(new URL(BENCHES[name].file, import.meta.url))
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { stdio: 'inherit' })
    child.once('error', reject)
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

async function main() {
  const { only, args } = split(process.argv.slice(2))
  for (const name of ['feed', 'messages'] as const) {
    if (only && only !== name) continue
    console.log(`\n=== ${name} bench ===\n`)
    const code = await runBench(name, args[name])
    if (code !== 0) {
      process.exitCode = code
      console.error(`${name} bench failed (exit ${code})`)
    }
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exitCode = 1
})
