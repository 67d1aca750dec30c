import { type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type pg from 'pg'
import type { Database } from '../db/client'
import { PasswordHasher } from '../modules/auth/passwords'
import { inBulkLoadTransaction } from './bulk-load'
import { buildNetwork, type KnownRole, type Network } from './network'
import { planPosts, type PostPlan } from './posts-plan'
import { Random } from './random'
import * as rows from './rows'
import { type BulkWriter, CopyWriter, type Execute, UnnestWriter } from './sinks'
import {
  followsTable,
  hashtagsTable,
  likesTable,
  mentionsTable,
  postsTable,
  repostsTable,
  resetTables,
  type TableSpec,
  usersTable,
} from './tables'
import { TimedIds } from './timed-ids'
import { verifySeed } from './verify'

/**
 * `npm run seed` and the benchmark's data: plans a network in memory (network.ts, posts-plan.ts), writes it in bulk
 * (COPY on PostgreSQL, unnest batches on PGlite), refreshes planner statistics and checks every counter in SQL.
 */

/** Every seeded member's password: one argon2 hash is computed and shared (100k hashes would take hours). */
export const DEMO_PASSWORD = 'Wren-demo-2025'

export type SeedTarget = { kind: 'pglite'; db: Database } | { kind: 'postgres'; client: pg.Client }

export interface SeedOptions {
  users: number
  posts: number
  /** Replace existing data (members, sessions, posts and everything attached). Without it a non-empty database is refused. */
  reset?: boolean
  /** Same seed, same network shape (ids and text differ). */
  seed?: number
  /** PostgreSQL only: COPY (default) or unnest batches, to compare. */
  loader?: 'copy' | 'unnest'
  /** PostgreSQL only: drop and rebuild the big tables' indexes and keys around the load (default true). */
  dropIndexes?: boolean
  /** Rows per unnest statement. */
  batchSize?: number
  log?: (line: string) => void
  /** "Now" for the data (tests pin it). */
  now?: number
}

export interface SeededMember {
  role: KnownRole | 'follows-2000' | 'follows-20'
  username: string
  description: string
  following: number
  followers: number
  posts: number
}

export interface SeedResult {
  password: string
  members: SeededMember[]
  rows: Record<string, number>
  seconds: { plan: number; load: number; analyze: number; verify: number; total: number }
  /** Counter checks that failed (verify.ts); empty when the data is consistent. */
  problems: string[]
}

export class SeedRefused extends Error {}

const dialect = new PgDialect()

function executor(target: SeedTarget): Execute {
  if (target.kind === 'postgres') {
    return async (query: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(query)
      return (await target.client.query(text, params)).rows
    }
  }
  return async (query: SQL) => rowsOf(await target.db.execute(query))
}

function rowsOf(result: unknown): unknown[] {
  const found = (result as { rows?: unknown } | null)?.rows
  if (!Array.isArray(found)) throw new Error('The database driver returned no rows array')
  return found
}

const seconds = (since: number) => (Date.now() - since) / 1000
const rate = (count: number, s: number) => (s > 0 ? `${Math.round(count / s).toLocaleString('en-US')} rows/s` : '')

export async function runSeed(target: SeedTarget, options: SeedOptions): Promise<SeedResult> {
  const log = options.log ?? (() => undefined)
  const started = Date.now()
  const now = options.now ?? Date.now()
  const execute = executor(target)

  const [existing] = (await execute(sql`select count(*)::int as n from users`)) as Array<{ n: number }>
  if ((existing?.n ?? 0) > 0 && !options.reset) {
    throw new SeedRefused(`The database already has ${existing?.n} members; pass --reset to replace everything`)
  }

  const random = new Random(options.seed ?? 42)
  const ids = new TimedIds()
  const network = buildNetwork(random, options.users, now, ids)
  const plan = planPosts(random, network, options.posts, now, ids)
  const passwordHash = await new PasswordHasher(1).hash(DEMO_PASSWORD)
  const planSeconds = seconds(started)
  log(
    `planned ${network.count.toLocaleString('en-US')} members, ${network.following.items.length.toLocaleString('en-US')} follows, ` +
      `${plan.count.toLocaleString('en-US')} posts, ${plan.likes.user.length.toLocaleString('en-US')} likes in ${planSeconds.toFixed(1)} s`,
  )

  const loadStarted = Date.now()
  const batchSize = options.batchSize ?? (target.kind === 'pglite' ? 2_000 : 10_000)
  let counts: Record<string, number>
  if (target.kind === 'postgres') {
    const client = target.client
    const copy = (options.loader ?? 'copy') === 'copy'
    const writer: BulkWriter = copy ? new CopyWriter(client, true) : new UnnestWriter(execute, batchSize)
    log(`loading with ${copy ? 'COPY FREEZE' : `unnest batches of ${batchSize}`}${options.dropIndexes === false ? '' : ', indexes rebuilt after'}`)
    counts = await inBulkLoadTransaction(client, { dropIndexes: options.dropIndexes ?? true, log }, () =>
      writeAll(writer, network, plan, passwordHash, random, log),
    )
  } else {
    log(`loading with unnest batches of ${batchSize}`)
    counts = await target.db.transaction(async (tx) => {
      const txExecute: Execute = async (query) => rowsOf(await tx.execute(query))
      await txExecute(sql.raw(`truncate ${resetTables.map((t) => `"${t}"`).join(', ')} cascade`))
      const written = await writeAll(new UnnestWriter(txExecute, batchSize), network, plan, passwordHash, random, log)
      // Analytics' per-day counters (migration `analytics`), as bulk-load.ts makes them on PostgreSQL.
      await txExecute(sql`select rebuild_post_daily_stats()`)
      return written
    })
  }
  const loadSeconds = seconds(loadStarted)

  // Fresh statistics, or the planner guesses a million-row table is empty; VACUUM also sets the visibility map
  // (index-only scans) where COPY FREEZE did not already.
  const analyzeStarted = Date.now()
  await execute(sql.raw(`vacuum (analyze) ${resetTables.map((t) => `"${t}"`).join(', ')}`))
  const analyzeSeconds = seconds(analyzeStarted)
  log(`vacuum analyze in ${analyzeSeconds.toFixed(1)} s`)

  const verifyStarted = Date.now()
  const problems = await verifySeed(execute)
  const verifySeconds = seconds(verifyStarted)
  log(problems.length === 0 ? `counters verified in ${verifySeconds.toFixed(1)} s` : `COUNTER MISMATCH: ${problems.join('; ')}`)

  return {
    password: DEMO_PASSWORD,
    members: await describeMembers(execute, network),
    rows: counts,
    seconds: { plan: planSeconds, load: loadSeconds, analyze: analyzeSeconds, verify: verifySeconds, total: seconds(started) },
    problems,
  }
}

async function writeAll(
  writer: BulkWriter,
  network: Network,
  plan: PostPlan,
  passwordHash: string,
  random: Random,
  log: (line: string) => void,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  const step = async (table: TableSpec, total: number, write: (sink: Awaited<ReturnType<BulkWriter['open']>>, progress: rows.Progress) => Promise<number>) => {
    const t0 = Date.now()
    let reported = 0
    const progress = (done: number) => {
      // About every quarter, for the tables that take a while.
      if (total >= 200_000 && done - reported >= total / 4) {
        reported = done
        log(`  ${table.name}: ${Math.round((100 * done) / total)}% (${seconds(t0).toFixed(1)} s)`)
      }
    }
    const written = await write(await writer.open(table), progress)
    counts[table.name] = written
    const s = seconds(t0)
    log(`  ${table.name}: ${written.toLocaleString('en-US')} rows in ${s.toFixed(1)} s (${rate(written, s)})`)
  }
  await step(usersTable, network.count, (sink) => rows.writeUsers(sink, network, plan, passwordHash, random))
  await step(followsTable, network.following.items.length, (sink, p) => rows.writeFollows(sink, network, p))
  await step(postsTable, plan.count, (sink, p) => rows.writePosts(sink, network, plan, random, p))
  await step(hashtagsTable, plan.tags.items.length, (sink) => rows.writeHashtags(sink, plan))
  await step(mentionsTable, plan.mentions.items.length, (sink) => rows.writeMentions(sink, network, plan))
  await step(likesTable, plan.likes.user.length, (sink, p) => rows.writeInteractions(sink, network, plan, plan.likes, p))
  await step(repostsTable, plan.reposts.user.length, (sink, p) =>
    rows.writeInteractions(sink, network, plan, plan.reposts, p),
  )
  return counts
}

/** The known logins plus one more member of each special kind, with their counters as stored. */
async function describeMembers(execute: Execute, network: Network): Promise<SeededMember[]> {
  const wanted: Array<Omit<SeededMember, 'following' | 'followers' | 'posts'>> = network.known.map((k) => ({
    role: k.role,
    username: k.username,
    description: k.description,
  }))
  const extraHeavy = network.heavy[1]
  const extraLight = network.light[1]
  if (extraHeavy !== undefined) {
    const username = network.usernames[extraHeavy] ?? ''
    wanted.push({ role: 'follows-2000', username, description: `follows ${network.following.count(extraHeavy)} too` })
  }
  if (extraLight !== undefined) {
    const username = network.usernames[extraLight] ?? ''
    wanted.push({ role: 'follows-20', username, description: `follows ${network.following.count(extraLight)} too` })
  }
  const names = sql.join(
    wanted.map((w) => sql`${w.username}`),
    sql`, `,
  )
  const found = (await execute(
    sql`select username, following_count, followers_count, posts_count from users where username in (${names})`,
  )) as Array<{ username: string; following_count: number; followers_count: number; posts_count: number }>
  const byName = new Map(found.map((f) => [f.username, f]))
  return wanted.map((w) => ({
    ...w,
    following: byName.get(w.username)?.following_count ?? 0,
    followers: byName.get(w.username)?.followers_count ?? 0,
    posts: byName.get(w.username)?.posts_count ?? 0,
  }))
}
