import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'

/**
 * The contract's `CurrentUser`: what members see of themselves. Built field by field (never a spread of the row), so
 * a new column, like the password hash, can only leave the server by being named here and in openapi.yaml.
 */
export function toCurrentUser(row: UserRow): Schemas['CurrentUser'] {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    displayName: row.displayName,
    avatar: row.avatar,
    banner: row.banner,
    bio: row.bio,
    verified: row.verified,
    privateAccount: row.privateAccount,
    isAdmin: row.isAdmin,
    createdAt: row.createdAt.toISOString(),
    contentSettings: {
      showSensitiveContent: row.showSensitiveContent,
      allowDMs: row.allowDms,
      allowMentions: row.allowMentions,
    },
    publicKey: row.publicKey,
    keysRequested: row.keysRequested,
    twoFactorEnabled: row.twoFactorEnabled,
    hasRecoveryKey: row.messageRecoveryKey !== null,
  }
}
