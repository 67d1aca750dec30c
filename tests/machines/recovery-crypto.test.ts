import { createDecipheriv, createPrivateKey, hkdfSync } from 'node:crypto'
import { Effect } from 'effect'
import { beforeAll, describe, expect, it } from 'vitest'
import { RECOVERY_COPY_PATTERN, WRAPPED_KEY_V2_PATTERN } from '../../src/api/contract/encryption'
import { fromBase64url, toBase64url } from '../../src/crypto/encoding'
import { generateKeyPair, type NewKeyPair } from '../../src/crypto/key-pair'
import {
  RECOVERY_ALPHABET,
  newRecoveryKey,
  normalizeRecoveryKey,
  recoveryWrapper,
  restoreFromRecovery,
  sealRecoveryCopy,
} from '../../src/crypto/recovery'
import { keysMatch } from '../../src/crypto/session-keys'
import { sealWithKey, unwrapPrivateKeyWith, type KeyWrapper } from '../../src/crypto/wrap'

// The message recovery key (src/crypto/recovery.ts; docs/security.md, "Password reset and the recovery key"): a
// second copy of the private key, wrapped under a key derived from 140 random bits the server never sees.

const succeed = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)
const failure = <A, E>(effect: Effect.Effect<A, E>): Promise<E> => Effect.runPromise(Effect.flip(effect))

/** A password-style wk2 wrapper over a random AES key (the app's comes from the password, tested in crypto.test.ts). */
async function passwordLikeWrapper(salt: string): Promise<KeyWrapper> {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt', 'unwrapKey'])
  return { key, binding: `kdf.${salt}` }
}

let oldPassword: KeyWrapper
let newPassword: KeyWrapper
let pair: NewKeyPair

beforeAll(async () => {
  oldPassword = await passwordLikeWrapper('old-salt')
  newPassword = await passwordLikeWrapper('new-salt')
  pair = await succeed(generateKeyPair(sealWithKey(oldPassword)))
})

describe('the recovery key', () => {
  it('is 28 symbols of Crockford base32 in 7 groups of 4, different every time', () => {
    const keys = new Set(Array.from({ length: 50 }, newRecoveryKey))
    expect(keys.size).toBe(50)
    for (const key of keys) {
      expect(key).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){6}$/)
    }
    expect(RECOVERY_ALPHABET).toHaveLength(32)
  })

  it('is read however it is typed: case, spaces, dashes, O for 0, I and L for 1', () => {
    const key = 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345'
    expect(normalizeRecoveryKey(key)).toBe('ABCDEFGHJKMNPQRSTVWXYZ012345')
    expect(normalizeRecoveryKey(' abcd efgh jkmn pqrs tvwx yzoi 2345 ')).toBe('ABCDEFGHJKMNPQRSTVWXYZ012345')
    expect(normalizeRecoveryKey('abcdefghjkmnpqrstvwxyzOL2345')).toBe('ABCDEFGHJKMNPQRSTVWXYZ012345')
    expect(normalizeRecoveryKey('ABCD-EFGH')).toBeNull()
    expect(normalizeRecoveryKey('ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-234U')).toBeNull()
  })
})

describe('the recovery copy', () => {
  it('round-trips: made from the password copy, restored under a new password, the same key pair', async () => {
    const recoveryKey = newRecoveryKey()
    const copy = await succeed(sealRecoveryCopy(pair.wrappedPrivateKey, oldPassword, recoveryKey))
    expect(copy).toMatch(RECOVERY_COPY_PATTERN)
    expect(copy).not.toMatch(WRAPPED_KEY_V2_PATTERN)

    const typed = recoveryKey.toLowerCase().replace(/-/g, ' ')
    const restored = await succeed(restoreFromRecovery(copy, typed, pair.publicKey, newPassword))
    expect(restored).toMatch(WRAPPED_KEY_V2_PATTERN)
    const privateKey = await succeed(unwrapPrivateKeyWith(restored, newPassword))
    expect(privateKey.extractable).toBe(false)
    expect(await succeed(keysMatch({ publicKey: pair.publicKey, privateKey }))).toBe(true)
    // The old password's wrapping key does not open the new copy.
    expect((await failure(unwrapPrivateKeyWith(restored, oldPassword)))._tag).toBe('WrongPassword')
  })

  it('matches a derivation recomputed with Node: HKDF-SHA256 of the symbols, AES-256-GCM with "wr1|recovery.1"', async () => {
    const recoveryKey = newRecoveryKey()
    const copy = await succeed(sealRecoveryCopy(pair.wrappedPrivateKey, oldPassword, recoveryKey))
    const [, ivText = '', ctText = ''] = copy.split('.')
    const key = Buffer.from(
      hkdfSync('sha256', recoveryKey.replace(/-/g, ''), 'wren/recovery/v1', 'wren recovery wrapping v1', 32),
    )
    const bytes = fromBase64url(ctText)!
    const decipher = createDecipheriv('aes-256-gcm', key, fromBase64url(ivText)!)
    decipher.setAAD(Buffer.from('wr1|recovery.1'))
    decipher.setAuthTag(bytes.subarray(bytes.length - 16))
    const pkcs8 = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()])
    const jwk = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' })
    const raw = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')])
    expect(toBase64url(raw)).toBe(pair.publicKey)
  })

  it('does not open with another recovery key, nor with a typo, nor a tampered copy', async () => {
    const recoveryKey = newRecoveryKey()
    const copy = await succeed(sealRecoveryCopy(pair.wrappedPrivateKey, oldPassword, recoveryKey))
    const other = await failure(restoreFromRecovery(copy, newRecoveryKey(), pair.publicKey, newPassword))
    expect(other._tag).toBe('WrongPassword')
    expect(other.message).toBe('This recovery key does not open your message key.')
    const short = await failure(restoreFromRecovery(copy, recoveryKey.slice(0, -1), pair.publicKey, newPassword))
    expect(short.message).toMatch(/not a recovery key/)
    const [v, iv = '', ct = ''] = copy.split('.')
    const bytes = fromBase64url(ct)!
    bytes[3] = (bytes[3] ?? 0) ^ 1
    const tampered = `${v}.${iv}.${toBase64url(bytes)}`
    expect((await failure(restoreFromRecovery(tampered, recoveryKey, pair.publicKey, newPassword)))._tag).toBe('WrongPassword')
  })

  it('refuses a copy of another key pair than the public key it is restored for', async () => {
    const other = await succeed(generateKeyPair(sealWithKey(oldPassword)))
    const recoveryKey = newRecoveryKey()
    const copy = await succeed(sealRecoveryCopy(other.wrappedPrivateKey, oldPassword, recoveryKey))
    const error = await failure(restoreFromRecovery(copy, recoveryKey, pair.publicKey, newPassword))
    expect(error._tag).toBe('MalformedKey')
  })

  it('keeps the two kinds apart: a password copy never opens as a recovery copy, nor the other way round', async () => {
    const recoveryKey = newRecoveryKey()
    const wrapper = await succeed(recoveryWrapper(recoveryKey))
    const copy = await succeed(sealRecoveryCopy(pair.wrappedPrivateKey, oldPassword, recoveryKey))
    // The recovery key's AES key, used as if it were a password's (wk2 format, wk2 data): refused.
    const asPassword: KeyWrapper = { key: wrapper.key, binding: 'recovery.1' }
    const relabelled = copy.replace(/^wr1\./, 'wk2.')
    expect((await failure(unwrapPrivateKeyWith(relabelled, asPassword)))._tag).toBe('WrongPassword')
    expect((await failure(unwrapPrivateKeyWith(copy, asPassword)))._tag).toBe('MalformedKey')
    // A password copy relabelled wr1 does not open under the recovery wrapper, nor under its own key as wr1.
    const passwordCopy = pair.wrappedPrivateKey.replace(/^wk2\./, 'wr1.')
    expect((await failure(unwrapPrivateKeyWith(passwordCopy, wrapper)))._tag).toBe('WrongPassword')
    expect(
      (await failure(unwrapPrivateKeyWith(passwordCopy, { ...oldPassword, format: 'wr1' })))._tag,
    ).toBe('WrongPassword')
  })
})
