import { Data, Effect } from 'effect'
import { TRUST_RECORD_MAX_LENGTH } from '../api/contract/trust'
import { concat, fromBase64url, fromUtf8, randomBytes, toBase64url, utf8 } from './encoding'
import type { CryptoUnavailable, InvalidPublicKey } from './errors'
import { parsePublicKey, type MemberKeys } from './keys'
import { attempt, certain } from './webcrypto'

// A member's decision about a contact's key, kept on the server so every device of the member knows it, sealed so
// the server can neither read it nor make one up (docs/security.md, "Safety numbers and key changes"):
//
//   self   = ECDH(my private key, my own public key)                 only a holder of my private key can compute it
//   key    = HKDF-SHA256(ikm = self, salt = "wren/trust/v1", info = "wren/trust/self-key/v1" || my raw public key)
//   record = "tr1." || b64(iv) || "." || b64(AES-256-GCM(key, iv, JSON{ key, verified, at },
//                                                        ad = "wren/trust-record/v1" || owner id || 0 || contact id))
//
// The member's browsers all hold the same private key (unwrapped at login), so each derives the same self key; the
// server holds only the password-wrapped private key and cannot. The additional data binds the record to its owner
// and contact: a record moved to another contact (or to another member) does not open. A new key pair of the member
// (new keys after migrate-keys) makes earlier records unreadable: they count as none, and trust starts again.

const SALT = utf8('wren/trust/v1')
const INFO_LABEL = utf8('wren/trust/self-key/v1')
const AD_LABEL = utf8('wren/trust-record/v1')
const VERSION = 'tr1'
const IV_BYTES = 12

/** What the member decided about a contact's key. */
export interface TrustRecord {
  /** The contact's public key the member accepted (first use, or acknowledged after a change). */
  readonly contactKey: string
  /** Compared the safety number with the contact and marked them Verified. */
  readonly verified: boolean
  /** When this decision was made (ISO 8601). */
  readonly at: string
}

/** The record cannot be opened: not one of ours, sealed by someone else, moved to another contact, or tampered. */
export class TrustRecordRejected extends Data.TaggedError('TrustRecordRejected')<{ readonly message: string }> {}

const rejected = () => new TrustRecordRejected({ message: 'This trust record was not sealed by you for this contact.' })

function additionalData(ownerId: string, contactId: string): Uint8Array<ArrayBuffer> {
  return concat(AD_LABEL, utf8(ownerId), new Uint8Array([0]), utf8(contactId))
}

/** The member's self key: AES-GCM, non-extractable, the same in every browser holding their private key. */
export function deriveSelfKey(me: MemberKeys): Effect.Effect<CryptoKey, InvalidPublicKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    const mine = yield* parsePublicKey(me.publicKey)
    const shared = new Uint8Array(
      // Our own valid public key with its private key: ECDH cannot fail here.
      yield* certain((s) => s.deriveBits({ name: 'ECDH', public: mine.key }, me.privateKey, 256)),
    )
    try {
      return yield* certain(async (s) => {
        const ikm = await s.importKey('raw', shared, 'HKDF', false, ['deriveKey'])
        return s.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: SALT, info: concat(INFO_LABEL, mine.bytes) },
          ikm,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        )
      })
    } finally {
      shared.fill(0)
    }
  })
}

/** Seals a record for (owner, contact) under the self key. `iv` is for known-answer tests only. */
export function sealTrustRecord(
  selfKey: CryptoKey,
  ownerId: string,
  contactId: string,
  record: TrustRecord,
  iv: Uint8Array<ArrayBuffer> = randomBytes(IV_BYTES),
): Effect.Effect<string, CryptoUnavailable> {
  const plaintext = utf8(JSON.stringify({ key: record.contactKey, verified: record.verified, at: record.at }))
  return certain((s) => s.encrypt({ name: 'AES-GCM', iv, additionalData: additionalData(ownerId, contactId) }, selfKey, plaintext)).pipe(
    Effect.map((ciphertext) => `${VERSION}.${toBase64url(iv)}.${toBase64url(new Uint8Array(ciphertext))}`),
  )
}

function parseRecord(value: unknown): TrustRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { key, verified, at } = value as Record<string, unknown>
  return typeof key === 'string' && typeof verified === 'boolean' && typeof at === 'string' ? { contactKey: key, verified, at } : undefined
}

/** Opens a record sealed by `sealTrustRecord` for the same owner and contact, or fails with TrustRecordRejected. */
export function openTrustRecord(
  selfKey: CryptoKey,
  ownerId: string,
  contactId: string,
  text: string,
): Effect.Effect<TrustRecord, TrustRecordRejected | CryptoUnavailable> {
  return Effect.gen(function* () {
    const [version, ivText, bodyText, ...rest] = text.length <= TRUST_RECORD_MAX_LENGTH ? text.split('.') : []
    const iv = ivText === undefined ? undefined : fromBase64url(ivText)
    const body = bodyText === undefined ? undefined : fromBase64url(bodyText)
    if (version !== VERSION || rest.length > 0 || iv?.length !== IV_BYTES || body === undefined) return yield* Effect.fail(rejected())
    const plaintext = yield* attempt(
      (s) => s.decrypt({ name: 'AES-GCM', iv, additionalData: additionalData(ownerId, contactId) }, selfKey, body),
      () => rejected(),
    )
    let parsed: unknown
    try {
      parsed = JSON.parse(fromUtf8(new Uint8Array(plaintext)))
    } catch {
      return yield* Effect.fail(rejected())
    }
    const record = parseRecord(parsed)
    return record ?? (yield* Effect.fail(rejected()))
  })
}
