import { sql } from 'drizzle-orm'
import { openDatabase } from '../server/db/client'
import { selectRows } from '../server/db/rows'
import type { Invalidations } from '../server/cache/invalidations'
import type { UserRow } from '../server/db/schema'
import { AdminService } from '../server/modules/admin/service'

// `npx tsx bench/fix-stats.ts <DATABASE_URL>`: times POST /users/fix-all-stats's work on a seeded database (the
// benchmark's 20,000 members and 1,000,000 posts): once on clean counters, once after breaking 1,000 members' and
// 20,000 posts' counters on purpose, and once more (clean again). The admin row is the first admin, or any member
// promoted for the run.
const url = process.argv[2] ?? process.env.DATABASE_URL
if (!url) throw new Error('Usage: npx tsx bench/fix-stats.ts <DATABASE_URL>')
const database = await openDatabase({ url, dataDir: '/tmp' })
const db = database.db
const invalidations = { emit: async () => {} } as unknown as Invalidations
const admin = new AdminService({ db, invalidations })
const [row] = await selectRows<{ id: string; username: string }>(db, sql`select id, username from users order by is_admin desc, id limit 1`)
const viewer = { id: row!.id, username: row!.username, isAdmin: true } as UserRow
const [counts] = await selectRows<{ users: number; posts: number }>(
  db,
  sql`select (select count(*)::int from users) as users, (select count(*)::int from posts) as posts`,
)
console.log('dataset', counts)

async function timed(label: string) {
  const start = performance.now()
  const result = await admin.fixAllStats(viewer)
  console.log(`${label}: ${((performance.now() - start) / 1000).toFixed(2)} s`, result)
}
await timed('clean run')
await db.execute(sql`update users set followers_count = followers_count + 3, posts_count = posts_count + 1
  where id in (select id from users order by id limit 1000)`)
await db.execute(sql`update posts set like_count = like_count + 2, reply_count = reply_count + 1
  where id in (select id from posts order by id limit 20000)`)
await timed('after breaking 1,000 members and 20,000 posts (2 counters each)')
await timed('clean again')
await database.close()
