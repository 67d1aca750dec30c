// The admin panel's words (docs/product.md, "Admin panel"), shared by the admin operations
// actor, its view and the rules tests.

export type AdminOperation = 'fixAllStats' | 'recalculate' | 'resetTwoFactor' | 'promote' | 'demote' | 'migrateKeys'

export const FIX_ALL_CONFIRM = 'This will recalculate stats for ALL users. Continue?'
export const MIGRATE_KEYS_CONFIRM =
  "This will add encryption keys to all users who don't have them. This is required for E2E messaging to work. Continue?"
export const TWO_FACTOR_RESET_CONFIRM =
  'This turns off two-factor sign-in for this member: they will sign in with their password alone. Continue?'
export const USER_ID_REQUIRED = 'Please enter a user ID'
export const USERNAME_REQUIRED = 'Please enter a username'

export const STATS_FIXED = 'All user stats have been fixed!'
export const STATS_RECALCULATED = 'User stats recalculated!'
export const KEYS_MIGRATED = 'Encryption keys migration completed!'
export const promoted = (username: string) => `User ${username} promoted to admin!`
export const demoted = (username: string) => `User ${username} demoted from admin!`

/** Each operation's failure default, when the server gives no words of its own. */
export const FAILED: Readonly<Record<AdminOperation, string>> = {
  fixAllStats: 'Failed to fix stats',
  recalculate: 'Failed to recalculate stats',
  resetTwoFactor: 'Failed to reset two-factor sign-in',
  promote: 'Failed to promote user',
  demote: 'Failed to demote user',
  migrateKeys: 'Failed to migrate keys',
}

/** The two operations that touch every account ask first, and the one that weakens a member's sign-in. */
export const CONFIRM: Readonly<Partial<Record<AdminOperation, string>>> = {
  fixAllStats: FIX_ALL_CONFIRM,
  migrateKeys: MIGRATE_KEYS_CONFIRM,
  resetTwoFactor: TWO_FACTOR_RESET_CONFIRM,
}

/** What a finished operation says: the toast, and a line kept under its section. */
export interface AdminOutcome {
  toast: string
  detail: string
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

export const fixedOutcome = (r: { recalculated: number; fixed: number }): AdminOutcome => ({
  toast: STATS_FIXED,
  detail: `Recounted ${plural(r.recalculated, 'member')}; fixed ${plural(r.fixed, 'wrong counter')}.`,
})

export const recalculatedOutcome = (r: {
  username: string
  stats: { followers: number; following: number; posts: number }
}): AdminOutcome => ({
  toast: STATS_RECALCULATED,
  detail: `@${r.username}: ${plural(r.stats.followers, 'follower')}, ${r.stats.following.toLocaleString('en-US')} following, ${plural(r.stats.posts, 'post')}.`,
})

export const twoFactorResetOutcome = (username: string): AdminOutcome => ({
  toast: `Two-factor sign-in reset for @${username}`,
  detail: `@${username} signs in with the password alone until they set it up again.`,
})

export const roleOutcome = (username: string, isAdmin: boolean): AdminOutcome => ({
  toast: isAdmin ? promoted(username) : demoted(username),
  detail: isAdmin ? `@${username} is an admin.` : `@${username} is no longer an admin.`,
})

export const migratedOutcome = (r: { migrated: number; pending: number }): AdminOutcome => ({
  toast: KEYS_MIGRATED,
  detail: `Marked ${plural(r.migrated, 'account')} to make keys at next sign-in; ${r.pending.toLocaleString('en-US')} still to do so.`,
})
