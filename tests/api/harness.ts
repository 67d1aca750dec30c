import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import type { LookupFunction } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { buildApp, type BuildAppOptions } from '../../server/app'
import type { Config } from '../../server/config'
import { type DatabaseHandle, migratedPgliteDump, migrationsFolder, openDatabase } from '../../server/db/client'
import { selectRows } from '../../server/db/rows'
import { sessions, users } from '../../server/db/schema'
import { KDF_DEFAULT, type KdfSettings } from '../../src/api/contract/kdf'
import type { Schemas } from '../../server/http/handler-types'

/**
 * One database per test file: a fresh PGlite in a temp dir, or, when DATABASE_URL is set, a fresh schema with a
 * random name in that database (created before the file, dropped after), so files run in parallel without seeing
 * each other. Apps built on it skip rate limits and logging unless a test asks.
 */

const databaseUrl = process.env.DATABASE_URL || undefined

/**
 * WREN_TEST_CACHES=off builds every app of the suite with its read caches off (`buildApp({ caches: false })`), so an
 * answer that is right only because a cache held it cannot pass: tests/run.mjs runs the suite once that way. Files
 * about the caches themselves pass `caches: true` and test them either way.
 */
export const testCaches = ((value = 'on') => {
  if (value !== 'on' && value !== 'off') throw new Error(`WREN_TEST_CACHES must be "on" or "off" (got "${value}")`)
  return value === 'on'
})(process.env.WREN_TEST_CACHES || undefined)

export interface TestDatabase {
  handle: DatabaseHandle
  /** The file's own DATA_DIR (removed on close): apps built on this database store media there, not in ./data. */
  dataDir: string
  /** Empties every table (for tests about "the first account"). */
  reset: () => Promise<void>
  close: () => Promise<void>
}

/**
 * A new PGlite costs ~2 s of CPU (initdb in WASM) plus the migrations; copying a migrated data directory and opening
 * it from disk ~1.5 s. Loading a migrated dump into an in-memory PGlite costs ~0.6 s, and memory is all a test file
 * needs (media still go to its own dataDir). The dump is built once per migration set and kept under the temp dir;
 * each process reads it once. Two processes that both find it missing both build it and rename their copy into
 * place (the same bytes), so nothing ever waits on another worker.
 */
let pgliteDump: Promise<Blob> | undefined

async function loadPgliteDump(): Promise<Blob> {
  // A dump is PGlite's data directory format: a new PGlite or a new migration makes a new one.
  const hash = createHash('sha256').update(await readFile(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)))
  for (const file of (await readdir(migrationsFolder, { recursive: true })).sort()) {
    const full = path.join(migrationsFolder, file)
    if ((await stat(full)).isFile()) hash.update(file).update(await readFile(full))
  }
  const file = path.join(os.tmpdir(), `wren-pglite-dump-${hash.digest('hex').slice(0, 16)}.tar`)
  if (existsSync(file)) return new Blob([await readFile(file)])
  const dump = await migratedPgliteDump()
  const building = `${file}.${process.pid}`
  await writeFile(building, Buffer.from(await dump.arrayBuffer()))
  await rename(building, file)
  return dump
}

/**
 * Starting even an in-memory PGlite from the dump costs ~1 s, and a PostgreSQL schema with every migration ~0.5 s
 * plus ~0.2 s to drop it; emptying either costs ~0.1 s. So a file's database, once the file is done with it, is
 * emptied (every table truncated, identities restarted) and kept for the next file this process runs, which finds it
 * as fresh as a new one: no migration writes rows, so empty tables are what a new database holds. A file must close
 * the apps it built before its database (useTestApp does), or a leftover job poller would reach into the next file's
 * rows. The schemas a run keeps are named for the vitest process (a worker's parent) and dropped when the run ends
 * (tests/api/global-setup.ts).
 */
const emptied: { handle: DatabaseHandle; schema?: string }[] = []
export const schemaPrefix = `test_${process.ppid}_`

async function empty(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') await handle.db.execute(sql`rollback`)
  const tables = await selectRows<{ name: string }>(
    handle.db,
    sql`select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = current_schema()`,
  )
  const names = tables.map((row) => row.name).join(', ')
  if (names) await handle.db.execute(sql.raw(`truncate ${names} restart identity cascade`))
  // PGlite is one session, which the next file inherits as it is; a PostgreSQL pool's sessions keep only their
  // search_path, which the schema needs.
  if (handle.kind === 'pglite') await handle.db.execute(sql`discard all`)
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wren-api-test-'))
  const kept = emptied.pop()
  const schema = kept ? kept.schema : databaseUrl ? `${schemaPrefix}${randomBytes(6).toString('hex')}` : undefined
  const dump = databaseUrl ? undefined : await (pgliteDump ??= loadPgliteDump())
  const handle = kept?.handle ?? (await openDatabase({ url: databaseUrl, dataDir, schema, pgliteDump: dump }))
  let closed = false
  return {
    handle,
    dataDir,
    reset: async () => {
      await handle.db.delete(sessions)
      await handle.db.delete(users)
    },
    close: async () => {
      if (closed) return
      closed = true
      try {
        await empty(handle)
        emptied.push({ handle, schema })
      } catch {
        await handle.close()
        if (schema) await dropSchema(schema)
      }
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query(`drop schema if exists "${schema}" cascade`)
  } finally {
    await client.end()
  }
}

// JSON logs whatever the terminal: a test that reads log lines parses them.
const testDefaults: Partial<Config> = { rateLimits: false, logLevel: 'silent', logFormat: 'json', hashConcurrency: 2 }

/**
 * No test reaches the network: every name a link preview would fetch resolves to nothing, unless the file answers
 * DNS itself (`linkPreviewFetch.lookup`, tests/api/link-previews.test.ts).
 */
const offlineLookup: LookupFunction = (hostname, _options, callback) =>
  callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (tests are offline)`), { code: 'ENOTFOUND' }), '', 0)

export async function buildTestApp(
  database: TestDatabase,
  options: Omit<BuildAppOptions, 'database'> = {},
): Promise<FastifyInstance> {
  const config = { ...testDefaults, dataDir: database.dataDir, ...options.config }
  const linkPreviewFetch = { lookup: offlineLookup, ...options.linkPreviewFetch }
  const app = await buildApp({ caches: testCaches, ...options, linkPreviewFetch, database: database.handle, config })
  await app.ready()
  return app
}

export interface TestContext {
  /** The file's app (built in beforeAll). */
  readonly app: FastifyInstance
  readonly database: TestDatabase
}

/** Registers beforeAll/afterAll that open the file's database and build its app. */
export function useTestApp(options: Omit<BuildAppOptions, 'database'> = {}): TestContext {
  let app: FastifyInstance | undefined
  let database: TestDatabase | undefined
  beforeAll(async () => {
    database = await openTestDatabase()
    app = await buildTestApp(database, options)
  })
  afterAll(async () => {
    await app?.close()
    await database?.close()
  })
  return {
    get app() {
      if (!app) throw new Error('useTestApp: the app is built in beforeAll')
      return app
    },
    get database() {
      if (!database) throw new Error('useTestApp: the database is opened in beforeAll')
      return database
    },
  }
}

// ---- request helpers -------------------------------------------------------------------------------------------

export type AuthResponse = Schemas['AuthResponse']
export interface ErrorBody {
  error: string
  details?: string[]
}

let counter = 0
/** A username no other test in the file uses. */
export function uniqueName(prefix = 'user'): string {
  counter += 1
  return `${prefix}_${process.pid}_${counter}`.slice(0, 30)
}

export const STRONG_PASSWORD = 'Correct-Horse-9'

/**
 * What a browser sends in place of a password: a stand-in for the argon2id-then-HKDF authentication secret
 * (src/crypto/kdf.ts), 32 bytes in base64url. The server cannot tell how it was derived and need not: the tests read
 * as "sign in with this password" while sending what a browser would. The real derivation is tested in
 * tests/machines/crypto.test.ts and, in a browser, tests/e2e/password-secrets.spec.ts.
 */
export function authSecretOf(password: string): string {
  return createHash('sha256').update(`stand-in auth secret\u0000${password}`).digest('base64url')
}

/** Today's default KDF settings with a fresh salt, as a registering browser sends them. */
export function testKdf(): KdfSettings {
  return { algorithm: 'argon2id', salt: randomBytes(16).toString('base64url'), ...KDF_DEFAULT }
}

/** The login body for a member who types `password`. */
export function loginBody(username: string, password: string) {
  return { username, authSecret: authSecretOf(password) }
}

/** The change-password body for a member who types `currentPassword` and `newPassword`. */
export function passwordChange(currentPassword: string, newPassword: string, extra: Record<string, unknown> = {}) {
  return { currentAuthSecret: authSecretOf(currentPassword), newAuthSecret: authSecretOf(newPassword), kdf: testKdf(), ...extra }
}

/** A registration body; `password` in the overrides is sent as its authentication secret, as a browser would. */
export function registration(overrides: Record<string, unknown> = {}) {
  const { password = STRONG_PASSWORD, ...rest } = overrides
  const username = typeof rest.username === 'string' ? rest.username : uniqueName()
  return {
    username,
    email: `${username.toLowerCase()}@example.test`,
    displayName: 'Test Member',
    authSecret: authSecretOf(String(password)),
    kdf: testKdf(),
    ...rest,
  }
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` }
}

export async function api(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { ...(options.token ? bearer(options.token) : {}), ...options.headers },
    ...(options.body === undefined ? {} : { payload: options.body as InjectOptions['payload'] }),
  })
}

/** Registers a member and returns the signed-in answer; fails the test on anything but 201. */
export async function registerMember(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
): Promise<AuthResponse & { password: string }> {
  const body = registration(overrides)
  const res = await api(app, 'POST', '/api/auth/register', { body })
  if (res.statusCode !== 201) throw new Error(`register answered ${res.statusCode}: ${res.body}`)
  return { ...(res.json() as AuthResponse), password: String(overrides.password ?? STRONG_PASSWORD) }
}
