import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { lockDataDir } from './pglite-lock'
import { type PoolStats, StatementTiming } from './statement-timing'
import * as schema from './schema'

/** The query API both drivers share; modules only ever see this. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>
export type DatabaseKind = 'pglite' | 'postgres'

export interface DatabaseHandle {
  db: Database
  kind: DatabaseKind
  close: () => Promise<void>
  /** Every statement's time, for whoever subscribes (the app's metrics). */
  timing: StatementTiming
  /** The pg pool's connections now; undefined on PGlite (one in-process connection, no pool). */
  poolStats?: () => PoolStats
  /**
   * PGlite only: its whole data directory as a gzipped tar, read while no statement and no transaction runs
   * (PGlite runs one at a time; the dump waits its turn), so it is a consistent snapshot of committed data. Held in
   * memory: about the data directory's size while it is compressed.
   */
  snapshot?: () => Promise<PgliteSnapshot>
}

export interface PgliteSnapshot {
  data: Blob
  /** How long every other statement waited while the files were read. */
  pausedMs: number
}

export interface OpenDatabaseOptions {
  /**
   * PGlite only: run an in-memory database started from this data directory dump (PGlite's `dumpDataDir`) instead
   * of the files under `dataDir/db`; nothing is written to disk and it is gone on close. The API tests start every
   * file from one migrated dump: loading it costs a fraction of copying a data directory and opening it.
   */
  pgliteDump?: Blob
  /** PostgreSQL URL; without it an embedded PGlite is opened under `dataDir/db`. */
  url?: string
  dataDir: string
  /**
   * PostgreSQL only: keep every table in this schema (created if missing) instead of `public`. Tests use a random
   * schema per file so they can share one database and run in parallel.
   */
  schema?: string
  /** Called when an idle pooled connection fails (the server logs it instead of crashing). */
  onPoolError?: (err: Error) => void
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

export const POOL_MAX = 6
export const POOL_IDLE_MS = 10 * 60_000

// Any fixed 64-bit number: serialises migrations between processes starting at once against one PostgreSQL.
const MIGRATION_LOCK_KEY = 7_201_955_413n

/** Opens the database the configuration names and brings its schema up to date before anything else touches it. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url, options)
  return options.pgliteDump ? openPgliteFromDump(options.pgliteDump) : openPglite(options.dataDir)
}

const pgliteExtensions = { pg_trgm }

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const dir = path.join(dataDir, 'db')
  await mkdir(dir, { recursive: true })
  // Beside the directory, not in it: PGlite owns its contents.
  const unlock = lockDataDir(pgliteLockFile(dataDir), dir)
  return pgliteHandle(new PGlite(dir, { extensions: pgliteExtensions }), unlock, { migrate: true })
}

/** The lock file beside DATA_DIR/db that a process holds while it has the embedded database open. */
export const pgliteLockFile = (dataDir: string) => path.join(dataDir, 'db.lock')

/**
 * Opens DATA_DIR/db as it is, without migrating (a backup copies the database, it does not change it), for a
 * process that takes a snapshot while no server runs. Throws DatabaseInUseError when a server holds it.
 */
export async function openPgliteAsIs(dataDir: string): Promise<DatabaseHandle> {
  const dir = path.join(dataDir, 'db')
  const unlock = lockDataDir(pgliteLockFile(dataDir), dir)
  return pgliteHandle(new PGlite(dir, { extensions: pgliteExtensions }), unlock, { migrate: false })
}

/**
 * Writes a snapshot taken by `snapshot` into `dir` (which must not hold a database) as PGlite's data directory,
 * opens it once to check PostgreSQL accepts it, and closes it.
 */
export async function loadPgliteSnapshot(dir: string, dump: Blob): Promise<void> {
  await mkdir(dir, { recursive: true })
  const client = new PGlite(dir, { extensions: pgliteExtensions, loadDataDir: dump })
  try {
    await client.waitReady
    await client.query('select 1')
  } finally {
    await client.close().catch(() => undefined)
  }
}

async function snapshotOf(client: PGlite): Promise<PgliteSnapshot> {
  // The transaction lock first: a plain query waits for it too, so no transaction is open while the files are read.
  let pausedMs = 0
  const tarball = await client._runExclusiveTransaction(async () => {
    if (client.isInTransaction()) throw new Error('The database is inside a transaction block; try the backup again')
    const started = performance.now()
    const dump = await client.dumpDataDir('none')
    pausedMs = Math.round(performance.now() - started)
    return dump
  })
  // Compressed once the lock is released, on libuv's thread pool: the site waits only while the files are read
  // (580 ms for a 120 MB data directory here, against 2 s with PGlite compressing inside the lock).
  // Level 3: a tenth larger than zlib's default 6 and less than half its CPU (fresh instance: 5.6 MB in 270 ms
  // against 5.1 MB in 650 ms), CPU a live server shares with its members.
  const compressed = await promisify(gzip)(new Uint8Array(await tarball.arrayBuffer()), { level: 3 })
  return { data: new Blob([new Uint8Array(compressed)], { type: 'application/gzip' }), pausedMs }
}

async function openPgliteFromDump(dump: Blob): Promise<DatabaseHandle> {
  return pgliteHandle(new PGlite('memory://', { extensions: pgliteExtensions, loadDataDir: dump }), () => undefined, { migrate: true })
}

/** A fresh PGlite with every migration applied, as a data directory dump that `pgliteDump` can start from. */
export async function migratedPgliteDump(): Promise<Blob> {
  const client = new PGlite('memory://', { extensions: pgliteExtensions })
  try {
    await client.waitReady
    await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder })
    return await client.dumpDataDir('none')
  } finally {
    await client.close()
  }
}

/**
 * Wraps an opened PGlite in a handle. A server's brings the schema up to date first (a no-op for a dump that has
 * every migration); an offline backup copies the database as it is.
 */
async function pgliteHandle(client: PGlite, unlock: () => void, options: { migrate: boolean }): Promise<DatabaseHandle> {
  const timing = new StatementTiming()
  timing.timePglite(client)
  const close = async () => {
    try {
      await client.close()
    } finally {
      unlock()
    }
  }
  try {
    await client.waitReady
    const db = drizzlePglite({ client, schema })
    if (options.migrate) await migratePglite(db, { migrationsFolder })
    return { db, kind: 'pglite', close, timing, snapshot: () => snapshotOf(client) }
  } catch (err) {
    await close().catch(() => undefined)
    throw err
  }
}

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const target = options.schema
  if (target !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(target)) {
    throw new Error(`Invalid schema name "${target}": use lowercase letters, digits and underscores`)
  }
  const pool = new pg.Pool({
    connectionString: url,
    // PostgreSQL does its best with a few busy backends per core; more only queue inside it and cost memory and
    // context switches (the reference machine has 2 cores: 6 keeps both busy while others wait on the network).
    max: POOL_MAX,
    // A connection is worth keeping: its prepared statements and their generic plans, its catalog caches. With
    // pg's 10 s default a quiet spell closed them all and the next burst paid new connections and five custom
    // plans each (the bench's warm-up table shows what that costs).
    idleTimeoutMillis: POOL_IDLE_MS,
    options: [
      // `public` stays on the path after the schema so shared extensions (pg_trgm) resolve.
      target ? `-c search_path=${target},public` : '',
      // No JIT: for short OLTP queries it only costs. The first executions of the home feed statement are planned
      // with real row estimates, cross jit_above_cost and spend ~1.8 s compiling (measured; docs/posts-and-feed.md).
      '-c jit=off',
    ]
      .filter(Boolean)
      .join(' '),
  })
  pool.on('error', (err) => options.onPoolError?.(err))
  const timing = new StatementTiming()
  pool.on('connect', (client) => timing.timePgClient(client))
  try {
    const db = drizzlePg({ client: pool, schema })
    const lock = await pool.connect()
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()])
      if (target) {
        await db.execute(sql`create schema if not exists ${sql.identifier(target)}`)
        await withSchemaMigrations(target, (folder) =>
          migratePg(db, { migrationsFolder: folder, migrationsSchema: target }),
        )
      } else {
        await migratePg(db, { migrationsFolder })
      }
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]).catch(() => undefined)
      lock.release()
    }
    return {
      db,
      kind: 'postgres',
      close: () => pool.end(),
      timing,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    }
  } catch (err) {
    await pool.end().catch(() => undefined)
    throw err
  }
}

/**
 * drizzle-kit writes foreign keys as `REFERENCES "public"."users"`, which would point a non-public schema's tables at
 * `public`. For a named schema the same migrations are run from a temporary copy with that qualifier rewritten, so
 * PGlite, PostgreSQL and the per-test schemas all apply one set of files.
 */
async function withSchemaMigrations<T>(target: string, run: (folder: string) => Promise<T>): Promise<T> {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'wren-migrations-'))
  try {
    await mkdir(path.join(copy, 'meta'))
    await writeFile(
      path.join(copy, 'meta', '_journal.json'),
      await readFile(path.join(migrationsFolder, 'meta', '_journal.json')),
    )
    for (const file of await readdir(migrationsFolder)) {
      if (!file.endsWith('.sql')) continue
      const text = await readFile(path.join(migrationsFolder, file), 'utf8')
      await writeFile(path.join(copy, file), text.replaceAll('"public".', `"${target}".`))
    }
    return await run(copy)
  } finally {
    await rm(copy, { recursive: true, force: true })
  }
}
