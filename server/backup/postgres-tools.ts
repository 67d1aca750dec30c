import { spawn } from 'node:child_process'
import path from 'node:path'
import pg from 'pg'
import type { MigrationMark } from './manifest'
import { currentMigration } from './manifest'

/**
 * pg_dump and pg_restore, run as child processes. pg_dump's custom format is itself a consistent snapshot (one
 * repeatable-read transaction) however busy the servers are. The password travels in PGPASSWORD, never on the
 * command line where `ps` would show it.
 */

export class PgToolMissingError extends Error {
  constructor(tool: string, binDir: string | undefined) {
    super(
      `${tool} was not found${binDir ? ` in PG_BIN_DIR (${binDir})` : ' on the PATH'}. Install PostgreSQL's client ` +
        `tools, the same major version as the server or newer (Debian/Ubuntu: apt-get install postgresql-client; ` +
        `Fedora: dnf install postgresql; macOS: brew install libpq), or set PG_BIN_DIR to the folder that holds them.`,
    )
    this.name = 'PgToolMissingError'
  }
}

/** The URL without its password, and the password for PGPASSWORD. */
function splitPassword(url: string): { url: string; password: string | undefined } {
  const parsed = new URL(url)
  const password = parsed.password ? decodeURIComponent(parsed.password) : undefined
  parsed.password = ''
  return { url: parsed.toString(), password }
}

export function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string, binDir?: string): Promise<void> {
  const { url, password } = splitPassword(databaseUrl)
  const command = binDir ? path.join(binDir, tool) : tool
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, '--dbname', url], {
      env: { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }) },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString('utf8')
    })
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new PgToolMissingError(tool, binDir) : err),
    )
    child.on('close', (code, signal) => {
      if (code === 0) resolve()
      else reject(new Error(`${tool} failed (${signal ?? `exit ${code}`}):\n${stderr.trim()}`))
    })
  })
}

/** Fails with PgToolMissingError before any work is done when the tool is not installed. */
export function checkPgTool(tool: 'pg_dump' | 'pg_restore', binDir?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binDir ? path.join(binDir, tool) : tool, ['--version'], { stdio: 'ignore' })
    child.on('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new PgToolMissingError(tool, binDir) : err))
    child.on('close', () => resolve())
  })
}

async function withClient<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

export function postgresMigration(databaseUrl: string): Promise<MigrationMark | null> {
  return withClient(databaseUrl, (client) => currentMigration(async (text) => (await client.query(text)).rows))
}

/** Whether the database already holds Wren's tables (its users table or drizzle's migration record). */
export function postgresHasWrenTables(databaseUrl: string): Promise<boolean> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ found: boolean }>(
      `select to_regclass('public.users') is not null or to_regclass('drizzle.__drizzle_migrations') is not null as found`,
    )
    return rows[0]?.found === true
  })
}
