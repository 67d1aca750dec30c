import { sql } from 'drizzle-orm'
import { boolean, check, index, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'
import { posts } from './schema-posts'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/**
 * A member's saved posts (docs/product.md, "Bookmarks"). One row per member and post; deleting the post deletes the
 * bookmark (and, through collection_posts, its place in every collection). A post that becomes invisible to the member
 * (a block either way, a private account they no longer follow, an audience they left) keeps its row but is left out
 * of every read while it stays invisible (modules/bookmarks/queries.ts).
 */
export const bookmarks = pgTable(
  'bookmarks',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    // One bookmark per member and post (a second is 409), and the per-viewer `bookmarked` flag's probe.
    unique('bookmarks_user_post_key').on(t.userId, t.postId),
    // The list, newest first, and its keyset.
    index('bookmarks_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('bookmarks_post_idx').on(t.postId),
  ],
)

/** Named groups of a member's bookmarks. Only their owner ever reads or changes them. */
export const bookmarkCollections = pgTable(
  'bookmark_collections',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isPrivate: boolean('is_private').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('bookmark_collections_user_created_idx').on(t.userId, t.createdAt, t.id),
    check('bookmark_collections_name_check', sql`char_length(${t.name}) between 1 and 50`),
    check('bookmark_collections_description_check', sql`char_length(${t.description}) <= 200`),
  ],
)

/**
 * Which bookmarks a collection holds. Keyed by the bookmark, so removing a bookmark (or deleting its post) takes it
 * out of every collection by cascade. A collection's postCount is counted from here at read time, over the posts the
 * owner may still see, so it is exact whatever happens at once and always matches the collection's list.
 */
export const collectionPosts = pgTable(
  'collection_posts',
  {
    collectionId: uuid('collection_id')
      .notNull()
      .references(() => bookmarkCollections.id, { onDelete: 'cascade' }),
    bookmarkId: uuid('bookmark_id')
      .notNull()
      .references(() => bookmarks.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.bookmarkId], name: 'collection_posts_pkey' }),
    index('collection_posts_bookmark_idx').on(t.bookmarkId),
  ],
)
