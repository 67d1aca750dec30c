import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { BENCH_DATABASE, dropBenchDatabase } from './lib/database'

/**
 * `npm run bench`: the home feed bench (bench/feed.ts), the search bench (bench/search.ts), the mixed workload bench
 * (bench/mixed.ts), the messaging bench (bench/messages.ts), the write limits on the post path (bench/limits.ts), sign-in and session lookup (bench/sessions.ts) and the browser budgets (bench/browser.ts), each in its
 * own process so none inherits another's pools, caches or heap. `--only feed|search|mixed|messages|limits|writes|sessions|export|browser` runs one.
 * Every other flag goes to each bench that knows it:
 *
 * - feed: --posts, --users, --duration, --warmup, --connections, --keep-db, --reuse-db, --plain
 * - search: --posts, --users, --duration, --warmup, --connections, --keep-db, --reuse-db, --database
 * - mixed: --posts, --users, --duration, --warmup-seconds, --sql-duration, --connections, --write-ratio,
 *   --cold-members, --burst-followers, --burst-seconds, --database, --profile, --keep-db, --reuse-db,
 *   --mode closed|open|both, --open-seconds, --open-start, --arrivals poisson|uniform
 * - messages: --members, --rate, --seconds, --warmup-seconds, --configs, --connect-concurrency,
 *   --http-connections, --profile, --rounds, --name
 * - limits: --duration, --warmup, --connections, --settle (posts from 50 members with the write limits off, on in memory, on through Redis)
 * - writes: --duration, --warmup, --connections, --profile DIR (posts, likes spread over 20 posts, likes on one hot post; exact counts)
 * - sessions: --duration, --connections (a password sign-in, and an authenticated request's session lookup)
 * - export: --posts (a member's data export of that many posts, and of a tenth of them: peak heap and RSS growth)
 * - browser: --runs, --scroll-posts, --scroll-step, --authors, --clicks, --profiles, --skip-build, --waterfall
 *
 * Feed, search and mixed share one seed: the feed bench keeps `wren_bench` (--keep-db), the search bench reuses it
 * (--reuse-db) and keeps it, the mixed bench reuses it (--reuse-db --database wren_bench) and drops it unless --keep-db
 * was asked for. 1M posts are seeded once, not three times. The mixed bench runs last of the three because it writes.
 */

const BENCHES = {
  feed: { file: './feed.ts', values: ['posts', 'users', 'duration', 'warmup', 'connections'], switches: ['keep-db', 'reuse-db', 'plain'] },
  search: {
    file: './search.ts',
    values: ['posts', 'users', 'duration', 'warmup', 'connections', 'database'],
    switches: ['keep-db', 'reuse-db'],
  },
  mixed: {
    file: './mixed.ts',
    values: [
      'posts',
      'users',
      'duration',
      'warmup-seconds',
      'sql-duration',
      'connections',
      'write-ratio',
      'cold-members',
      'burst-followers',
      'burst-seconds',
      'database',
      'profile',
      'mode',
      'open-seconds',
      'open-start',
      'arrivals',
    ],
    switches: ['keep-db', 'reuse-db'],
  },
  messages: {
    file: './messages.ts',
    values: ['members', 'rate', 'seconds', 'warmup-seconds', 'configs', 'connect-concurrency', 'http-connections', 'profile', 'rounds', 'name'],
    switches: [] as string[],
  },
  limits: { file: './limits.ts', values: ['duration', 'warmup', 'connections', 'settle'], switches: [] as string[] },
  writes: { file: './writes.ts', values: ['duration', 'warmup', 'connections', 'profile'], switches: [] as string[] },
  sessions: { file: './sessions.ts', values: ['duration', 'connections'], switches: [] as string[] },
  export: { file: './export.ts', values: ['posts'], switches: [] as string[] },
  browser: {
    file: './browser.ts',
    values: ['runs', 'scroll-posts', 'scroll-step', 'authors', 'clicks', 'profiles'],
    switches: ['skip-build', 'waterfall'],
  },
} as const
type BenchName = keyof typeof BENCHES

function split(argv: string[]): { only: BenchName | undefined; args: Record<BenchName, string[]> } {
  const args: Record<BenchName, string[]> = { feed: [], search: [], mixed: [], messages: [], limits: [], writes: [], sessions: [], export: [], browser: [] }
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
      if (!(name in BENCHES)) throw new Error(`--only takes ${Object.keys(BENCHES).join(', ')} (got "${name}")`)
      only = name as BenchName
      continue
    }
    const owners = (Object.keys(BENCHES) as BenchName[]).filter(
      (b) => (BENCHES[b].values as readonly string[]).includes(flag) || (BENCHES[b].switches as readonly string[]).includes(flag),
    )
    if (owners.length === 0) throw new Error(`unknown flag --${flag}`)
    const isSwitch = owners.some((b) => (BENCHES[b].switches as readonly string[]).includes(flag))
    const given = isSwitch ? undefined : value()
    for (const owner of owners) args[owner].push(...(given === undefined ? [`--${flag}`] : [`--${flag}`, given]))
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
  // One seed for feed, search and mixed: the feed bench leaves wren_bench, the search bench takes it and leaves it
  // again, and the mixed bench (last of the three: it writes posts, likes and follows into it) takes it and drops it
  // unless the member asked to keep it. A bench that fails leaves the next one to seed its own.
  const shareSeed = !only && !args.search.includes('--database') && !args.mixed.includes('--database')
  const userKeeps = (name: BenchName) => args[name].includes('--keep-db')
  let seedKept = false
  for (const name of ['feed', 'search', 'mixed', 'messages', 'limits', 'writes', 'sessions', 'export', 'browser'] as const) {
    if (only && only !== name) continue
    let benchArgs = args[name]
    if (shareSeed && name === 'feed' && !userKeeps('feed')) benchArgs = [...benchArgs, '--keep-db']
    if (shareSeed && name === 'search') {
      if (seedKept && !benchArgs.includes('--reuse-db')) benchArgs = [...benchArgs, '--reuse-db']
      if (!userKeeps('search')) benchArgs = [...benchArgs, '--keep-db']
    }
    if (shareSeed && name === 'mixed' && seedKept) {
      benchArgs = [...benchArgs, '--database', BENCH_DATABASE, ...(benchArgs.includes('--reuse-db') ? [] : ['--reuse-db'])]
    }
    console.log(`\n=== ${name} bench ===\n`)
    const code = await runBench(name, benchArgs)
    // The shared seed exists after a bench that made or kept it and ended well.
    if (shareSeed && (name === 'feed' || name === 'search')) seedKept = code === 0
    if (code !== 0) {
      process.exitCode = code
      console.error(`${name} bench failed (exit ${code})`)
    }
  }
  // Something failed before the mixed bench dropped it: leave no 1M-post database behind unless asked.
  if (shareSeed && !only && seedKept === false && !userKeeps('feed')) await dropBenchDatabase(BENCH_DATABASE).catch(() => undefined)
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exitCode = 1
})
