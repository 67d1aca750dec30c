import { parseArgs } from 'node:util'
import pg from 'pg'
import { loadConfig } from '../config'
import { openDatabase } from '../db/client'
import { runSeed, type SeedResult, SeedRefused, type SeedTarget } from '../seed/run'

/**
 * `npm run seed -- --users N --posts M [--reset]`: fills the database the server uses (same environment: DATA_DIR
 * or DATABASE_URL) with a demo network and prints logins to try it with. Stop the server first on the embedded
 * database (PGlite allows one process at a time).
 */

const usage = `Usage: npm run seed -- [--users N] [--posts M] [--reset] [--seed S]
  --users N        members (default 2000, at least 10)
  --posts M        posts and replies (default 20000)
  --reset          replace everything already in the database (members, sessions, posts...)
  --seed S         random seed for the network's shape (default 42)
  --loader copy|unnest   PostgreSQL: how rows are sent (default copy)
  --keep-indexes   PostgreSQL: load with indexes in place instead of rebuilding them after
  --batch N        rows per unnest statement`

function positive(name: string, raw: string | undefined, fallback: number, min = 0): number {
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!/^\d+$/.test(raw) || n < min) throw new Error(`--${name} must be a whole number >= ${min} (got "${raw}")`)
  return n
}

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      users: { type: 'string' },
      posts: { type: 'string' },
      reset: { type: 'boolean', default: false },
      seed: { type: 'string' },
      loader: { type: 'string' },
      'keep-indexes': { type: 'boolean', default: false },
      batch: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  })
  if (values.loader !== undefined && values.loader !== 'copy' && values.loader !== 'unnest') {
    throw new Error(`--loader must be copy or unnest (got "${values.loader}")`)
  }
  return {
    help: values.help,
    users: positive('users', values.users, 2_000, 10),
    posts: positive('posts', values.posts, 20_000),
    reset: values.reset,
    seed: positive('seed', values.seed, 42),
    loader: values.loader as 'copy' | 'unnest' | undefined,
    dropIndexes: !values['keep-indexes'],
    batchSize: values.batch === undefined ? undefined : positive('batch', values.batch, 0, 1),
  }
}

function printLogins(result: SeedResult): void {
  console.log(`\nLogins (password for every seeded member: ${result.password})`)
  const width = Math.max(...result.members.map((m) => m.username.length))
  for (const m of result.members) {
    console.log(
      `  ${m.username.padEnd(width)}  ${result.password}  following ${m.following}, followers ${m.followers}, ` +
        `posts ${m.posts}  (${m.description})`,
    )
  }
}

let options: ReturnType<typeof parse>
try {
  options = parse(process.argv.slice(2))
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n\n${usage}`)
  process.exit(2)
}
if (options.help) {
  console.log(usage)
  process.exit(0)
}

const config = loadConfig()
const started = Date.now()
// Opening through the app's own code applies the migrations first.
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir })
let client: pg.Client | undefined
try {
  let target: SeedTarget
  if (config.databaseUrl) {
    // COPY needs a dedicated connection, not the pool.
    await database.close()
    client = new pg.Client({ connectionString: config.databaseUrl })
    await client.connect()
    target = { kind: 'postgres', client }
  } else {
    target = { kind: 'pglite', db: database.db }
  }
  console.log(
    `Seeding ${options.users.toLocaleString('en-US')} members and ${options.posts.toLocaleString('en-US')} posts into ` +
      `${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `the embedded database under ${config.dataDir}`}`,
  )
  const result = await runSeed(target, { ...options, log: (line) => console.log(line) })
  printLogins(result)
  console.log(`\nDone in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (result.problems.length > 0) process.exitCode = 1
} catch (err) {
  if (err instanceof SeedRefused) {
    console.error(err.message)
    process.exitCode = 1
  } else {
    throw err
  }
} finally {
  await client?.end()
  if (!config.databaseUrl) await database.close()
}
