import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import type { KdfSettings } from '../../src/api/contract/kdf'
import { uuidv7 } from './ids'

/** Who may message or mention a member (the contract's `Audience`). */
export const audiences = ['everyone', 'following', 'none'] as const
export type Audience = (typeof audiences)[number]

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    // Stored as typed (shown that way); uniqueness and lookups are on lower() so "Ann" and "ann" are one name.
    username: text('username').notNull(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    // argon2id of what the member's browser sends: the authentication secret it derives with `kdf`, or, for an
    // account not moved over yet (kdf null), the password itself.
    passwordHash: text('password_hash').notNull(),
    // The member's argon2id settings and salt for the browser's derivation (src/api/contract/kdf.ts); null for an
    // account from before the split (migration 0019), which moves over at its next sign-in.
    kdf: jsonb('kdf').$type<KdfSettings>(),
    avatar: text('avatar'),
    banner: text('banner'),
    bio: text('bio').notNull().default(''),
    verified: boolean('verified').notNull().default(false),
    privateAccount: boolean('private_account').notNull().default(false),
    isAdmin: boolean('is_admin').notNull().default(false),
    showSensitiveContent: boolean('show_sensitive_content').notNull().default(false),
    allowDms: text('allow_dms').$type<Audience>().notNull().default('everyone'),
    allowMentions: text('allow_mentions').$type<Audience>().notNull().default('everyone'),
    // Denormalised counters so a profile card costs one row read; kept by the follow/post modules.
    followersCount: integer('followers_count').notNull().default(0),
    followingCount: integer('following_count').notNull().default(0),
    postsCount: integer('posts_count').notNull().default(0),
    // Direct-message keys, made in the browser (docs/security.md). Opaque to the server: the public key as the browser
    // exported it, and the private key wrapped (wk2) under the wrapping key the browser derives from the member's
    // password (wk1, under PBKDF2 of the password, for an account not moved over yet). Both null until the
    // member's browser makes them (accounts from before messaging, seeded accounts).
    publicKey: text('public_key'),
    wrappedPrivateKey: text('wrapped_private_key'),
    // Set by an admin's migrate-keys: the member's next sign-in in the browser makes (or replaces) the key pair.
    // Until then the member cannot receive messages.
    keysRequested: boolean('keys_requested').notNull().default(false),
    // A copy of "two_factor.enabled_at is not null" (schema-two-factor.ts), written in the same transaction, so the
    // session's member row and the login lookup know it without another query.
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    // The private key's second copy, wrapped in the browser under the member's message recovery key (wr1; migration
    // 0027, docs/security.md "Password reset and the recovery key"). Null until the member makes one.
    messageRecoveryKey: text('message_recovery_key'),
    // Settings -> Notifications: the kinds the member turned off (like, repost, reply, mention, follow); the server
    // creates none of those for them.
    notificationsOff: text('notifications_off').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    // The few private accounts, for the visibility predicate's once-per-statement "hidden authors" set.
    index('users_private_account_idx').on(t.id).where(sql`${t.privateAccount}`),
    // Member search (users/search-queries.ts): username prefix and display name anywhere, any case, through trigrams
    // (pg_trgm, migration 0001), which serve LIKE 'x%' and LIKE '%x%' alike.
    index('users_username_trgm_idx').using('gin', sql`lower(${t.username}) gin_trgm_ops`),
    index('users_display_name_trgm_idx').using('gin', sql`lower(${t.displayName}) gin_trgm_ops`),
    // Who to follow: the most followed members, read newest-count first, instead of ordering every member
    // (users/search-queries.ts, suggestedUsers; migration 0012).
    index('users_followers_count_idx').on(t.followersCount, t.id),
    // Members whose name changed or who joined since a cached member search was read (users/search-results.ts).
    index('users_updated_at_idx').on(t.updatedAt),
    check('users_allow_dms_check', sql`${t.allowDms} in ('everyone', 'following', 'none')`),
    check('users_allow_mentions_check', sql`${t.allowMentions} in ('everyone', 'following', 'none')`),
    // Both keys or neither: a public key without its private half would take messages nobody can read.
    check('users_keys_pair_check', sql`(${t.publicKey} is null) = (${t.wrappedPrivateKey} is null)`),
    check(
      'users_counters_check',
      sql`${t.followersCount} >= 0 and ${t.followingCount} >= 0 and ${t.postsCount} >= 0`,
    ),
  ],
)

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // SHA-256 of the bearer token (hex): a leaked table does not leak usable tokens.
    tokenHash: text('token_hash').notNull().unique('sessions_token_hash_key'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    // Lifetimes (src/api/contract/session-lifetimes.ts): the absolute end, and whether the idle limit is the long one.
    remember: boolean('remember').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    // The client's address at sign-in and at the last recorded use (to the minute, with last_seen_at).
    createdIp: text('created_ip'),
    lastIp: text('last_ip'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
)

export type UserRow = typeof users.$inferSelect
export type SessionRow = typeof sessions.$inferSelect
