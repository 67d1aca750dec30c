import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectPrepared } from '../../db/prepared'
import type { Visibility } from '../../db/schema-posts'
import { visibleToAlias } from '../visibility/visibility'

/**
 * The reads behind the post caches (posts/cache/*), each a named prepared statement taking its ids as one
 * `uuid[]` parameter: one statement text whatever the number of ids, so PostgreSQL plans it once per connection
 * (an `in ($1, ..., $20)` list is a new statement, planned again, for every length).
 */

/** A member as a post card shows them (users' own columns, snake_case as selected). */
export interface UserSummaryRow {
  id: string
  username: string
  display_name: string
  avatar: string | null
  verified: boolean
}

export interface MediaJson {
  id: string
  kind: 'image' | 'video'
  storageKey: string
  thumbnailKey: string | null
  alt: string | null
  width: number | null
  height: number | null
}

/** A link preview as the card query reads it (link_previews, only once a read succeeded). */
export interface LinkPreviewJson {
  url: string
  title: string
  description: string | null
  siteName: string | null
  imageKey: string | null
}

/** A poll as the card query reads it (polls, poll_options): the counts every viewer sees alike. */
export interface PollJson {
  multiple: boolean
  closesAt: string
  votersCount: number
  options: Array<{ id: string; text: string; votes: number }>
}

/** What every viewer sees alike of a post: everything on its card but the viewer's own flags. */
export interface PostCard {
  id: string
  author_id: string
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitive_reason: string | null
  reply_to: string | null
  created_at: Date | string
  edited_at: Date | string | null
  like_count: number
  repost_count: number
  /** Public direct replies only; each viewer adds the non-public ones they may see (ViewerFlags.hidden_replies). */
  reply_count: number
  view_count: number
  media: MediaJson[] | null
  mentions: string[]
  hashtags: string[]
  link_preview: LinkPreviewJson | null
  /** The post this one quotes, even once deleted (the card then shows it unavailable). */
  quote_of: string | null
  /** Its author detached it: unavailable to everyone, for good. */
  quote_detached: boolean
  quote_count: number
  poll: PollJson | null
}

/** A card with its author's summary, as one read returns both (the author cache is filled from it). */
export type CardWithAuthor = PostCard & Omit<UserSummaryRow, 'id'>

/**
 * The columns of a `CardWithAuthor`, read from posts `p` joined with their authors `u`. Only `reply_count` differs
 * between the reads, so it is given: the stored count of public replies, or that plus those one viewer may see.
 */
export function cardWithAuthorColumns(replyCount: SQL): SQL {
  return sql`p.id, p.author_id, u.username, u.display_name, u.avatar, u.verified,
          p.content, p.visibility, p.sensitive, p.sensitive_reason, p.reply_to, p.created_at, p.edited_at,
          p.like_count, p.repost_count, p.view_count, ${replyCount} as reply_count,
          p.quote_of, p.quote_detached_at is not null as quote_detached, p.quote_count,
          case when p.media_count > 0 then (
            select json_agg(json_build_object(
              'id', m.id, 'kind', m.kind, 'storageKey', m.storage_key, 'thumbnailKey', m.thumbnail_key,
              'alt', m.alt, 'width', m.width, 'height', m.height) order by m.position)
            from post_media m where m.post_id = p.id) end as media,
          array(select mu.username from post_mentions pm join users mu on mu.id = pm.user_id
                where pm.post_id = p.id order by lower(mu.username)) as mentions,
          array(select h.tag from post_hashtags h where h.post_id = p.id order by h.tag) as hashtags,
          (select json_build_object('url', lp.url, 'title', lp.title, 'description', lp.description,
              'siteName', lp.site_name, 'imageKey', lp.image_key)
           from link_previews lp where lp.url = p.link_url and lp.fetched_at is not null) as link_preview,
          (select json_build_object('multiple', pl.multiple, 'closesAt', pl.closes_at, 'votersCount', pl.voters_count,
              'options', (select json_agg(json_build_object('id', o.id, 'text', o.text, 'votes', o.votes_count)
                                          order by o.position)
                          from poll_options o where o.post_id = pl.post_id))
           from polls pl where pl.post_id = p.id) as poll`
}

const ids = (list: readonly string[]) => sql`${sql.param([...list])}::uuid[]`

export function loadCards(db: Database, postIds: readonly string[]): Promise<CardWithAuthor[]> {
  return selectPrepared<CardWithAuthor>(
    db,
    'wren_post_cards_v3',
    sql`select ${cardWithAuthorColumns(sql`p.reply_count`)}
        from posts p join users u on u.id = p.author_id
        where p.id = any(${ids(postIds)})`,
  )
}

/** One viewer's own state of a post card. */
export interface ViewerFlags {
  liked: boolean
  reposted: boolean
  bookmarked: boolean
  /** Non-public direct replies this viewer may see (added to the card's public reply_count). */
  hidden_replies: number
  /**
   * The post this one quotes exists and the viewer may see it (visibility/visibility.ts: blocks either way, private
   * accounts). Per viewer, so the shared card never decides it; false when the post quotes nothing.
   */
  quote_visible: boolean
  /** The poll options this viewer chose (empty: no poll, or not voted). */
  poll_choices: string[]
}

export function loadViewerFlags(
  db: Database,
  viewerId: string,
  postIds: readonly string[],
): Promise<Array<ViewerFlags & { id: string }>> {
  return selectPrepared(
    db,
    'wren_viewer_flags_v5',
    sql`select p.id,
          exists (select 1 from likes l where l.user_id = ${viewerId} and l.post_id = p.id) as liked,
          exists (select 1 from reposts r where r.user_id = ${viewerId} and r.post_id = p.id) as reposted,
          exists (select 1 from bookmarks bm where bm.user_id = ${viewerId} and bm.post_id = p.id) as bookmarked,
          (select count(*) from posts c
           where c.reply_to = p.id and c.visibility <> 'public' and ${visibleToAlias(viewerId, 'c')})::int
            as hidden_replies,
          exists (select 1 from posts qp join posts q on q.id = qp.quote_of
                  where qp.id = p.id and ${visibleToAlias(viewerId, 'q')}) as quote_visible,
          array(select v.option_id from poll_votes v where v.post_id = p.id and v.user_id = ${viewerId}) as poll_choices
        from unnest(${ids(postIds)}) as p(id)`,
  )
}

export function loadUserSummaries(db: Database, userIds: readonly string[]): Promise<UserSummaryRow[]> {
  return selectPrepared<UserSummaryRow>(
    db,
    'wren_user_summaries_v1',
    sql`select id, username, display_name, avatar, verified from users where id = any(${ids(userIds)})`,
  )
}

/** Who is on a list (the list timeline cache indexes a cached list timeline by them, like a feed by followees). */
export async function loadListMemberIds(db: Database, listId: string): Promise<string[]> {
  const rows = await selectPrepared<{ id: string }>(
    db,
    'wren_list_member_ids_v1',
    sql`select user_id as id from list_members where list_id = ${listId}`,
  )
  return rows.map((r) => r.id)
}

/** Whom a member follows (the timeline cache indexes a cached feed by them, to know whose posts change it). */
export async function loadFolloweeIds(db: Database, followerId: string): Promise<string[]> {
  const rows = await selectPrepared<{ id: string }>(
    db,
    'wren_followee_ids_v1',
    sql`select followee_id as id from follows where follower_id = ${followerId}`,
  )
  return rows.map((r) => r.id)
}
