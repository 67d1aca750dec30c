import { sql } from 'drizzle-orm'
import type { Database } from '../../server/db/client'
import { uuidv7 } from '../../server/db/ids'
import { feedKeys, feedPlanFor } from '../../server/modules/posts/feed-queries'
import type { Viewer } from './sql-feed'

/**
 * The list timeline's bench subject: a list owned by a seeded member, holding `size` of the accounts they follow
 * (a stable pseudo-random sample, md5 of the id), so its timeline reads the same kind of authors as their home feed.
 * Made with SQL after seeding (the seed has no lists); the member_count trigger counts the rows. Replaces the list a
 * previous run left (--reuse-db).
 */

export const BENCH_LIST_NAME = 'Bench list'

export interface BenchList {
  id: string
  memberCount: number
}

export async function makeBenchList(db: Database, owner: Viewer, size: number): Promise<BenchList> {
  await db.execute(sql`delete from lists where owner_id = ${owner.id} and name = ${BENCH_LIST_NAME}`)
  const id = uuidv7()
  await db.execute(sql`insert into lists (id, owner_id, name, description) values (${id}, ${owner.id}, ${BENCH_LIST_NAME}, 'bench/feed.ts')`)
  await db.execute(
    sql`insert into list_members (list_id, user_id)
        select ${id}::uuid, followee_id from follows where follower_id = ${owner.id}
        order by md5(followee_id::text) limit ${size}`,
  )
  const result: unknown = await db.execute(sql`select member_count from lists where id = ${id}`)
  const row = (result as { rows: Array<{ member_count: number }> }).rows[0]
  return { id, memberCount: row?.member_count ?? 0 }
}

/** The list timeline's keys for one page (20 + 1), as ListService asks PostService for them. */
export async function listKeys(db: Database, viewer: Viewer, list: BenchList): Promise<number> {
  const keys = await feedKeys(db, viewer.id, undefined, 21, feedPlanFor(list.memberCount), { kind: 'list', listId: list.id })
  return keys.length
}
