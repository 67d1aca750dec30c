import { hash, parseOptions, verify } from '@node-rs/argon2'
import { Semaphore } from '../../lib/semaphore'

/**
 * What the server hashes is what the browser sends: the authentication secret derived from the password
 * (src/crypto/kdf.ts), or the password itself for an account not moved over yet. Either way the stored hash is
 * argon2id with OWASP's minimum (m=19456 KiB, t=2, p=1). Argon2id is the library's default algorithm; it is not named
 * here because the `Algorithm` const enum cannot be imported under `isolatedModules`. A test pins the
 * resulting `$argon2id$v=19$m=19456,t=2,p=1$` prefix.
 */
export const HASH_POLICY = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

// The same characters typed on different systems can arrive composed or decomposed ("é" vs "e\u0301").
const normalize = (password: string) => password.normalize('NFC')

export class PasswordHasher {
  private readonly gate: Semaphore
  private dummy: Promise<string> | undefined

  constructor(concurrency: number) {
    this.gate = new Semaphore(concurrency)
  }

  hash(password: string): Promise<string> {
    return this.gate.run(() => hash(normalize(password), HASH_POLICY))
  }

  verify(stored: string, password: string): Promise<boolean> {
    return this.gate.run(() => verify(stored, normalize(password)).catch(() => false))
  }

  /**
   * Spends the same time as checking a real account, then fails: "no such user" and "wrong password" must not be
   * told apart by timing. The dummy hash is made once, with the current policy, on first use.
   */
  async verifyNobody(password: string): Promise<false> {
    this.dummy ??= this.hash(`dummy-${Math.random()}`)
    await this.verify(await this.dummy, password)
    return false
  }

  /** True for hashes made under an older policy: they are replaced at the next successful login. */
  needsRehash(stored: string): boolean {
    try {
      const o = parseOptions(stored)
      return (
        o.memoryCost !== HASH_POLICY.memoryCost ||
        o.timeCost !== HASH_POLICY.timeCost ||
        o.parallelism !== HASH_POLICY.parallelism
      )
    } catch {
      return true
    }
  }
}
