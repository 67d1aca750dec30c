import { Data } from 'effect'

// Every failure of the crypto library is one of these tagged errors, like the API's (src/api/errors.ts): actors
// switch on `_tag`. None carries key material, a password or a plaintext, so logging one leaks nothing.

/** No WebCrypto: `crypto.subtle` exists only in secure contexts (https or localhost); plain http breaks messaging. */
export class CryptoUnavailable extends Data.TaggedError('CryptoUnavailable')<{ readonly message: string }> {}

/**
 * The password does not open the wrapped private key. AES-GCM cannot tell a wrong password from a tampered
 * ciphertext, so a modified wrapped key also ends here.
 */
export class WrongPassword extends Data.TaggedError('WrongPassword')<{ readonly message: string }> {}

/** The wrapped private key is not a string this library made (shape, version, iteration count out of bounds). */
export class MalformedKey extends Data.TaggedError('MalformedKey')<{ readonly message: string }> {}

/**
 * The server's password-derivation settings are outside the bounds this app accepts (src/api/contract/kdf.ts): too
 * cheap (the authentication secret would be cheap to invert into the password) or too costly (a frozen tab).
 */
export class UnacceptableKdf extends Data.TaggedError('UnacceptableKdf')<{ readonly message: string }> {}

/** A member's public key is not a P-256 public key in our format (the member may have no key yet). */
export class InvalidPublicKey extends Data.TaggedError('InvalidPublicKey')<{ readonly message: string }> {}

/** The text is longer than MESSAGE_MAX_LENGTH, so its envelope would exceed the bound the server enforces. */
export class MessageTooLong extends Data.TaggedError('MessageTooLong')<{
  readonly message: string
  readonly length: number
}> {}

/**
 * A message cannot be read: `malformed` (not an envelope of a version we know) or `rejected` (AES-GCM refused it:
 * tampered, replayed into another conversation or attributed to the other sender, or encrypted under other keys).
 * The UI shows a placeholder.
 */
export class UndecryptableMessage extends Data.TaggedError('UndecryptableMessage')<{
  readonly message: string
  readonly reason: 'malformed' | 'rejected'
}> {}

/** The key store (IndexedDB) failed or is unavailable (some private-browsing modes). */
export class KeyStoreFailed extends Data.TaggedError('KeyStoreFailed')<{ readonly message: string }> {}

export type CryptoError =
  | CryptoUnavailable
  | WrongPassword
  | MalformedKey
  | UnacceptableKdf
  | InvalidPublicKey
  | MessageTooLong
  | UndecryptableMessage
  | KeyStoreFailed
