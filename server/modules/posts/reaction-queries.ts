import { sql } from 'drizzle-orm'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { Visibility } from '../../db/schema-posts'
import { visibleToAlias } from '../visibility/visibility'
import { isPostId } from './queries'

// The SQL of likes and reposts: the member's own row, then (once per batch, server/modules/posts/reactions.ts) the
// post's counters. Lock order, as everywhere: a post's row before its day's analytics row and its notification item.

export type Reaction = 'likes' | 'reposts'

/** What flipping one member's like or repost did. */
export interface Flipped {
  postId: string
  authorId: string
  visibility: Visibility
  /** +1 a row was made, -1 one was removed, 0 neither (a concurrent flip made the same row first). */
  delta: 1 | -1 | 0
  /** When the removed row had been made: an unlike takes the like off the day it was given. */
  removedMadeAt: string | null
}

interface FlippedRow {
  i: number
  id: string
  author_id: string
  visibility: Visibility
  removed_at: string | null
  added: boolean
}

/** One member's flip of one post. */
export interface FlipRequest {
  viewerId: string
  postId: string
}

/**
 * Flips each member's like or repost of a post they may see, all in one statement: removes their row if there is
 * one, else makes it (reposts only of public posts). No (member, post) may appear twice: the caller splits such
 * flips into successive calls, in order. Answers, per request in order, undefined when the member may not see the
 * post (or it does not exist), or the post with what changed: delta 0 and no change for a repost of a post that is
 * not public, which the caller refuses, or when a concurrent flip made the same row first. The posts' rows are
 * share-locked on their key, in id order: a deletion waits for the batch, and counters (a no-key update) do not.
 */
export async function flipReactions(
  tx: SqlExecutor,
  table: Reaction,
  flips: readonly FlipRequest[],
): Promise<Array<Flipped | undefined>> {
  const answers: Array<Flipped | undefined> = flips.map(() => undefined)
  const valid = [...flips.entries()].filter(([, f]) => isPostId(f.postId))
  if (valid.length === 0) return answers
  const name = sql.raw(table)
  const allowed = table === 'reposts' ? sql`where visibility = 'public'` : sql``
  const values = sql.join(
    valid.map(([i, f]) => sql`(${i}::int, ${f.viewerId}::uuid, ${f.postId}::uuid)`),
    sql`, `,
  )
  const rows = await selectRows<FlippedRow>(
    tx,
    sql`with v(i, user_id, post_id) as (values ${values}),
        post as (
          select v.i, v.user_id, p.id, p.author_id, p.visibility from v join posts p on p.id = v.post_id
          where ${visibleToAlias(sql`v.user_id`, 'p')}
          order by p.id
          for key share of p
        ),
        allowed as (select i, user_id, id from post ${allowed}),
        removed as (
          delete from ${name} r using allowed a where r.user_id = a.user_id and r.post_id = a.id
          returning r.user_id, r.post_id, r.created_at
        ),
        added as (
          insert into ${name} (user_id, post_id)
          select a.user_id, a.id from allowed a
          where not exists (select 1 from removed x where x.user_id = a.user_id and x.post_id = a.id)
          order by a.id
          on conflict do nothing
          returning user_id, post_id
        )
        select post.i, post.id, post.author_id, post.visibility,
          removed.created_at::text as removed_at, added.user_id is not null as added
        from post
        left join removed on removed.user_id = post.user_id and removed.post_id = post.id
        left join added on added.user_id = post.user_id and added.post_id = post.id`,
  )
  for (const row of rows) {
    const delta = row.added ? 1 : row.removed_at !== null ? -1 : 0
    answers[row.i] = { postId: row.id, authorId: row.author_id, visibility: row.visibility, delta, removedMadeAt: row.removed_at }
  }
  return answers
}

/** One member's flip (see `flipReactions`). */
export async function flipReaction(
  tx: SqlExecutor,
  table: Reaction,
  viewerId: string,
  postId: string,
): Promise<Flipped | undefined> {
  const [flipped] = await flipReactions(tx, table, [{ viewerId, postId }])
  return flipped
}

export interface CounterChange {
  postId: string
  likes: number
  reposts: number
}

/**
 * Adds a batch's net changes to the posts' like and repost counters, locking the rows in id order first (so two
 * batches touching the same posts wait for each other instead of deadlocking), and answers each post's counts after.
 */
export async function addToReactionCounts(
  tx: SqlExecutor,
  changes: readonly CounterChange[],
): Promise<Map<string, { likes: number; reposts: number }>> {
  if (changes.length === 0) return new Map()
  const values = sql.join(
    changes.map((c) => sql`(${c.postId}::uuid, ${c.likes}::int, ${c.reposts}::int)`),
    sql`, `,
  )
  const rows = await selectRows<{ id: string; like_count: number; repost_count: number }>(
    tx,
    sql`with v(id, likes, reposts) as (values ${values}),
        locked as (select p.id from posts p where p.id in (select id from v) order by p.id for no key update of p)
        update posts p
        set like_count = greatest(0, p.like_count + v.likes), repost_count = greatest(0, p.repost_count + v.reposts)
        from v, locked l
        where p.id = v.id and l.id = p.id
        returning p.id, p.like_count, p.repost_count`,
  )
  return new Map(rows.map((r) => [r.id, { likes: r.like_count, reposts: r.repost_count }]))
}
