import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectPrepared } from '../../db/prepared'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import { blockedBetween } from '../visibility/visibility'

/**
 * SQL of lists, their members and subscriptions (docs/product.md, "Lists"). The one rule of who may see a list is
 * `readableBy`: its owner always; anyone else only a public list whose owner is not on the other side of a block.
 * A list nobody may see is answered like one that does not exist. Counters are kept by the triggers of migration
 * 0017 (schema-lists.ts), so nothing here moves them.
 */

export interface ListRow {
  id: string
  owner_id: string
  name: string
  description: string
  is_private: boolean
  member_count: number
  subscriber_count: number
  created_at: unknown
  subscribed: boolean
  /** Whether the member asked about (`member`) is on the list; null when nobody was asked about. */
  has_member: boolean | null
  owner_username: string
  owner_display_name: string
  owner_avatar: string | null
  owner_verified: boolean
  /** The list position, as cursor microseconds (lib/cursor.ts). */
  at: string
}

/** Who may read list `l`: its owner; others a public list, never across a block. */
export const readableBy = (viewerId: string): SQL =>
  sql`(l.owner_id = ${viewerId} or (not l.is_private and not ${blockedBetween(sql`l.owner_id`, viewerId)}))`

const listColumns = (viewerId: string, memberId: string | undefined, at: SQL) => sql`
  l.id, l.owner_id, l.name, l.description, l.is_private, l.member_count, l.subscriber_count, l.created_at,
  exists (select 1 from list_subscriptions ls where ls.list_id = l.id and ls.user_id = ${viewerId}) as subscribed,
  ${memberId === undefined ? sql`null::boolean` : sql`exists (select 1 from list_members lm where lm.list_id = l.id and lm.user_id = ${memberId}::uuid)`} as has_member,
  o.username as owner_username, o.display_name as owner_display_name, o.avatar as owner_avatar,
  o.verified as owner_verified, ${micros(at)} as at`

/**
 * Whether the viewer may read the list's timeline, and how many members it has (which plan reads it): the timeline's
 * only statement besides its keys, so it is small and named (planned once per connection). The full row
 * (`findList`, with its owner and the viewer's subscription) cost the list timeline a quarter of the home feed's rate.
 */
export async function listAccess(db: Database, viewerId: string, id: string): Promise<{ member_count: number } | undefined> {
  const [row] = await selectPrepared<{ member_count: number }>(
    db,
    'list_access_v1',
    sql`select l.member_count from lists l where l.id = ${id} and ${readableBy(viewerId)}`,
  )
  return row
}

/** A list as the viewer may see it, or undefined. `lock` holds its row for the rest of the transaction. */
export async function findList(db: SqlExecutor, viewerId: string, id: string, lock = false): Promise<ListRow | undefined> {
  const [row] = await selectRows<ListRow>(
    db,
    sql`select ${listColumns(viewerId, undefined, sql`l.created_at`)}
        from lists l join users o on o.id = l.owner_id
        where l.id = ${id} and ${readableBy(viewerId)}
        ${lock ? sql`for no key update of l` : sql``}`,
  )
  return row
}

export async function insertList(
  db: SqlExecutor,
  ownerId: string,
  values: { name: string; description: string; isPrivate: boolean },
): Promise<string> {
  const id = uuidv7()
  await db.execute(
    sql`insert into lists (id, owner_id, name, description, is_private)
        values (${id}, ${ownerId}, ${values.name}, ${values.description}, ${values.isPrivate})`,
  )
  return id
}

/**
 * Changes the fields given of the owner's list (its row is locked by the caller). A list turning private loses its
 * subscribers in the same transaction: nobody but its owner may read it any more.
 */
export async function updateList(
  tx: SqlExecutor,
  id: string,
  values: { name?: string; description?: string; isPrivate?: boolean },
): Promise<void> {
  const sets = [
    values.name !== undefined ? sql`name = ${values.name}` : undefined,
    values.description !== undefined ? sql`description = ${values.description}` : undefined,
    values.isPrivate !== undefined ? sql`is_private = ${values.isPrivate}` : undefined,
  ].filter((s) => s !== undefined)
  if (sets.length > 0) await tx.execute(sql`update lists set ${sql.join(sets, sql`, `)} where id = ${id}`)
  if (values.isPrivate === true) await tx.execute(sql`delete from list_subscriptions where list_id = ${id}`)
}

export async function deleteList(tx: SqlExecutor, id: string): Promise<void> {
  await tx.execute(sql`delete from lists where id = ${id}`)
}

export type ListScope = 'all' | 'owned' | 'subscribed'

/**
 * One page of the viewer's lists: those they own (positioned at creation) and those they subscribe to (positioned
 * at subscription, and only while they may still read them), most recent first; keyset on (position, list id).
 * With `memberId`, each list says whether that member is on it (a profile's "Add to list").
 */
export function listPage(
  db: SqlExecutor,
  viewerId: string,
  scope: ListScope,
  memberId: string | undefined,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<ListRow[]> {
  const owned = sql`select l.id as list_id, l.created_at as ts from lists l where l.owner_id = ${viewerId}`
  const subscribed = sql`select s.list_id, s.created_at as ts
    from list_subscriptions s join lists l on l.id = s.list_id
    where s.user_id = ${viewerId} and l.owner_id <> ${viewerId} and ${readableBy(viewerId)}`
  const keys = scope === 'owned' ? owned : scope === 'subscribed' ? subscribed : sql`${owned} union all ${subscribed}`
  return selectRows<ListRow>(
    db,
    sql`select ${listColumns(viewerId, memberId, sql`k.ts`)}
        from (${keys}) k join lists l on l.id = k.list_id join users o on o.id = l.owner_id
        ${cursor ? sql`where (k.ts, k.list_id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by k.ts desc, k.list_id desc
        offset ${offset} limit ${limit}`,
  )
}

export interface MemberRow {
  id: string
  username: string
  display_name: string
  avatar: string | null
  verified: boolean
  at: string
}

/**
 * One page of a list's members, most recently added first; keyset on (time added, member id). Members on the other
 * side of a block from the viewer are left out, as they are from every list of people.
 */
export function memberPage(
  db: SqlExecutor,
  viewerId: string,
  listId: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<MemberRow[]> {
  return selectRows<MemberRow>(
    db,
    sql`select u.id, u.username, u.display_name, u.avatar, u.verified, ${micros(sql`m.created_at`)} as at
        from list_members m join users u on u.id = m.user_id
        where m.list_id = ${listId} and not ${blockedBetween(sql`m.user_id`, viewerId)}
          ${cursor ? sql`and (m.created_at, m.user_id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by m.created_at desc, m.user_id desc
        offset ${offset} limit ${limit}`,
  )
}

/** Whether the member exists and neither they nor the owner blocked the other. */
export async function isAddable(db: SqlExecutor, ownerId: string, userId: string): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`select u.id from users u where u.id = ${userId} and not ${blockedBetween(sql`u.id`, ownerId)}`,
  )
  return rows.length > 0
}

/** Adds a member; false when they were already on the list (the primary key decides). */
export async function insertMember(tx: SqlExecutor, listId: string, userId: string): Promise<boolean> {
  const rows = await selectRows<{ user_id: string }>(
    tx,
    sql`insert into list_members (list_id, user_id) values (${listId}, ${userId})
        on conflict do nothing returning user_id`,
  )
  return rows.length > 0
}

/** Removes a member; false when they were not on the list. */
export async function deleteMember(tx: SqlExecutor, listId: string, userId: string): Promise<boolean> {
  const rows = await selectRows<{ user_id: string }>(
    tx,
    sql`delete from list_members where list_id = ${listId} and user_id = ${userId} returning user_id`,
  )
  return rows.length > 0
}

/** Subscribes or unsubscribes; idempotent. The new state's subscriber count, after the trigger moved it. */
export async function setSubscription(tx: SqlExecutor, listId: string, userId: string, on: boolean): Promise<number> {
  await tx.execute(
    on
      ? sql`insert into list_subscriptions (list_id, user_id) values (${listId}, ${userId}) on conflict do nothing`
      : sql`delete from list_subscriptions where list_id = ${listId} and user_id = ${userId}`,
  )
  const [row] = await selectRows<{ subscriber_count: number }>(tx, sql`select subscriber_count from lists where id = ${listId}`)
  return row?.subscriber_count ?? 0
}

/**
 * A block between two members (blocks/queries.ts, in its transaction): each leaves the other's lists and stops
 * subscribing to them, so nothing of either reaches the other through a list. Returns the lists that lost a member.
 */
export async function separateInLists(tx: SqlExecutor, a: string, b: string): Promise<string[]> {
  const changed = await selectRows<{ list_id: string }>(
    tx,
    sql`delete from list_members m using lists l
        where l.id = m.list_id and ((l.owner_id = ${a} and m.user_id = ${b}) or (l.owner_id = ${b} and m.user_id = ${a}))
        returning m.list_id`,
  )
  await tx.execute(
    sql`delete from list_subscriptions s using lists l
        where l.id = s.list_id and ((l.owner_id = ${a} and s.user_id = ${b}) or (l.owner_id = ${b} and s.user_id = ${a}))`,
  )
  return changed.map((r) => r.list_id)
}
