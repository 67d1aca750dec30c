import * as z from 'zod/mini'

// What the browser keeps under `auth-storage` (docs/product.md, "Session check"), validated on load: a hand-edited,
// truncated or older value must never crash the app or sign someone in as a half-user. Anything that fails is treated
// as "no session".

const audience = z.enum(['everyone', 'following', 'none'])

/** The signed-in member as the session holds them: the fields the shell needs, plus what the server sent. */
export const sessionUserSchema = z.object({
  id: z.string().check(z.minLength(1)),
  username: z.string(),
  displayName: z.string(),
  avatar: z._default(z.nullable(z.string()), null),
  isAdmin: z._default(z.boolean(), false),
  email: z.optional(z.string()),
  banner: z.optional(z.nullable(z.string())),
  bio: z.optional(z.string()),
  verified: z.optional(z.boolean()),
  privateAccount: z.optional(z.boolean()),
  createdAt: z.optional(z.string()),
  publicKey: z.optional(z.nullable(z.string())),
  keysRequested: z.optional(z.boolean()),
  contentSettings: z.optional(
    z.object({ showSensitiveContent: z.boolean(), allowDMs: audience, allowMentions: audience }),
  ),
})

export type SessionUser = z.infer<typeof sessionUserSchema>

export const storedSessionSchema = z.object({
  user: z.nullable(sessionUserSchema),
  token: z.nullable(z.string().check(z.minLength(1))),
  /** The member's message key as the server keeps it: wrapped under the password. Never the usable key. */
  privateKey: z._default(z.nullable(z.string()), null),
  isAuthenticated: z._default(z.boolean(), false),
})

export type StoredSession = z.infer<typeof storedSessionSchema>

export const EMPTY_SESSION: StoredSession = { user: null, token: null, privateKey: null, isAuthenticated: false }
