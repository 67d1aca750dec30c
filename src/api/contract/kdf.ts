// The password key-derivation settings a member's browser uses (src/crypto/kdf.ts), shared by the SPA and the server:
// the server stores them per member and serves them before sign-in (POST /auth/prelogin), and both sides refuse
// settings outside the same bounds. Rationale: docs/security.md, "Offline guessing".

export interface KdfSettings {
  readonly algorithm: 'argon2id'
  /** 16 random bytes, canonical base64url (22 characters). */
  readonly salt: string
  /** KiB. */
  readonly memory: number
  readonly iterations: number
  readonly parallelism: number
}

/**
 * What new passwords are derived with: argon2id m=19 MiB, t=2, p=1, one of OWASP's recommended settings. The browser
 * bench's mid-phone profile (Chromium at 4x CPU throttling) took 1.2 s from Log in to the login request at m=32 MiB,
 * t=3, too slow for "well under a second" at every sign-in; this is 0.4x that memory-time. Each offline guess still
 * costs 19 MiB and two passes.
 */
export const KDF_DEFAULT = { memory: 19_456, iterations: 2, parallelism: 1 } as const

/**
 * The least the browser derives with and the server stores: OWASP's argon2id minimum (today also the default). A
 * hostile or broken server serving cheaper settings would make the authentication secret it receives cheap to invert
 * into the password.
 */
export const KDF_FLOOR = { memory: 19_456, iterations: 2, parallelism: 1 } as const

/**
 * The most: 256 MiB, 10 passes, and no more than 4x the default's memory-time (a couple of seconds on a mid phone), so a
 * hostile server cannot freeze the tab or exhaust a phone's memory, while the default can still rise.
 */
export const KDF_CEILING = { memory: 262_144, iterations: 10, cost: 4 * KDF_DEFAULT.memory * KDF_DEFAULT.iterations } as const

export const KDF_SALT_PATTERN = /^[A-Za-z0-9_-]{21}[AQgw]$/

/** Why these settings are refused, or null when they are within the bounds. */
export function kdfProblem(kdf: KdfSettings): string | null {
  if (kdf.algorithm !== 'argon2id') return 'kdf.algorithm must be argon2id'
  if (!KDF_SALT_PATTERN.test(kdf.salt)) return 'kdf.salt must be 16 bytes of base64url'
  if (kdf.parallelism !== KDF_FLOOR.parallelism) return 'kdf.parallelism must be 1'
  if (!Number.isInteger(kdf.memory) || kdf.memory < KDF_FLOOR.memory || kdf.memory > KDF_CEILING.memory)
    return `kdf.memory must be from ${KDF_FLOOR.memory} to ${KDF_CEILING.memory} KiB`
  if (!Number.isInteger(kdf.iterations) || kdf.iterations < KDF_FLOOR.iterations || kdf.iterations > KDF_CEILING.iterations)
    return `kdf.iterations must be from ${KDF_FLOOR.iterations} to ${KDF_CEILING.iterations}`
  if (kdf.memory * kdf.iterations > KDF_CEILING.cost) return 'kdf.memory times kdf.iterations is too costly'
  return null
}
