import pg from 'pg'

/**
 * On PostgreSQL the API files keep their emptied schemas for the next file (tests/api/harness.ts), named
 * `test_<this vitest process's pid>_…`. When the run ends they are dropped, and so are those of runs whose vitest
 * process is gone (a run that was killed), while a run still going on beside this one keeps its own.
 */
async function dropSchemas(which: (pid: number) => boolean): Promise<void> {
  const url = process.env.DATABASE_URL
  if (!url) return
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string }>(
      `select nspname as name from pg_namespace where nspname ~ '^test_[0-9]+_[0-9a-f]+$'`,
    )
    for (const { name } of rows) {
      if (which(Number(name.split('_')[1]))) await client.query(`drop schema if exists "${name}" cascade`)
    }
  } finally {
    await client.end()
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export async function setup(): Promise<() => Promise<void>> {
  await dropSchemas((pid) => !running(pid))
  return () => dropSchemas((pid) => pid === process.pid)
}
