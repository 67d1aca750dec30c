import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'

/** Who may see a post (the contract's `Visibility`); the rule itself is server/modules/visibility/visibility.ts. */
export const visibilities = ['public', 'followers', 'mentioned'] as const
export type Visibility = (typeof visibilities)[number]

export const mediaKinds = ['image', 'video'] as const
export type MediaKind = (typeof mediaKinds)[number]

/** PostgreSQL's full-text document type; only the database reads it (posts/search-queries.ts). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/**
 * Posts and replies.
 *
 * `reply_to` cascades: deleting a post deletes the thread beneath it. A reply means nothing without its parent and the
 * contract has no tombstone to show in its place; SET NULL would turn replies into originals that read out of
 * context. deletePost walks the subtree itself first (posts_count of every author, media files), so the cascade only
 * ever removes rows already accounted for; it is what keeps a future account deletion from being blocked by replies.
 *
 * `reply_to_author_id` is the parent's author, copied at creation (it never changes): the feed shows a reply when its
 * parent's author is the viewer or someone they follow, and that test must not need a join per candidate row.
 *
 * Counters are denormalised so a card costs one row:
 * - like_count / repost_count: exact, changed in the same transaction as the likes / reposts row;
 * - reply_count: direct replies that are *public*. Replies with narrower visibility are counted per viewer at read
 *   time (a partial index keeps that to an index probe), so a count never reveals a reply the viewer may not see;
 * - view_count: approximate by nature, flushed in batches (server/modules/posts/views.ts).
 * users.posts_count counts every post of the member, replies included.
 *
 * Indexes are ascending and read backwards for "newest first" (a plain `order by created_at desc, id desc` matches a
 * backward scan; drizzle's `.desc()` would write DESC NULLS LAST, which that order by cannot use).
 */
export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Kept exactly as typed: the SPA renders mentions, hashtags and links from it (as text, never as HTML).
    content: text('content').notNull().default(''),
    visibility: text('visibility').$type<Visibility>().notNull().default('public'),
    sensitive: boolean('sensitive').notNull().default(false),
    sensitiveReason: text('sensitive_reason'),
    replyTo: uuid('reply_to').references((): AnyPgColumn => posts.id, { onDelete: 'cascade' }),
    replyToAuthorId: uuid('reply_to_author_id').references(() => users.id, { onDelete: 'cascade' }),
    // 0..4; lets the Media tab use a partial index instead of probing post_media for every post.
    mediaCount: smallint('media_count').notNull().default(0),
    // The post this one quotes (only a public one, posts/quotes.ts). No foreign key: a quote outlives the post it
    // quotes and then shows "This post is unavailable", which a cascade or SET NULL would erase.
    quoteOf: uuid('quote_of'),
    // Set once when the quoted post's author detaches their post from this quote; never cleared.
    quoteDetachedAt: timestamp('quote_detached_at', { withTimezone: true }),
    // The first http(s) link of the content, normalized (server/modules/link-previews/url.ts): its card shows that
    // URL's row of link_previews once the server has read the page.
    linkUrl: text('link_url'),
    createdAt: createdAt(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    likeCount: integer('like_count').notNull().default(0),
    repostCount: integer('repost_count').notNull().default(0),
    replyCount: integer('reply_count').notNull().default(0),
    viewCount: integer('view_count').notNull().default(0),
    // Public quotes still attached: exact, changed in the transaction that creates, deletes or detaches a quote.
    quoteCount: integer('quote_count').notNull().default(0),
    // Post search: the text as English stems ('jumps' and 'jumping' are one word), kept by the database itself.
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('english'::regconfig, content)`),
  },
  (t) => [
    check('posts_visibility_check', sql`${t.visibility} in ('public', 'followers', 'mentioned')`),
    check('posts_media_count_check', sql`${t.mediaCount} between 0 and 4`),
    check(
      'posts_counters_check',
      sql`${t.likeCount} >= 0 and ${t.repostCount} >= 0 and ${t.replyCount} >= 0 and ${t.viewCount} >= 0`,
    ),
    check('posts_quote_count_check', sql`${t.quoteCount} >= 0`),
    check('posts_reply_author_check', sql`(${t.replyTo} is null) = (${t.replyToAuthorId} is null)`),
    // Profile tabs and the per-followee feed scan: one author's posts, newest first.
    index('posts_author_created_idx').on(t.authorId, t.createdAt, t.id),
    // The feed of a member following many accounts walks all posts newest first (see posts/feed-queries.ts).
    index('posts_created_idx').on(t.createdAt, t.id),
    // Explore (posts/explore-queries.ts): public top-level posts newest first, without walking replies and
    // restricted posts.
    index('posts_public_created_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.visibility} = 'public' and ${t.replyTo} is null`),
    // Replies tab and Media tab: only the rows they list.
    index('posts_author_replies_idx')
      .on(t.authorId, t.createdAt, t.id)
      .where(sql`${t.replyTo} is not null`),
    index('posts_author_media_idx')
      .on(t.authorId, t.createdAt, t.id)
      .where(sql`${t.mediaCount} > 0`),
    // A post page's replies, oldest first.
    index('posts_reply_to_idx').on(t.replyTo, t.createdAt, t.id).where(sql`${t.replyTo} is not null`),
    // Non-public replies, counted per viewer on top of reply_count.
    index('posts_reply_to_restricted_idx')
      .on(t.replyTo)
      .where(sql`${t.replyTo} is not null and ${t.visibility} <> 'public'`),
    index('posts_reply_to_author_idx').on(t.replyToAuthorId).where(sql`${t.replyToAuthorId} is not null`),
    // A post's quotes newest first, and the quotes to refresh when the quoted post changes.
    index('posts_quote_of_idx')
      .on(t.quoteOf, t.createdAt, t.id)
      .where(sql`${t.quoteOf} is not null`),
    // Post search (GET /posts/search): which posts contain every word asked for.
    index('posts_search_vector_idx').using('gin', t.searchVector),
    // A profile's post count for a visitor subtracts the author's non-public posts the visitor may not see.
    index('posts_author_restricted_idx').on(t.authorId).where(sql`${t.visibility} <> 'public'`),
  ],
)

/** Up to four files per post, in the order they were attached. Files live in storage under the two keys. */
export const postMedia = pgTable(
  'post_media',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    kind: text('kind').$type<MediaKind>().notNull(),
    storageKey: text('storage_key').notNull(),
    // Images only: videos are stored as uploaded (no transcoder to cut a frame).
    thumbnailKey: text('thumbnail_key'),
    mime: text('mime').notNull(),
    width: integer('width'),
    height: integer('height'),
    sizeBytes: integer('size_bytes').notNull(),
    alt: text('alt'),
  },
  (t) => [
    unique('post_media_post_position_key').on(t.postId, t.position),
    check('post_media_kind_check', sql`${t.kind} in ('image', 'video')`),
    check('post_media_position_check', sql`${t.position} between 0 and 3`),
  ],
)

/** Members mentioned by a post (existing members only); also who may see a `mentioned` post. */
export const postMentions = pgTable(
  'post_mentions',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'post_mentions_pkey', columns: [t.postId, t.userId] }),
    index('post_mentions_user_idx').on(t.userId, t.postId),
  ],
)

/** Hashtags of a post, lowercased and without `#`. */
export const postHashtags = pgTable(
  'post_hashtags',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    tag: text('tag').notNull(),
  },
  (t) => [
    primaryKey({ name: 'post_hashtags_pkey', columns: [t.postId, t.tag] }),
    index('post_hashtags_tag_idx').on(t.tag, t.postId),
  ],
)

/**
 * Every hashtag ever used, with how many posts use it now. Both counts are kept exact by triggers inside the
 * transaction of every change they depend on, so a count can never drift from the rows it counts:
 * - `post_count`: every post using the tag (triggers on post_hashtags, migration 0009);
 * - `public_post_count`: only the posts anyone may see, public posts of public accounts (`visibleToAnyone`): what the
 *   Search screen's Hashtags tab shows and orders by, the same for every member. Triggers on post_hashtags, posts
 *   (deleted, visibility changed) and users (account turned private or public, member deleted), migration 0018.
 */
export const hashtags = pgTable(
  'hashtags',
  {
    // The id only gives the keyset cursor its tiebreaker, as every other list's.
    id: uuid('id').notNull().defaultRandom(),
    tag: text('tag').primaryKey(),
    postCount: integer('post_count').notNull().default(0),
    publicPostCount: integer('public_post_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('hashtags_id_key').on(t.id),
    index('hashtags_tag_pattern_idx').using('btree', sql`${t.tag} text_pattern_ops`),
    check('hashtags_post_count_check', sql`${t.postCount} >= 0`),
    check('hashtags_public_post_count_check', sql`${t.publicPostCount} >= 0`),
  ],
)

/** One like per member and post: the primary key is what makes concurrent toggles exact. */
export const likes = pgTable(
  'likes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'likes_pkey', columns: [t.userId, t.postId] }),
    // The Likes tab, most recent like first.
    index('likes_user_created_idx').on(t.userId, t.createdAt, t.postId),
    // Cascading deletes of a post.
    index('likes_post_idx').on(t.postId),
  ],
)

/** One repost per member and post. */
export const reposts = pgTable(
  'reposts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'reposts_pkey', columns: [t.userId, t.postId] }),
    // A member's reposts newest first: Posts tab and the per-followee feed scan.
    index('reposts_user_created_idx').on(t.userId, t.createdAt, t.postId),
    // "Was this post already reposted earlier by someone the viewer follows?" (a post shows once per feed).
    index('reposts_post_created_idx').on(t.postId, t.createdAt),
    // The feed of a member following many accounts walks all reposts newest first.
    index('reposts_created_idx').on(t.createdAt, t.postId),
  ],
)

export type PostRow = typeof posts.$inferSelect
export type PostMediaRow = typeof postMedia.$inferSelect
export type NewPostMedia = typeof postMedia.$inferInsert

/**
 * The versions of an edited post, each as it read from `created_at` on: its text, audience, sensitive flag and reason,
 * and its media's alt texts in media order (the files themselves never change). The first edit stores the original
 * (at the post's own time) and the new version; each later edit adds its version. A post never edited has none: its
 * history is the post itself. Replies, quotes, likes and reposts point at the post, never at a version.
 */
export const postVersions = pgTable(
  'post_versions',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    visibility: text('visibility').$type<Visibility>().notNull(),
    sensitive: boolean('sensitive').notNull(),
    sensitiveReason: text('sensitive_reason'),
    alts: jsonb('alts').$type<Array<string | null>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // A post's history, newest first (read backwards), and its keyset.
    index('post_versions_post_created_idx').on(t.postId, t.createdAt, t.id),
    check('post_versions_visibility_check', sql`${t.visibility} in ('public', 'followers', 'mentioned')`),
  ],
)
