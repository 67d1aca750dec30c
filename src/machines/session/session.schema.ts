// What the browser keeps under `auth-storage` (docs/product.md, "Session check"), validated on load: a hand-edited,
// truncated or older value must never crash the app or sign someone in as a half-user. Anything that fails is treated
// as "no session".
//
// Checked by hand rather than with a zod schema: this runs at boot, before anything else, and zod's core would be
// about 6.6 KB of gzip JS in every first load for these few fields. The rules are those a zod object would
// apply: every listed field must have its type, defaults fill the fields older builds did not write, and fields not
// listed here are dropped.

export type Audience = 'everyone' | 'following' | 'none'

/** The signed-in member as the session holds them: the fields the shell needs, plus what the server sent. */
export interface SessionUser {
  id: string
  username: string
  displayName: string
  avatar: string | null
  isAdmin: boolean
  email?: string
  banner?: string | null
  bio?: string
  verified?: boolean
  privateAccount?: boolean
  createdAt?: string
  publicKey?: string | null
  keysRequested?: boolean
  twoFactorEnabled?: boolean
  hasRecoveryKey?: boolean
  contentSettings?: { showSensitiveContent: boolean; allowDMs: Audience; allowMentions: Audience }
}

export interface StoredSession {
  user: SessionUser | null
  token: string | null
  /** The member's message key as the server keeps it: wrapped under the password. Never the usable key. */
  privateKey: string | null
  isAuthenticated: boolean
  /** Not stored in the value: where it was found (src/machines/session/session.storage.ts). */
  remember?: boolean
}

export const EMPTY_SESSION: StoredSession = { user: null, token: null, privateKey: null, isAuthenticated: false }

/** A value that does not have the stored shape. */
const INVALID = Symbol('invalid')
type Checked<T> = T | typeof INVALID

type Check<T> = (value: unknown) => Checked<T>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const string: Check<string> = (v) => (typeof v === 'string' ? v : INVALID)
const nonEmptyString: Check<string> = (v) => (typeof v === 'string' && v.length >= 1 ? v : INVALID)
const boolean: Check<boolean> = (v) => (typeof v === 'boolean' ? v : INVALID)
const audience: Check<Audience> = (v) => (v === 'everyone' || v === 'following' || v === 'none' ? v : INVALID)
const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (v) =>
    v === null ? null : check(v)
/** A missing field takes `fallback`. */
const withDefault =
  <T>(check: Check<T>, fallback: T): Check<T> =>
  (v) =>
    v === undefined ? fallback : check(v)

/** The listed fields, each checked; fields not listed are dropped, optional ones stay absent when absent. */
function object<T>(fields: { [K in keyof T]-?: Check<T[K]> }, optional: ReadonlyArray<keyof T> = []): Check<T> {
  return (value) => {
    if (!isRecord(value)) return INVALID
    const out: Partial<T> = {}
    for (const key of Object.keys(fields) as Array<keyof T>) {
      const raw = value[key as string]
      if (raw === undefined && optional.includes(key)) continue
      const checked = fields[key](raw)
      if (checked === INVALID) return INVALID
      out[key] = checked as T[keyof T]
    }
    return out as T
  }
}

const contentSettings = object<NonNullable<SessionUser['contentSettings']>>({
  showSensitiveContent: boolean,
  allowDMs: audience,
  allowMentions: audience,
})

const sessionUser = object<SessionUser>(
  {
    id: nonEmptyString,
    username: string,
    displayName: string,
    avatar: withDefault(nullable(string), null),
    isAdmin: withDefault(boolean, false),
    email: string,
    banner: nullable(string),
    bio: string,
    verified: boolean,
    privateAccount: boolean,
    createdAt: string,
    publicKey: nullable(string),
    keysRequested: boolean,
    twoFactorEnabled: boolean,
    hasRecoveryKey: boolean,
    contentSettings,
  } as { [K in keyof SessionUser]-?: Check<SessionUser[K]> },
  ['email', 'banner', 'bio', 'verified', 'privateAccount', 'createdAt', 'publicKey', 'keysRequested', 'twoFactorEnabled', 'hasRecoveryKey', 'contentSettings'],
)

const storedSession = object<Omit<StoredSession, 'remember'>>({
  user: nullable(sessionUser),
  token: nullable(nonEmptyString),
  privateKey: withDefault(nullable(string), null),
  isAuthenticated: withDefault(boolean, false),
})

/** The stored session if `value` has its shape (defaults filled in, unknown fields dropped), else null. */
export function parseStoredSession(value: unknown): StoredSession | null {
  const parsed = storedSession(value)
  return parsed === INVALID ? null : parsed
}
