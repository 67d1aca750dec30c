import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectRows, type SqlExecutor, toDate } from '../../db/rows'
import { countOnDay } from '../analytics/daily-stats'
import { removeFromItem } from '../notifications/queries'
import { deleteThread, type PostRef } from '../posts/queries'
import type { Reaction } from '../posts/reaction-queries'
import { setFollow } from '../users/queries'

// SQL of account deletion (docs/product.md, "Deleting an account"). Every step reads what is still there, so a job
// that died halfway and runs again carries on where it stopped and never counts anything twice.

/** How long a deleted member's username stays held. */
export const HOLD_USERNAME_MS = 30 * 24 * 60 * 60_000

/**
 * Marks the member deleted (once) and answers their username; undefined when already marked or gone. An admin stops
 * being one at once, so the admins' count (the last-admin rule) never counts a member who is leaving.
 */
export async function markDeleted(tx: SqlExecutor, userId: string, now: Date): Promise<string | undefined> {
  const [row] = await selectRows<{ username: string }>(
    tx,
    sql`update users set deleted_at = ${now.toISOString()}::timestamptz, is_admin = false, updated_at = now()
        where id = ${userId} and deleted_at is null returning username`,
  )
  return row?.username
}

/** Every session of the member, deleted; answers their ids so their tokens and sockets are refused everywhere. */
export async function deleteAllSessions(tx: SqlExecutor, userId: string): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(tx, sql`delete from sessions where user_id = ${userId} returning id`)
  return rows.map((r) => r.id)
}

export async function holdUsername(tx: SqlExecutor, username: string, until: Date): Promise<void> {
  await tx.execute(
    sql`insert into held_usernames (name, until) values (lower(${username}), ${until.toISOString()}::timestamptz)
        on conflict (name) do update set until = greatest(held_usernames.until, excluded.until)`,
  )
}

export async function isUsernameHeld(db: SqlExecutor, username: string, now: Date): Promise<boolean> {
  const rows = await selectRows<{ name: string }>(
    db,
    sql`select name from held_usernames where name = lower(${username}) and until > ${now.toISOString()}::timestamptz`,
  )
  return rows.length > 0
}

/** Frees held names whose 30 days are over (the release job, and any later one, sweeps them all). */
export async function releaseHeldUsernames(db: SqlExecutor, now: Date): Promise<number> {
  const rows = await selectRows<{ name: string }>(
    db,
    sql`delete from held_usernames where until <= ${now.toISOString()}::timestamptz returning name`,
  )
  return rows.length
}

// ---- the background job's pages ----------------------------------------------------------------------------------

export const PAGE = 100

/** The member's posts still there (replies too), oldest id first. */
export async function postsOf(db: SqlExecutor, userId: string): Promise<PostRef[]> {
  return selectRows<PostRef>(
    db,
    sql`select id, author_id as "authorId", visibility, reply_to as "replyTo" from posts
        where author_id = ${userId} order by id limit ${PAGE}`,
  )
}

/**
 * Deletes one of the member's posts and the thread beneath it (others' replies too: a reply means nothing without its
 * parent), fixing every counter they contributed to (deleteThread). Answers undefined when the post is already gone.
 */
export async function deleteOwnPost(
  tx: Database,
  postId: string,
): Promise<(Awaited<ReturnType<typeof deleteThread>> & { root: PostRef }) | undefined> {
  const [root] = await selectRows<PostRef>(
    tx,
    sql`select id, author_id as "authorId", visibility, reply_to as "replyTo" from posts where id = ${postId} for update`,
  )
  if (!root) return undefined
  return { ...(await deleteThread(tx, root)), root }
}

/** Posts the member liked or reposted, still counted. */
export async function reactedPosts(db: SqlExecutor, table: Reaction, userId: string): Promise<string[]> {
  const rows = await selectRows<{ post_id: string }>(
    db,
    sql`select post_id from ${sql.raw(table)} where user_id = ${userId} order by post_id limit ${PAGE}`,
  )
  return rows.map((r) => r.post_id)
}

/**
 * Takes the member's like or repost off a post: the row, the post's counter, that day's analytics and the author's
 * notification, in one transaction under the post's row lock, as an unlike does.
 */
export async function withdrawReaction(tx: Database, table: Reaction, userId: string, postId: string): Promise<void> {
  const [post] = await selectRows<{ author_id: string }>(
    tx,
    sql`select author_id from posts where id = ${postId} for no key update`,
  )
  const removed = await selectRows<{ created_at: unknown }>(
    tx,
    sql`delete from ${sql.raw(table)} where user_id = ${userId} and post_id = ${postId} returning created_at`,
  )
  if (!post || !removed[0]) return
  const counter = sql.raw(table === 'likes' ? 'like_count' : 'repost_count')
  await tx.execute(sql`update posts set ${counter} = greatest(0, ${counter} - 1) where id = ${postId}`)
  await countOnDay(tx, table, postId, toDate(removed[0].created_at), -1)
  const kind = table === 'likes' ? ('like' as const) : ('repost' as const)
  await removeFromItem(tx, { kind, recipientId: post.author_id, actorId: userId, postId })
}

/** One page of the member's follows, either way: [follower, followee] pairs. */
export async function followsOf(db: SqlExecutor, userId: string): Promise<Array<[string, string]>> {
  const rows = await selectRows<{ follower_id: string; followee_id: string }>(
    db,
    sql`(select follower_id, followee_id from follows where follower_id = ${userId} limit ${PAGE})
        union all
        (select follower_id, followee_id from follows where followee_id = ${userId} limit ${PAGE})`,
  )
  return rows.map((r) => [r.follower_id, r.followee_id])
}

/** An unfollow, with both members' counters (setFollow). */
export async function removeFollow(tx: Database, followerId: string, followeeId: string): Promise<void> {
  await setFollow(tx, followerId, followeeId, false)
}

/** The member's conversations, with the storage keys of every attachment in them. */
export async function conversationsOf(db: SqlExecutor, userId: string): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`select id from conversations where member_low = ${userId} or member_high = ${userId} order by id limit ${PAGE}`,
  )
  return rows.map((r) => r.id)
}

export async function attachmentKeysOf(db: SqlExecutor, conversationId: string): Promise<string[]> {
  const rows = await selectRows<{ storage_key: string }>(
    db,
    sql`select storage_key from message_attachments where conversation_id = ${conversationId}`,
  )
  return rows.map((r) => r.storage_key)
}

/** The conversation, its messages (ciphertext), both members' rows and its attachments' rows. */
export async function deleteConversation(db: SqlExecutor, conversationId: string): Promise<void> {
  await db.execute(sql`delete from conversations where id = ${conversationId}`)
}

/**
 * Takes the member out of every notification item they are behind (a follow, a mention, a like of a post that is not
 * theirs...): each item's count and latest actor are recounted from the actors left, and an item left with nobody
 * goes. Answers the recipients whose items changed.
 */
export async function removeAsActor(tx: SqlExecutor, userId: string): Promise<string[]> {
  const removed = await selectRows<{ notification_id: string }>(
    tx,
    sql`delete from notification_actors where actor_id = ${userId} returning notification_id`,
  )
  const ids = [...new Set(removed.map((r) => r.notification_id))]
  const recipients = new Set<string>()
  for (let i = 0; i < ids.length; i += PAGE) {
    const list = sql.join(
      ids.slice(i, i + PAGE).map((id) => sql`${id}::uuid`),
      sql`, `,
    )
    await tx.execute(
      sql`update notifications n set
            actor_count = greatest(1, (select count(*) from notification_actors a where a.notification_id = n.id)),
            latest_actor_id = coalesce((select a.actor_id from notification_actors a where a.notification_id = n.id
                                          order by a.created_at desc, a.actor_id desc limit 1), n.latest_actor_id)
          where n.id in (${list})`,
    )
    const gone = await selectRows<{ recipient_id: string }>(
      tx,
      sql`delete from notifications n where n.id in (${list})
            and not exists (select 1 from notification_actors a where a.notification_id = n.id)
          returning recipient_id`,
    )
    const kept = await selectRows<{ recipient_id: string }>(
      tx,
      sql`select recipient_id from notifications where id in (${list})`,
    )
    for (const r of [...gone, ...kept]) recipients.add(r.recipient_id)
  }
  // Items whose only actor the member was but which never listed them as an actor row do not exist: every item is
  // made with its actor (addToItem). What is left naming them as latest actor goes with the users row (cascade).
  return [...recipients]
}

/** Lists of others the member is on: their timelines change when the member's row goes. */
export async function listsHolding(db: SqlExecutor, userId: string): Promise<string[]> {
  const rows = await selectRows<{ list_id: string }>(db, sql`select list_id from list_members where user_id = ${userId}`)
  return rows.map((r) => r.list_id)
}

/** The avatar and banner URLs, then the users row itself (everything still keyed by it goes by cascade). */
export async function imagesOf(db: SqlExecutor, userId: string): Promise<Array<string | null>> {
  const [row] = await selectRows<{ avatar: string | null; banner: string | null }>(
    db,
    sql`select avatar, banner from users where id = ${userId}`,
  )
  return row ? [row.avatar, row.banner] : []
}

export async function deleteUserRow(db: SqlExecutor, userId: string): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`delete from users where id = ${userId} and deleted_at is not null returning id`,
  )
  return rows.length > 0
}
