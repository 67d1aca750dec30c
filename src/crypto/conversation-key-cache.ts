import { Effect, Exit } from 'effect'
import { CryptoUnavailable, type InvalidPublicKey } from './errors'
import type { MemberKeys } from './keys'

type Failure = InvalidPublicKey | CryptoUnavailable

/**
 * The derivation (ECDH, HKDF, public key parsing) is loaded on the first conversation key asked for: the cache itself
 * lives in the keys actor from boot, the key code is needed only once there are messages to read.
 */
const derive = (me: MemberKeys, theirPublicKey: string): Effect.Effect<CryptoKey, Failure> =>
  Effect.tryPromise({
    try: () => import('./conversation-key'),
    catch: () => new CryptoUnavailable({ message: 'The message key code could not be loaded.' }),
  }).pipe(Effect.flatMap((m) => m.deriveConversationKey(me, theirPublicKey)))

/**
 * Conversation keys derived once per (my keys, their public key) and kept in memory only: ECDH and HKDF are cheap
 * but a conversation list decrypts one preview per row and a conversation every message on each refetch. Keyed by
 * the other member's public key (not their id), so a changed key derives a new conversation key instead of reusing a
 * stale one. Holds the keys of one member: asking with other keys (another account signed in) starts afresh.
 * `clear()` on logout; keys are non-extractable, so even a leaked reference cannot export them.
 */
export class ConversationKeyCache {
  private owner: MemberKeys | undefined
  /** Exits rather than promises: a settled Exit is itself an Effect that fails with the same typed error. */
  private readonly keys = new Map<string, Promise<Exit.Exit<CryptoKey, Failure>>>()

  /** The conversation key with `theirPublicKey`; concurrent asks share one derivation; a failure is not kept. */
  get(me: MemberKeys, theirPublicKey: string): Effect.Effect<CryptoKey, Failure> {
    return Effect.suspend(() => {
      if (this.owner?.privateKey !== me.privateKey || this.owner.publicKey !== me.publicKey) {
        this.clear()
        this.owner = me
      }
      let pending = this.keys.get(theirPublicKey)
      if (pending === undefined) {
        const derived = Effect.runPromiseExit(derive(me, theirPublicKey))
        pending = derived
        this.keys.set(theirPublicKey, derived)
        void derived.then((exit) => {
          if (Exit.isFailure(exit) && this.keys.get(theirPublicKey) === derived) this.keys.delete(theirPublicKey)
        })
      }
      const settled = pending
      return Effect.flatMap(
        Effect.promise(() => settled),
        (exit) => exit,
      )
    })
  }

  /** How many conversation keys are held (tests, and a debugging aid). */
  get size(): number {
    return this.keys.size
  }

  /** Logout: forget every conversation key and whose they were. */
  clear(): void {
    this.keys.clear()
    this.owner = undefined
  }
}
