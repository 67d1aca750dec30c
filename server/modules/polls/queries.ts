import { sql } from 'drizzle-orm'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { NewPoll } from './input'

// SQL of polls (schema-polls.ts). Times come from the caller's clock, so tests can move it.

export async function insertPoll(tx: SqlExecutor, postId: string, poll: NewPoll, closesAt: Date): Promise<void> {
  await tx.execute(
    sql`insert into polls (post_id, multiple, closes_at) values (${postId}, ${poll.multiple}, ${closesAt.toISOString()}::timestamptz)`,
  )
  const rows = poll.options.map((text, position) => sql`(${uuidv7()}, ${postId}, ${position}, ${text})`)
  await tx.execute(sql`insert into poll_options (id, post_id, position, text) values ${sql.join(rows, sql`, `)}`)
}

export interface LockedPoll {
  multiple: boolean
  closes_at: Date | string
  option_ids: string[]
}

/** The poll of a post, its row locked until the transaction ends: votes on one poll are counted one after another. */
export async function lockPoll(tx: SqlExecutor, postId: string): Promise<LockedPoll | undefined> {
  const [row] = await selectRows<LockedPoll>(
    tx,
    sql`select pl.multiple, pl.closes_at,
          array(select o.id from poll_options o where o.post_id = pl.post_id order by o.position) as option_ids
        from polls pl where pl.post_id = ${postId}
        for update of pl`,
  )
  return row
}

/**
 * Whether the member has voted, read after `lockPoll` in a statement of its own: under READ COMMITTED a new statement
 * sees the votes committed by whoever held the lock before (a subquery of the locking statement would not, since it
 * keeps the snapshot taken before the wait).
 */
export async function hasVoted(tx: SqlExecutor, postId: string, voterId: string): Promise<boolean> {
  const rows = await selectRows(tx, sql`select 1 from poll_votes where post_id = ${postId} and user_id = ${voterId} limit 1`)
  return rows.length > 0
}

/** One submission: its rows, each chosen option's count, and the voters' count, in the caller's transaction. */
export async function insertVote(tx: SqlExecutor, postId: string, voterId: string, optionIds: readonly string[]): Promise<void> {
  const rows = optionIds.map((id) => sql`(${postId}, ${voterId}, ${id})`)
  await tx.execute(sql`insert into poll_votes (post_id, user_id, option_id) values ${sql.join(rows, sql`, `)}`)
  await tx.execute(
    sql`update poll_options set votes_count = votes_count + 1 where post_id = ${postId} and id = any(${sql.param([...optionIds])}::uuid[])`,
  )
  await tx.execute(sql`update polls set voters_count = voters_count + 1 where post_id = ${postId}`)
}

/**
 * Marks a poll as closed and told, once: answers its author the first time (the poll has ended by `now` and nobody
 * marked it), nothing after, whichever process runs the job and however often.
 */
export async function markClosed(tx: SqlExecutor, postId: string, now: Date): Promise<string | undefined> {
  const [row] = await selectRows<{ author_id: string }>(
    tx,
    sql`update polls pl set closed_notified_at = ${now.toISOString()}::timestamptz
        from posts p
        where pl.post_id = ${postId} and p.id = pl.post_id
          and pl.closed_notified_at is null and pl.closes_at <= ${now.toISOString()}::timestamptz
        returning p.author_id`,
  )
  return row?.author_id
}
