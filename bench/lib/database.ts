import pg from 'pg'

/**
 * The benchmark's own database on the machine's PostgreSQL: created fresh for a run and dropped after, so a run
 * never touches anyone's data. BENCH_DATABASE_URL names the server and an admin database to connect to for
 * CREATE/DROP DATABASE.
 */

export const BENCH_DATABASE = 'wren_bench'

export function adminUrl(): string {
  return process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
}

/** The admin URL pointed at the bench database. */
export function benchUrl(admin: string = adminUrl()): string {
  const url = new URL(admin)
  url.pathname = `/${BENCH_DATABASE}`
  return url.toString()
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

export function recreateBenchDatabase(): Promise<void> {
  return withAdmin(async (client) => {
    // FORCE: a previous run killed mid-way may have left connections open.
    await client.query(`drop database if exists ${BENCH_DATABASE} with (force)`)
    await client.query(`create database ${BENCH_DATABASE}`)
  })
}

export function dropBenchDatabase(): Promise<void> {
  return withAdmin(async (client) => {
    await client.query(`drop database if exists ${BENCH_DATABASE} with (force)`)
  })
}

export function benchDatabaseExists(): Promise<boolean> {
  return withAdmin(async (client) => {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [BENCH_DATABASE])
    return (rowCount ?? 0) > 0
  })
}

export function serverVersion(): Promise<string> {
  return withAdmin(async (client) => {
    const { rows } = await client.query<{ v: string }>('select version() as v')
    return rows[0]?.v ?? 'unknown'
  })
}
