/**
 * The tables the seed fills, with the columns it writes and their SQL types (for `unnest($n::type[])` casts).
 * Columns left out keep their defaults (avatar, banner, edited_at, media_count...). No media rows are seeded: they
 * would point at files that do not exist.
 */

export type ColumnType = 'uuid' | 'text' | 'timestamptz' | 'int' | 'bool'

export interface TableSpec {
  name: string
  columns: ReadonlyArray<readonly [name: string, type: ColumnType]>
}

export const usersTable: TableSpec = {
  name: 'users',
  columns: [
    ['id', 'uuid'],
    ['username', 'text'],
    ['email', 'text'],
    ['display_name', 'text'],
    ['password_hash', 'text'],
    ['bio', 'text'],
    ['verified', 'bool'],
    ['private_account', 'bool'],
    ['followers_count', 'int'],
    ['following_count', 'int'],
    ['posts_count', 'int'],
    ['created_at', 'timestamptz'],
    ['updated_at', 'timestamptz'],
    // Made-up addresses nobody can receive mail at: counted as confirmed, like accounts older than verification.
    ['email_verified_at', 'timestamptz'],
  ],
}

export const followsTable: TableSpec = {
  name: 'follows',
  columns: [
    ['follower_id', 'uuid'],
    ['followee_id', 'uuid'],
    ['created_at', 'timestamptz'],
  ],
}

export const postsTable: TableSpec = {
  name: 'posts',
  columns: [
    ['id', 'uuid'],
    ['author_id', 'uuid'],
    ['content', 'text'],
    ['visibility', 'text'],
    ['sensitive', 'bool'],
    ['sensitive_reason', 'text'],
    ['reply_to', 'uuid'],
    ['reply_to_author_id', 'uuid'],
    ['created_at', 'timestamptz'],
    ['like_count', 'int'],
    ['repost_count', 'int'],
    ['reply_count', 'int'],
    ['view_count', 'int'],
  ],
}

export const hashtagsTable: TableSpec = {
  name: 'post_hashtags',
  columns: [
    ['post_id', 'uuid'],
    ['tag', 'text'],
  ],
}

export const mentionsTable: TableSpec = {
  name: 'post_mentions',
  columns: [
    ['post_id', 'uuid'],
    ['user_id', 'uuid'],
  ],
}

export const likesTable: TableSpec = {
  name: 'likes',
  columns: [
    ['user_id', 'uuid'],
    ['post_id', 'uuid'],
    ['created_at', 'timestamptz'],
  ],
}

export const repostsTable: TableSpec = { name: 'reposts', columns: likesTable.columns }

/** Emptied by --reset (sessions and media go too: they belong to the members and posts being replaced). */
export const resetTables = [
  'users',
  'sessions',
  'follows',
  'posts',
  'post_media',
  'post_hashtags',
  // Its counts follow post_hashtags (row triggers, which TRUNCATE does not fire): emptied with it, or a reset seed
  // would add its counts to the old ones.
  'hashtags',
  'post_mentions',
  'likes',
  'reposts',
] as const

/** Tables big enough for dropping and rebuilding their indexes and constraints around the load to pay. */
export const bulkTables = ['follows', 'posts', 'post_hashtags', 'post_mentions', 'likes', 'reposts', 'post_daily_stats'] as const
