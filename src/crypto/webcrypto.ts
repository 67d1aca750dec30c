import { Effect } from 'effect'
import { CryptoUnavailable } from './errors'

// WebCrypto as an Effect: every SubtleCrypto call of the library goes through `subtle`, so a page served over plain
// http (where browsers hide crypto.subtle) fails with one typed error instead of a TypeError deep inside a call.

export const unavailable = new CryptoUnavailable({
  message: 'Encryption needs a secure connection (https). Ask the administrator to serve Wren over https.',
})

/** The SubtleCrypto of this context, or CryptoUnavailable. */
export const subtle: Effect.Effect<SubtleCrypto, CryptoUnavailable> = Effect.suspend(() => {
  const value = (globalThis.crypto as Crypto | undefined)?.subtle as SubtleCrypto | undefined
  return value ? Effect.succeed(value) : Effect.fail(unavailable)
})

/**
 * Runs one SubtleCrypto operation, mapping its rejection (WebCrypto rejects with DOMException OperationError or
 * DataError and says nothing more useful) to the caller's typed error.
 */
export function attempt<A, E>(run: (subtle: SubtleCrypto) => Promise<A>, onFailure: (cause: unknown) => E) {
  return Effect.flatMap(subtle, (s) => Effect.tryPromise({ try: () => run(s), catch: onFailure }))
}

/**
 * Runs an operation that cannot fail on valid inputs (generating a key, PBKDF2, exporting a public key): a rejection
 * would mean a broken WebCrypto, so it is a defect, not a typed error a caller should handle.
 */
export function certain<A>(run: (subtle: SubtleCrypto) => Promise<A>): Effect.Effect<A, CryptoUnavailable> {
  return Effect.flatMap(subtle, (s) => Effect.promise(() => run(s)))
}
