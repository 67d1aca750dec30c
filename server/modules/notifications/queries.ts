import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectPrepared } from '../../db/prepared'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { NotificationKind } from '../../db/schema-notifications'
import { LIMITS } from '../../../src/api/contract/limits'
import { uuidv7 } from '../../db/ids'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import { blockedBetween, memberVisibleTo, notMuted, reposterShown, visibleToAlias } from '../visibility/visibility'

// The SQL of notifications (docs/product.md, "Notifications"); the rules of who is told what live in service.ts.

/** Something a member did that another member may be told about. */
export interface Happening {
  kind: NotificationKind
  recipientId: string
  actorId: string
  /** The post concerned: the liked or reposted post, the reply or the mentioning post itself; null for follows. */
  postId: string | null
  /** Only for `report`: the recipient's report whose status changed (the actor is the admin who changed it). */
  reportId?: string
}

/** Likes and reposts of one post are one item; everything else is an item of its own. */
export function groupKeyOf(h: Happening): string {
  if (h.kind === 'report') return `report:${h.reportId ?? ''}`
  return h.kind === 'follow' || h.kind === 'follow_request' || h.kind === 'follow_accepted'
    ? `${h.kind}:${h.actorId}`
    : `${h.kind}:${h.postId ?? ''}`
}

/** The preference that turns a kind off (follow requests and accepted ones go with follows). */
export const preferenceOf = (kind: NotificationKind): string =>
  kind === 'follow_request' || kind === 'follow_accepted' ? 'follow' : kind

/**
 * Which of these actors the recipient wants to hear of now, for one kind: not their own doing, no block either way,
 * the actor not muted by them, the kind not turned off; and a repost only from a reposter the recipient may see
 * (`memberVisibleTo`: a private account's reposts reach its approved followers only). Read in the transaction of the
 * happening itself; one statement for any number of actors (a batch of likes of one post).
 */
export async function mayNotifyActors(
  tx: SqlExecutor,
  recipientId: string,
  kind: NotificationKind,
  actorIds: readonly string[],
): Promise<Set<string>> {
  const others = [...new Set(actorIds)].filter((id) => id !== recipientId)
  if (others.length === 0) return new Set()
  const actor = sql`a.actor_id`
  const rows = await selectRows<{ actor_id: string }>(
    tx,
    sql`select a.actor_id from users r, (values ${sql.join(others.map((id) => sql`(${id}::uuid)`), sql`, `)}) as a(actor_id)
        where r.id = ${recipientId}
          and not ${blockedBetween(recipientId, actor)}
          and ${notMuted(recipientId, actor)}
          and (${kind} <> 'repost' or ${memberVisibleTo(recipientId, actor)})
          and not (${preferenceOf(kind)} = any(r.notifications_off))`,
  )
  return new Set(rows.map((r) => r.actor_id))
}

/**
 * Adds actors (in the order they acted) to their items, made if new: each item becomes unread and goes to the top.
 * `items` are groups of happenings, each sharing recipient, kind and group key; all are written by three statements
 * whatever their number (a batch of likes of many posts). Items are upserted in (recipient, group key) order, so two
 * transactions adding to the same items take their locks in the same order. The count and the latest actor are
 * recomputed from notification_actors under the items' row locks (the upsert takes them), so concurrent likes of
 * one post count exactly.
 */
export async function addActorsToItems(tx: SqlExecutor, items: ReadonlyArray<readonly Happening[]>): Promise<void> {
  const groups = items
    .flatMap((happenings) => {
      const [h] = happenings
      const latest = happenings[happenings.length - 1]
      return h && latest ? [{ h, latest, happenings, key: groupKeyOf(h) }] : []
    })
    .sort((a, b) => a.h.recipientId.localeCompare(b.h.recipientId) || a.key.localeCompare(b.key))
  if (groups.length === 0) return
  const rows = sql.join(
    groups.map(
      ({ h, latest, key }) =>
        sql`(${uuidv7()}::uuid, ${h.recipientId}::uuid, ${h.kind}::text, ${h.postId}::uuid,
             ${h.reportId ?? null}::uuid, ${key}::text, ${latest.actorId}::uuid, 1, now())`,
    ),
    sql`, `,
  )
  const upserted = await selectRows<{ id: string; recipient_id: string; group_key: string }>(
    tx,
    sql`insert into notifications
          (id, recipient_id, kind, post_id, report_id, group_key, latest_actor_id, actor_count, updated_at)
        values ${rows}
        on conflict (recipient_id, group_key) do update
          set latest_actor_id = excluded.latest_actor_id, updated_at = now(), read_at = null
        returning id, recipient_id, group_key`,
  )
  const idOf = new Map(upserted.map((r) => [`${r.recipient_id} ${r.group_key}`, r.id]))
  // Later actors get later times, so an item's latest actor is the last to act; an actor listed twice in one item
  // keeps their last place.
  const actors: SQL[] = []
  let order = 0
  for (const { h, happenings, key } of groups) {
    const id = idOf.get(`${h.recipientId} ${key}`)
    if (!id) continue
    const last = new Map<string, number>()
    for (const x of happenings) last.set(x.actorId, (order += 1))
    for (const [actorId, i] of last) actors.push(sql`(${id}::uuid, ${actorId}::uuid, ${i}::int)`)
  }
  if (actors.length === 0) return
  await tx.execute(
    sql`insert into notification_actors (notification_id, actor_id, created_at)
        select a.id, a.actor_id, clock_timestamp() + a.i * interval '1 microsecond'
        from (values ${sql.join(actors, sql`, `)}) as a(id, actor_id, i) order by a.id, a.actor_id
        on conflict (notification_id, actor_id) do update set created_at = excluded.created_at`,
  )
  const ids = [...new Set(upserted.map((r) => r.id))].sort()
  await recount(tx, sql`id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`, false)
}

/** One actor added to their item (see `addActorsToItems`). */
export function addToItem(tx: SqlExecutor, h: Happening): Promise<void> {
  return addActorsToItems(tx, [[h]])
}

/**
 * Count and latest actor of the items `where` names, from their actors; items left with no actor are deleted (not
 * looked for when actors were only added).
 */
async function recount(tx: SqlExecutor, where: SQL, removed = true): Promise<void> {
  await tx.execute(
    sql`update notifications n set
          actor_count = greatest(1, (select count(*) from notification_actors a where a.notification_id = n.id)),
          latest_actor_id = coalesce((select a.actor_id from notification_actors a where a.notification_id = n.id
                                        order by a.created_at desc, a.actor_id desc limit 1), n.latest_actor_id)
        where ${where}`,
  )
  if (!removed) return
  await tx.execute(
    sql`delete from notifications n
        where ${where} and not exists (select 1 from notification_actors a where a.notification_id = n.id)`,
  )
}

/**
 * Undoes happenings (unlikes, an unfollow, a withdrawn request) in one statement: each actor leaves their item, and
 * the items concerned are recounted once (an item left with no actor goes).
 */
export async function removeActorsFromItems(tx: SqlExecutor, happenings: readonly Happening[]): Promise<void> {
  if (happenings.length === 0) return
  const undone = sql.join(
    happenings.map((h) => sql`(${h.recipientId}::uuid, ${groupKeyOf(h)}::text, ${h.actorId}::uuid)`),
    sql`, `,
  )
  const removed = await selectRows<{ notification_id: string }>(
    tx,
    sql`delete from notification_actors a using notifications n, (values ${undone}) as u(recipient_id, group_key, actor_id)
        where n.id = a.notification_id and n.recipient_id = u.recipient_id and n.group_key = u.group_key
          and a.actor_id = u.actor_id
        returning a.notification_id`,
  )
  const ids = [...new Set(removed.map((r) => r.notification_id))].sort()
  if (ids.length === 0) return
  await recount(tx, sql`id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`)
}

/** One happening undone (see `removeActorsFromItems`). */
export function removeFromItem(tx: SqlExecutor, h: Happening): Promise<void> {
  return removeActorsFromItems(tx, [h])
}

/** The happenings grouped by `key`, each group in the order given, groups in the order first seen. */
function groupBy(happenings: readonly Happening[], key: (h: Happening) => string): Happening[][] {
  const groups = new Map<string, Happening[]>()
  for (const h of happenings) {
    const k = key(h)
    const group = groups.get(k)
    if (group) group.push(h)
    else groups.set(k, [h])
  }
  return [...groups.values()]
}

/**
 * The happenings each recipient wants to hear of become (or join) items; answers the recipients told. The rules are
 * read once per recipient and kind for all its actors, and the items are written together with all their new actors
 * (`addActorsToItems`), however many.
 */
export async function recordHappenings(tx: SqlExecutor, happenings: readonly Happening[]): Promise<string[]> {
  const wanted: Happening[] = []
  for (const same of groupBy(happenings, (h) => `${h.recipientId} ${h.kind}`)) {
    const [first] = same
    if (!first) continue
    const allowed = await mayNotifyActors(tx, first.recipientId, first.kind, same.map((h) => h.actorId))
    wanted.push(...same.filter((h) => allowed.has(h.actorId)))
  }
  await addActorsToItems(tx, groupBy(wanted, (h) => `${h.recipientId} ${groupKeyOf(h)}`))
  return [...new Set(wanted.map((h) => h.recipientId))]
}

/** Undone happenings leave their items (`removeActorsFromItems`); answers the recipients concerned. */
export async function withdrawHappenings(tx: SqlExecutor, happenings: readonly Happening[]): Promise<string[]> {
  await removeActorsFromItems(tx, happenings)
  return happenings.map((h) => h.recipientId)
}

/** A block or a mute: what the member did is taken out of the other's items (both ways for a block). */
export async function removeActorFor(tx: SqlExecutor, recipientId: string, actorId: string): Promise<void> {
  const removed = await selectRows<{ notification_id: string }>(
    tx,
    sql`delete from notification_actors a using notifications n
        where n.id = a.notification_id and n.recipient_id = ${recipientId} and a.actor_id = ${actorId}
        returning a.notification_id`,
  )
  const ids = [...new Set(removed.map((r) => r.notification_id))]
  if (ids.length === 0) return
  await recount(tx, sql`id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`)
}

export type NotificationFilter = 'all' | 'mentions' | 'unread'

export interface NotificationRow {
  id: string
  kind: NotificationKind
  read: boolean
  updated_at: unknown
  at: string
  actor_count: number
  actor_id: string
  actor_username: string
  actor_display_name: string
  actor_avatar: string | null
  actor_verified: boolean
  post_id: string | null
  post_content: string | null
  report_id: string | null
  report_status: string | null
}

/**
 * The reposters a repost item shows the viewer: only those shown to them now (`reposterShown`: no block either way,
 * not muted, a private reposter only to its approved followers), the latest first, with how many there are. Read when
 * the list is, so an unfollow of a private account or its turning private hides its reposts at once. `va` is null for
 * the other kinds (their single actor is checked by `shown`) and for a repost item nobody visible is left in.
 */
function visibleReposters(viewerId: string): SQL {
  return sql`left join lateral (
          select a.actor_id, (count(*) over ())::int as shown_count from notification_actors a
          where n.kind = 'repost' and a.notification_id = n.id and ${reposterShown(viewerId, sql`a.actor_id`)}
          order by a.created_at desc, a.actor_id desc limit 1) va on true`
}

/**
 * Items the viewer may still see: nothing from across a block or a member they muted, a repost item only with a
 * reposter they may see (`visibleReposters`, joined as `va`), nothing on a post hidden now.
 */
function shown(viewerId: string): SQL {
  return sql`n.recipient_id = ${viewerId}
    and (case when n.kind = 'repost' then va.actor_id is not null
      else not ${blockedBetween(viewerId, sql`n.latest_actor_id`)} and ${notMuted(viewerId, sql`n.latest_actor_id`)} end)
    and (n.post_id is null or ${visibleToAlias(viewerId, 'p')})`
}

const FILTERS: Record<NotificationFilter, SQL> = {
  all: sql`true`,
  mentions: sql`n.kind = 'mention'`,
  unread: sql`n.read_at is null`,
}

function pageStatement(viewerId: string, filter: NotificationFilter, cursor: Cursor | undefined, offset: number, limit: number): SQL {
  return sql`select n.id, n.kind, n.read_at is not null as read, n.updated_at, ${micros(sql`n.updated_at`)} as at,
          coalesce(va.shown_count, n.actor_count) as actor_count, u.id as actor_id, u.username as actor_username, u.display_name as actor_display_name,
          u.avatar as actor_avatar, u.verified as actor_verified, p.id as post_id, p.content as post_content,
          r.id as report_id, r.status as report_status
        from notifications n
        ${visibleReposters(viewerId)}
        join users u on u.id = coalesce(va.actor_id, n.latest_actor_id)
        left join posts p on p.id = n.post_id
        left join reports r on r.id = n.report_id
        where ${shown(viewerId)} and ${FILTERS[filter]}
          ${cursor ? sql`and (n.updated_at, n.id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by n.updated_at desc, n.id desc
        offset ${offset} limit ${limit}`
}

export async function notificationPage(
  db: Database,
  viewerId: string,
  filter: NotificationFilter,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<NotificationRow[]> {
  // Named per shape (filter, with or without a cursor): planned once per connection, not on every page.
  return selectPrepared<NotificationRow>(
    db,
    `notifications_page_v2_${filter}_${cursor ? 'after' : 'first'}`,
    pageStatement(viewerId, filter, cursor, offset, limit),
  )
}

/**
 * One page and the unread count in one statement (GET /notifications): one round trip instead of two. On this
 * 2-core machine a statement's socket write to PostgreSQL was the largest single cost of a cheap request. The count
 * is the outer row, so an empty page still carries it (one row whose item columns are null).
 */
export async function notificationPageAndCount(
  db: Database,
  viewerId: string,
  filter: NotificationFilter,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<{ rows: NotificationRow[]; unread: number }> {
  const rows = await selectPrepared<NotificationRow & { unread_count: number }>(
    db,
    `notifications_list_v2_${filter}_${cursor ? 'after' : 'first'}`,
    sql`select c.n as unread_count, pg.* from (${unreadStatement(viewerId)}) c
        left join lateral (${pageStatement(viewerId, filter, cursor, offset, limit)}) pg on true
        order by pg.updated_at desc, pg.id desc`,
  )
  return { rows: rows.filter((r) => r.id !== null), unread: rows[0]?.unread_count ?? 0 }
}

/**
 * Unread items as the list would show them (the badge and `unreadCount`), counted up to LIMITS.unreadCountCap. Only
 * the newest UNREAD_LOOKED_AT unread items are looked at (notifications_recipient_unread_idx), each with its post for
 * the visibility rule: a member with 736 unread cost 24 ms a count when all were read. Items are hidden from the
 * list only in rare cases (their post's audience changed since: blocks and mutes take items out when they happen),
 * so the count is exact unless more than 50 of the newest 150 unread are hidden.
 */
export async function unreadCount(db: Database, viewerId: string): Promise<number> {
  const [row] = await selectPrepared<{ n: number }>(db, 'notifications_unread_count_v3', unreadStatement(viewerId))
  return row?.n ?? 0
}

function unreadStatement(viewerId: string): SQL {
  return sql`select count(*)::int as n from (
          select 1 from (
            select * from notifications where recipient_id = ${viewerId} and read_at is null
            order by updated_at desc limit ${UNREAD_LOOKED_AT} offset 0
          ) n
          ${visibleReposters(viewerId)}
          left join posts p on p.id = n.post_id
          where ${shown(viewerId)}
          limit ${LIMITS.unreadCountCap}
        ) capped`
}

const UNREAD_LOOKED_AT = LIMITS.unreadCountCap + 50

/** Marks one of the viewer's items read; false when it is not theirs (or not there). */
export async function markRead(db: SqlExecutor, viewerId: string, id: string): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`update notifications set read_at = coalesce(read_at, now())
        where id = ${id} and recipient_id = ${viewerId} returning id`,
  )
  return rows.length > 0
}

export async function markAllRead(db: SqlExecutor, viewerId: string): Promise<void> {
  await db.execute(sql`update notifications set read_at = now() where recipient_id = ${viewerId} and read_at is null`)
}

export async function turnedOff(db: SqlExecutor, userId: string): Promise<string[]> {
  const [row] = await selectRows<{ off: string[] }>(db, sql`select notifications_off as off from users where id = ${userId}`)
  return row?.off ?? []
}

export async function setTurnedOff(db: SqlExecutor, userId: string, off: readonly string[]): Promise<void> {
  await db.execute(sql`update users set notifications_off = ${sql`${`{${off.join(',')}}`}::text[]`} where id = ${userId}`)
}
