import { createHash, randomInt } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'

// The codes themselves: TOTP by otpauth (RFC 6238; SHA-1, 6 digits, 30 seconds: what every authenticator app reads)
// and the recovery codes.

export const ISSUER = 'Wren'
const PERIOD_SECONDS = 30

function totpOf(secret: string, username = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  })
}

/** A new secret (160 bits, as RFC 4226 recommends) in base32, and the otpauth:// URI of the QR code. */
export function newSecret(username: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32
  return { secret, uri: totpOf(secret, username).toString() }
}

/**
 * The time step a 6-digit code belongs to when it is the code of the step before, now or after (clocks of phones
 * drift), or null. The caller still has to accept the step once (queries.ts `acceptStep`).
 */
export function stepOfCode(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 })
  if (delta === null) return null
  return Math.floor(now / 1000 / PERIOD_SECONDS) + delta
}

// Recovery codes: 10 characters of a 30-letter alphabet (49 bits, about 5.9e14 codes), shown as xxxxx-xxxxx. Without
// 0/o, 1/l/i and u, so a code copied by hand reads back one way. Random and long, so SHA-256 is enough to keep them
// (no slow hash): at 5 tries per 15 minutes nobody guesses one.
const ALPHABET = 'abcdefghjkmnpqrstvwxyz23456789'
export const RECOVERY_CODE_COUNT = 10

function newRecoveryCode(): string {
  let code = ''
  for (let i = 0; i < 10; i += 1) code += ALPHABET[randomInt(ALPHABET.length)]
  return `${code.slice(0, 5)}-${code.slice(5)}`
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
}

/** What is compared: case, spaces and dashes do not matter. Null when it cannot be a recovery code. */
export function normalizeRecoveryCode(code: string): string | null {
  const plain = code.toLowerCase().replace(/[\s-]/g, '')
  return /^[a-z0-9]{10}$/.test(plain) ? plain : null
}

export function hashRecoveryCode(normalized: string): string {
  return createHash('sha256').update(`wren recovery code\u0000${normalized}`).digest('hex')
}
