import pg from 'pg'

/**
 * The benchmark's own database on the machine's PostgreSQL: created fresh for a run and dropped after, so a run
 * never touches anyone's data. BENCH_DATABASE_URL names the server and an admin database to connect to for
 * CREATE/DROP DATABASE.
 */

/** `wren_bench`, or BENCH_DATABASE_NAME: two people benching on one PostgreSQL server must not drop each other's. */
export const BENCH_DATABASE = process.env.BENCH_DATABASE_NAME || 'wren_bench'

export function adminUrl(): string {
  return process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
}

/** The admin URL pointed at the bench database. */
export function benchUrl(admin: string = adminUrl(), name: string = BENCH_DATABASE): string {
  const url = new URL(admin)
  url.pathname = `/${name}`
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

/**
 * `name` is one of the benches' own database names (wren_bench, wren_bench_msg, or a `--database` of the search bench
 * checked by `checkBenchDatabaseName`), never free text.
 */
export function recreateBenchDatabase(name: string = BENCH_DATABASE): Promise<void> {
  return withAdmin(async (client) => {
    // FORCE: a previous run killed mid-way may have left connections open.
    await client.query(`drop database if exists ${name} with (force)`)
    await client.query(`create database ${name}`)
  })
}

export function dropBenchDatabase(name: string = BENCH_DATABASE): Promise<void> {
  return withAdmin(async (client) => {
    await client.query(`drop database if exists ${name} with (force)`)
  })
}

export function benchDatabaseExists(name: string = BENCH_DATABASE): Promise<boolean> {
  return withAdmin(async (client) => {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name])
    return (rowCount ?? 0) > 0
  })
}

export function serverVersion(): Promise<string> {
  return withAdmin(async (client) => {
    const { rows } = await client.query<{ v: string }>('select version() as v')
    return rows[0]?.v ?? 'unknown'
  })
}

/** A `--database` name: a plain identifier starting with wren_bench, so a flag can never name someone's database. */
export function checkBenchDatabaseName(name: string): string {
  if (!/^wren_bench[a-z0-9_]{0,40}$/.test(name)) throw new Error(`--database must match wren_bench[a-z0-9_]* (got "${name}")`)
  return name
}
