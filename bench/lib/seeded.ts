import os from 'node:os'
import pg from 'pg'
import { openDatabase } from '../../server/db/client'
import { runSeed, type SeedResult } from '../../server/seed/run'
import { benchUrl, recreateBenchDatabase } from './database'

/**
 * A fresh bench database `name`, migrated by the app's own code and seeded with server/seed (the bulk COPY load).
 * Shared by the feed and search benches, so both measure the same data.
 */
export async function seedBenchDatabase(
  name: string,
  users: number,
  posts: number,
  log: (line: string) => void,
): Promise<SeedResult> {
  const url = benchUrl(undefined, name)
  await recreateBenchDatabase(name)
  // Migrations through the app's own code, then the bulk load on a dedicated connection.
  const handle = await openDatabase({ url, dataDir: os.tmpdir() })
  await handle.close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await runSeed({ kind: 'postgres', client }, { users, posts, log })
  } finally {
    await client.end()
  }
}
