import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectPrepared } from '../../db/prepared'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime } from '../../lib/cursor'
import { countOnDay, uncountReply, addDailyViews } from '../analytics/daily-stats'
import type { NewPostMedia, Visibility } from '../../db/schema-posts'
import { cardWithAuthorColumns, type CardWithAuthor } from './card-queries'
import { blockedBetween, listedFor, mutedNoticeOf, visibleToAlias } from '../visibility/visibility'

/** The parts of a post that rules look at (reply targets, like and repost targets, deletion). */
export interface PostRef {
  id: string
  authorId: string
  visibility: Visibility
  replyTo: string | null
}

interface PostRefRow {
  id: string
  author_id: string
  visibility: Visibility
  reply_to: string | null
}

const toRef = (row: PostRefRow): PostRef => ({
  id: row.id,
  authorId: row.author_id,
  visibility: row.visibility,
  replyTo: row.reply_to,
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Ids are opaque to clients; anything that is not one of ours cannot name a post (and must not reach a uuid cast). */
export const isPostId = (id: string) => UUID.test(id)

const lockClauses = {
  none: sql``,
  // Counter updates (likes, reposts, replies): one at a time per post, and a deletion waits for them.
  'no-key-update': sql`for no key update of p`,
  // Deletion: nothing else may touch the row until the transaction ends.
  update: sql`for update of p`,
} as const

/**
 * The post if it exists and the viewer may see it, optionally locking its row (inside a transaction). Every write
 * that touches a post's row locks it first with one of these, so no transaction ever upgrades a weaker lock it
 * already holds (the usual cause of deadlocks).
 */
export async function findVisiblePost(
  db: SqlExecutor,
  viewerId: string,
  postId: string,
  lock: keyof typeof lockClauses = 'none',
): Promise<PostRef | undefined> {
  if (!isPostId(postId)) return undefined
  const [row] = await selectRows<PostRefRow>(
    db,
    sql`select p.id, p.author_id, p.visibility, p.reply_to from posts p
        where p.id = ${postId} and ${visibleToAlias(viewerId, 'p')}
        ${lockClauses[lock]}`,
  )
  return row && toRef(row)
}

// ---- creation ---------------------------------------------------------------------------------------------------

export interface NewPost {
  id: string
  authorId: string
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitiveReason: string | null
  replyTo: PostRef | null
  /** The public post it quotes (posts/quotes.ts checked the author may quote it). */
  quoteOf?: PostRef | null
  /** The first link, normalized (link-previews/url.ts): what the card will preview. */
  linkUrl?: string | null
}

/**
 * Members named in a post who accept being mentioned by its author (their `allowMentions`), by username
 * case-insensitively. A mention they refuse stays in the text but is not recorded: no notification, and no access
 * to a `mentioned` post. Nor is a mention across a block, either way.
 */
export async function findMentionable(db: SqlExecutor, authorId: string, usernames: string[]): Promise<string[]> {
  if (usernames.length === 0) return []
  const names = sql.join(
    usernames.map((u) => sql`${u.toLowerCase()}`),
    sql`, `,
  )
  const rows = await selectRows<{ id: string }>(
    db,
    sql`select u.id from users u
        where lower(u.username) in (${names})
          and (u.id = ${authorId} or not ${blockedBetween(sql`u.id`, authorId)})
          and (u.id = ${authorId}
            or u.allow_mentions = 'everyone'
            or (u.allow_mentions = 'following'
                and exists (select 1 from follows f where f.follower_id = u.id and f.followee_id = ${authorId})))`,
  )
  return rows.map((r) => r.id)
}

/**
 * Inserts a post with its media, mentions and hashtags and updates the counters it changes, in the caller's
 * transaction. For a public reply the parent's counter is updated *before* the reply row is inserted: the update
 * takes the parent's row lock first, so a concurrent deletion of the parent either finished (0 rows: the parent is
 * gone) or waits for us; inserting first would take a weaker lock and upgrade it later, which can deadlock.
 */
export async function insertPost(
  tx: Database,
  post: NewPost,
  media: NewPostMedia[],
  mentionIds: string[],
  hashtags: string[],
): Promise<'created' | 'parent-gone' | 'quoted-gone'> {
  const parent = post.replyTo
  const quoted = post.quoteOf ?? null
  if (parent) {
    const counter = post.visibility === 'public' ? sql`reply_count = reply_count + 1` : sql`reply_count = reply_count`
    const updated = await selectRows<{ id: string }>(
      tx,
      sql`update posts set ${counter} where id = ${parent.id} returning id`,
    )
    if (updated.length === 0) return 'parent-gone'
    // The parent's analytics (server/modules/analytics/daily-stats.ts), after its row lock taken just above.
    if (post.visibility === 'public') await countOnDay(tx, 'replies', parent.id, 'now', 1)
  }
  // The quoted post's row lock, taken the same way: a deletion of it either finished or waits for this quote.
  if (quoted) {
    const counter = post.visibility === 'public' ? sql`quote_count = quote_count + 1` : sql`quote_count = quote_count`
    const updated = await selectRows<{ id: string }>(tx, sql`update posts set ${counter} where id = ${quoted.id} returning id`)
    if (updated.length === 0) return 'quoted-gone'
  }
  await insertPostRows(tx, post, media, mentionIds, hashtags)
  // The block check before this transaction can be overtaken by a block committing in between. A block holds both
  // members' rows while it runs (lockPair), and insertPostRows waited for the author's row, so this statement sees
  // any block that won the race; a block that comes later waits for this reply, which then predates it.
  if (parent && parent.authorId !== post.authorId) {
    const [wall] = await selectRows<{ blocked: boolean }>(
      tx,
      sql`select ${blockedBetween(post.authorId, parent.authorId)} as blocked`,
    )
    if (wall?.blocked) return 'parent-gone'
  }
  if (quoted && quoted.authorId !== post.authorId) {
    const [wall] = await selectRows<{ blocked: boolean }>(
      tx,
      sql`select ${blockedBetween(post.authorId, quoted.authorId)} as blocked`,
    )
    if (wall?.blocked) return 'quoted-gone'
  }
  return 'created'
}

/** The name of insertPostRows' prepared statement. */
export const INSERT_POST_ROWS = 'wren_insert_post_rows_v1'

/**
 * The post's own rows in one statement: the author's post count, the post, its media, mentions and hashtags (whose
 * triggers count the tags at the end of the statement, seeing the post). Alone it needs no transaction around it; in
 * one, it adds a single round trip. The author's row is updated first (the insert reads from it), the order every
 * write touching a member's row and their tags' counters takes (a privacy change: the member, then the tags).
 * Throws when the author no longer exists (nothing is written then).
 */
export async function insertPostRows(
  db: Database,
  post: NewPost,
  media: readonly NewPostMedia[],
  mentionIds: readonly string[],
  hashtags: readonly string[],
): Promise<void> {
  const files = media.map((m) => ({
    id: m.id ?? uuidv7(),
    position: m.position,
    kind: m.kind,
    storage_key: m.storageKey,
    thumbnail_key: m.thumbnailKey ?? null,
    mime: m.mime,
    width: m.width ?? null,
    height: m.height ?? null,
    size_bytes: m.sizeBytes,
    alt: m.alt ?? null,
  }))
  // Named: one text whatever the post holds (arrays and JSON in parameters), planned once per connection.
  const rows = await selectPrepared<{ id: string }>(
    db,
    INSERT_POST_ROWS,
    sql`with author as (
          update users set posts_count = posts_count + 1 where id = ${post.authorId} returning id
        ),
        post as (
          insert into posts (id, author_id, content, visibility, sensitive, sensitive_reason, reply_to,
                             reply_to_author_id, media_count, link_url, quote_of)
          select ${post.id}::uuid, author.id, ${post.content}, ${post.visibility}, ${post.sensitive},
                 ${post.sensitiveReason}, ${post.replyTo?.id ?? null}::uuid, ${post.replyTo?.authorId ?? null}::uuid,
                 ${files.length}, ${post.linkUrl ?? null}, ${post.quoteOf?.id ?? null}::uuid
          from author
          returning id
        ),
        files as (
          insert into post_media (id, post_id, position, kind, storage_key, thumbnail_key, mime, width, height,
                                  size_bytes, alt)
          select f.id, post.id, f.position, f.kind, f.storage_key, f.thumbnail_key, f.mime, f.width, f.height,
                 f.size_bytes, f.alt
          from post, jsonb_to_recordset(${JSON.stringify(files)}::jsonb) as f(id uuid, position smallint, kind text,
            storage_key text, thumbnail_key text, mime text, width integer, height integer, size_bytes integer, alt text)
        ),
        mentioned as (
          insert into post_mentions (post_id, user_id) select post.id, m from post, unnest(${sql.param([...mentionIds])}::uuid[]) m
        ),
        tagged as (
          insert into post_hashtags (post_id, tag) select post.id, t from post, unnest(${sql.param([...hashtags])}::text[]) t
        )
        select id from post`,
  )
  if (rows.length !== 1) throw new Error(`author ${post.authorId} is gone`)
}

// ---- reading ----------------------------------------------------------------------------------------------------

/**
 * One post as a viewer sees it, before presentation (server/modules/posts/present.ts): its `reply_count` already
 * counts the non-public replies this viewer may see.
 */
export type PostViewRow = CardWithAuthor & { liked: boolean; reposted: boolean }

/**
 * Everything a post card shows, for the given ids, in one statement. The app reads cards through its caches
 * (cache/post-caches.ts, which split this into a viewer-independent card and the viewer's flags); this single
 * statement remains what the benchmark's raw-SQL rows measure. `reply_count` adds the viewer-visible
 * non-public replies to the stored count of public ones (schema-posts.ts explains why). Callers have already
 * applied visibility to the ids; it is not repeated here.
 */
export async function hydratePosts(db: Database, viewerId: string, ids: readonly string[]): Promise<Map<string, PostViewRow>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  // One array parameter and a name: one statement text for any number of ids, planned once per connection.
  const rows = await selectPrepared<PostViewRow>(
    db,
    'wren_hydrate_posts_v6',
    sql`select ${cardWithAuthorColumns(
          sql`(p.reply_count + (select count(*) from posts c
             where c.reply_to = p.id and c.visibility <> 'public' and ${visibleToAlias(viewerId, 'c')}))::int`,
        )},
          exists (select 1 from likes l where l.user_id = ${viewerId} and l.post_id = p.id) as liked,
          exists (select 1 from reposts r where r.user_id = ${viewerId} and r.post_id = p.id) as reposted
        from posts p join users u on u.id = p.author_id
        where p.id = any(${sql.param(unique)}::uuid[])`,
  )
  return new Map(rows.map((row) => [row.id, row]))
}

export interface KeyRow {
  post_id: string
  /** The position of the item in its list, as cursor microseconds (lib/cursor.ts). */
  at: string
}

/**
 * A post's direct replies visible and listed to the viewer (not hidden by their blocked keywords or domains), oldest first, after `after` (exclusive). `limit` should be one more
 * than the page size so the caller knows whether a next page exists.
 */
export async function replyKeys(
  db: SqlExecutor,
  viewerId: string,
  postId: string,
  after: SQL | undefined,
  offset: number,
  limit: number,
): Promise<KeyRow[]> {
  return selectRows<KeyRow>(
    db,
    sql`select c.id as post_id, ((extract(epoch from c.created_at) * 1000000)::bigint)::text as at
        from posts c
        where c.reply_to = ${postId} and ${visibleToAlias(viewerId, 'c')} and ${listedFor(viewerId, 'c')}
          ${after ? sql`and (c.created_at, c.id) > ${after}` : sql``}
        order by c.created_at, c.id
        offset ${offset} limit ${limit}`,
  )
}

export interface PostPage {
  post: PostRef
  /** The notice the viewer's mutes put on the post (mutedNotices), or null. */
  muted: string | null
  /** One page of its direct replies as replyKeys lists them, each with the viewer's mute notice. */
  replies: Array<KeyRow & { muted: string | null }>
}

interface PostPageRow extends PostRefRow {
  muted: string | null
  reply_id: string | null
  reply_at: string | null
  reply_muted: string | null
}

/** Below every post: a post page's first page of replies uses the same statement (and plan) as the next ones. */
const BOTTOM: Cursor = { at: '-9000000000000000', id: '00000000-0000-0000-0000-000000000000' }

/**
 * A post page's reads in one statement: the post if the viewer may see it (`findVisiblePost`), one page of its direct
 * replies (`replyKeys`: visible and listed to the viewer, oldest first, strictly after `cursor`) and the notices the
 * viewer's mutes put on both (`mutedNotices`); undefined if there is no such post for the viewer. Same predicates as
 * those three, so the same answers; one round trip and one snapshot instead of three. A named prepared statement
 * (db/prepared.ts): it is on every post page.
 */
export async function findPostPage(
  db: Database,
  viewerId: string,
  postId: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<PostPage | undefined> {
  if (!isPostId(postId)) return undefined
  const after = cursor ?? BOTTOM
  const rows = await selectPrepared<PostPageRow>(
    db,
    'wren_post_page_v1',
    sql`select t.id, t.author_id, t.visibility, t.reply_to, t.muted,
          r.post_id as reply_id, r.at as reply_at, r.muted as reply_muted
        from (select p.id, p.author_id, p.visibility, p.reply_to, ${mutedNoticeOf(viewerId, 'p')} as muted
              from posts p
              where p.id = ${postId}::uuid and ${visibleToAlias(viewerId, 'p')}) t
        left join lateral (
          select c.id as post_id, ((extract(epoch from c.created_at) * 1000000)::bigint)::text as at,
            c.created_at as ts, ${mutedNoticeOf(viewerId, 'c')} as muted
          from posts c
          where c.reply_to = t.id and ${visibleToAlias(viewerId, 'c')} and ${listedFor(viewerId, 'c')}
            and (c.created_at, c.id) > (${cursorTime(after)}, ${after.id}::uuid)
          order by c.created_at, c.id
          offset ${offset} limit ${limit}) r on true
        order by r.ts, r.post_id`,
  )
  const [first] = rows
  if (!first) return undefined
  return {
    post: toRef(first),
    muted: first.muted,
    replies: rows.flatMap((r) =>
      r.reply_id === null || r.reply_at === null ? [] : [{ post_id: r.reply_id, at: r.reply_at, muted: r.reply_muted }],
    ),
  }
}

/**
 * For the posts of one post page (the post and a page of its replies): the notice the viewer's mutes put on each,
 * by post id (`@username`, a keyword or a domain; visibility/visibility.ts, `mutedNoticeOf`). Posts no mute concerns are
 * absent. Read per viewer at request time, never cached with the cards, which every viewer shares.
 */
export async function mutedNotices(db: SqlExecutor, viewerId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await selectRows<{ id: string; muted: string | null }>(
    db,
    sql`select n.id, n.muted from (
          select p.id, ${mutedNoticeOf(viewerId, 'p')} as muted from posts p
          where p.id in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})) n
        where n.muted is not null`,
  )
  return new Map(rows.flatMap((r) => (r.muted === null ? [] : [[r.id, r.muted] as const])))
}

// ---- deletion ---------------------------------------------------------------------------------------------------

interface ThreadRow {
  id: string
}

const subtreeOf = (rootId: string) => sql`
  with recursive thread as (
    select id from posts where reply_to = ${rootId}
    union all
    select p.id from posts p join thread t on p.reply_to = t.id
  )`

/**
 * Locks the post and every reply beneath it (replies of replies too). New replies to a locked post wait and then
 * find their parent gone; one that committed between reading the thread and locking it is caught by reading the
 * thread again, until nothing new appears.
 */
async function lockThread(tx: Database, rootId: string): Promise<string[]> {
  const locked = new Set<string>([rootId])
  for (let round = 0; round < 50; round += 1) {
    const rows = await selectRows<ThreadRow>(
      tx,
      sql`${subtreeOf(rootId)} select p.id from posts p where p.id in (select id from thread) for update of p`,
    )
    const before = locked.size
    for (const row of rows) locked.add(row.id)
    if (locked.size === before) return [...locked]
  }
  throw new Error(`The thread under ${rootId} kept growing while it was being deleted`)
}

export interface DeletedThread {
  /** Storage keys of every file of the deleted posts, to remove once the transaction has committed. */
  storageKeys: string[]
  /** The root and every reply beneath it. */
  postIds: string[]
  /** Posts that lost a public quote among them (their quote_count changed). */
  quotedIds: string[]
}

/**
 * Deletes a post and the thread beneath it, fixing the counters they contributed to: each author's posts_count and
 * the parent's reply_count (replies inside the thread disappear with their parents). The rows of likes, reposts,
 * media, mentions and hashtags go by cascade. The caller has locked the root (findVisiblePost with lock).
 */
export async function deleteThread(tx: Database, root: PostRef): Promise<DeletedThread> {
  const ids = await lockThread(tx, root.id)
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )
  const media = await selectRows<{ storage_key: string; thumbnail_key: string | null }>(
    tx,
    sql`select storage_key, thumbnail_key from post_media where post_id in (${list})`,
  )
  await tx.execute(sql`
    update users u set posts_count = greatest(0, u.posts_count - d.n)
    from (select author_id, count(*)::int as n from posts where id in (${list}) group by author_id) d
    where u.id = d.author_id`)
  // Public attached quotes among them no longer count on the posts they quote.
  const quoted = await selectRows<{ id: string }>(
    tx,
    sql`update posts q set quote_count = greatest(0, q.quote_count - d.n)
        from (select quote_of, count(*)::int as n from posts
              where id in (${list}) and quote_of is not null and visibility = 'public' and quote_detached_at is null
              group by quote_of) d
        where q.id = d.quote_of and q.id not in (${list})
        returning q.id`,
  )
  if (root.replyTo && root.visibility === 'public') {
    await tx.execute(sql`update posts set reply_count = greatest(0, reply_count - 1) where id = ${root.replyTo}`)
    await uncountReply(tx, root.id, root.replyTo)
  }
  await tx.execute(sql`delete from posts where id = ${root.id}`)
  return {
    storageKeys: media.flatMap((m) => (m.thumbnail_key ? [m.storage_key, m.thumbnail_key] : [m.storage_key])),
    postIds: ids,
    quotedIds: quoted.map((q) => q.id),
  }
}

// ---- views ------------------------------------------------------------------------------------------------------

/** Adds batched view counts: to the posts' totals, then to today's analytics. */
export async function addViews(db: SqlExecutor, counts: ReadonlyMap<string, number>): Promise<void> {
  if (counts.size === 0) return
  const values = sql.join(
    [...counts].map(([id, n]) => sql`(${id}::uuid, ${n}::int)`),
    sql`, `,
  )
  await db.execute(sql`
    update posts p set view_count = p.view_count + v.n
    from (values ${values}) as v(id, n)
    where p.id = v.id`)
  // Today's views per post for analytics: a statement of its own (no transaction), so the flush never holds a post's
  // row and a day's row at once.
  await addDailyViews(db, counts)
}
