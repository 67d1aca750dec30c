import { Effect } from 'effect'
import { assign, fromPromise, setup, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate'
import type { CryptoError } from '../../crypto'
// The store and the cache only, not the crypto package's index: the key code itself loads when first used.
import { ConversationKeyCache } from '../../crypto/conversation-key-cache'
import { forgetKeys, indexedDbKeyStore, memoryKeyStore, type KeyStore, type StoredKeys } from '../../crypto/key-store'
import { type TabPresence, webLockPresence } from './tab-presence'

// The member's message keys in this browser (docs/security.md, "In the browser"): one long-lived actor,
// systemId 'keys', a child of the app actor (not of the member actor: login and register settle the keys before the
// session signs in, and the member actor only exists after). It is the only reader and writer of the browser's key
// store (IndexedDB `wren-keys`), so what it says is what the browser has:
// - `keys.settled` (login or register made or unlocked the keys, or could not): keeps them (saving them in the store)
//   or keeps the reason they are missing or unavailable;
// - `keys.load` (the app signed in from a stored token, i.e. a reload): reads the unwrapped key by user id;
// - `keys.forget` (the app signed out: logout, session expired or revoked, or a start with no session): empties the
//   cache, and the store but for members signed in in other tabs of this browser (tab-presence.ts).
// Key failures never block signing in: the status says why messages are unavailable.
//
// The snapshot's context is the interface the Messages screens read: `status` ('ready' | 'missing' | 'unavailable'),
// `userId`, `reason`; `conversationKeyFor(system, theirPublicKey)` derives a conversation key through the cache.

export type KeysStatus = 'ready' | 'missing' | 'unavailable'

/** What login or register ends with: the member's keys, ready for use, or why there are none. */
export type KeysOutcome =
  | { status: 'ready'; keys: StoredKeys }
  | { status: 'missing' | 'unavailable'; reason: string }

export type KeysEvent =
  | { type: 'keys.settled'; userId: string; outcome: KeysOutcome }
  | { type: 'keys.load'; userId: string }
  | { type: 'keys.forget' }

export interface KeysContext {
  /** Whose keys these are; null while nobody is signed in. */
  userId: string | null
  status: KeysStatus
  /** Why the status is not 'ready' (or, when ready, a warning such as "not kept after a reload"); for the member. */
  reason: string | null
  /** The member's keys: the public key and the non-extractable private CryptoKey. Never persisted but by the store. */
  keys: StoredKeys | null
  /** Conversation keys derived from `keys`, in memory only. */
  cache: ConversationKeyCache
}

export const NO_KEY_IN_BROWSER = 'This browser has no message key for you yet. Log in again to unlock it.'
export const KEY_NOT_KEPT = 'Your message key works in this tab but could not be kept in this browser.'

/** The app's store: IndexedDB in the browser, memory where there is none (tests, some private modes). */
export function defaultKeyStore(): KeyStore {
  return typeof indexedDB === 'undefined' ? memoryKeyStore() : indexedDbKeyStore()
}

/** A crypto or key-store failure as the member reads it. */
export function describeKeyError(error: unknown): string {
  const tagged = error as Partial<CryptoError> | undefined
  return typeof tagged?.message === 'string' && tagged.message !== ''
    ? tagged.message
    : 'Your message key could not be set up in this browser.'
}

/**
 * The actors the keys machine runs, over one store and this tab's presence (tab-presence.ts); tests pass a memory
 * store and presence or provide fakes by name. Loading or saving a member's keys marks this tab signed in as them;
 * forgetting leaves, then keeps the keys of members signed in in other tabs.
 */
export function keysActors(store: KeyStore, presence: TabPresence) {
  return {
    loadKeys: fromPromise<StoredKeys | undefined, { userId: string }>(({ input }) => {
      presence.enter(input.userId)
      return Effect.runPromise(store.load(input.userId))
    }),
    saveKeys: fromPromise<void, StoredKeys>(({ input }) => {
      presence.enter(input.userId)
      return Effect.runPromise(store.save(input))
    }),
    forgetKeys: fromPromise<void, { cache: ConversationKeyCache }>(async ({ input }) => {
      await presence.leave()
      await Effect.runPromise(forgetKeys(store, input.cache, await presence.elsewhere()))
    }),
  }
}

const EMPTY = { userId: null, status: 'missing' as const, reason: null, keys: null }

export const keysMachine = setup({
  types: {
    context: {} as KeysContext,
    events: {} as KeysEvent,
    tags: {} as 'busy',
  },
  actors: keysActors(defaultKeyStore(), webLockPresence()),
  actions: {
    settle: assign((_, { userId, outcome }: { userId: string; outcome: KeysOutcome }) =>
      outcome.status === 'ready'
        ? { userId, status: 'ready' as const, reason: null, keys: outcome.keys }
        : { userId, status: outcome.status, reason: outcome.reason, keys: null },
    ),
    found: assign((_, keys: StoredKeys | undefined) =>
      keys
        ? { status: 'ready' as const, reason: null, keys }
        : { status: 'missing' as const, reason: NO_KEY_IN_BROWSER, keys: null },
    ),
    loadFailed: assign((_, reason: string) => ({ status: 'unavailable' as const, reason, keys: null })),
    notKept: assign({ reason: KEY_NOT_KEPT }),
    startLoading: assign((_, userId: string) => ({ ...EMPTY, userId })),
    clear: assign(({ context }) => {
      context.cache.clear()
      return EMPTY
    }),
  },
  guards: {
    isReady: (_, outcome: KeysOutcome) => outcome.status === 'ready',
    /** Not the member whose keys are known already (login settled them just before the session signed in). */
    isOtherMember: ({ context }, userId: string) => context.userId !== userId,
  },
}).createMachine({
  id: 'keys',
  context: () => ({ ...EMPTY, cache: new ConversationKeyCache() }),
  initial: 'idle',
  on: {
    'keys.settled': [
      {
        guard: { type: 'isReady', params: ({ event }) => event.outcome },
        target: '.saving',
        actions: { type: 'settle', params: ({ event }) => event },
      },
      { target: '.settled', actions: { type: 'settle', params: ({ event }) => event } },
    ],
    // A load for the member whose keys login or register settled just before the session signed in is ignored.
    'keys.load': {
      guard: { type: 'isOtherMember', params: ({ event }) => event.userId },
      target: '.loading',
      actions: { type: 'startLoading', params: ({ event }) => event.userId },
    },
    'keys.forget': { target: '.forgetting' },
  },
  states: {
    /** Nobody signed in. */
    idle: {},
    /** A reload: the unwrapped key is read from the store by user id. */
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadKeys',
        src: 'loadKeys',
        input: ({ context }) => ({ userId: context.userId ?? '' }),
        onDone: { target: 'settled', actions: { type: 'found', params: ({ event }) => event.output } },
        onError: {
          target: 'settled',
          actions: { type: 'loadFailed', params: ({ event }) => describeKeyError(event.error) },
        },
      },
    },
    /** Keys from login or register, usable at once, kept in the store for the next reload. */
    saving: {
      invoke: {
        id: 'saveKeys',
        src: 'saveKeys',
        input: ({ context }) => context.keys as StoredKeys,
        onDone: { target: 'settled' },
        onError: { target: 'settled', actions: 'notKept' },
      },
    },
    /** The status is final until the next sign-in or sign-out. */
    settled: {},
    /** Sign-out: the store and the conversation keys are emptied; the context at once, whatever the store says. */
    forgetting: {
      tags: ['busy'],
      entry: 'clear',
      invoke: {
        id: 'forgetKeys',
        src: 'forgetKeys',
        input: ({ context }) => ({ cache: context.cache }),
        onDone: { target: 'idle' },
        onError: { target: 'idle' },
      },
    },
  },
})

export type KeysMachine = typeof keysMachine
export type KeysRef = ActorRefFrom<KeysMachine>
export type KeysSnapshot = SnapshotFrom<KeysMachine>

/** Why `conversationKeyFor` cannot answer: the member's own key is not ready (the status and reason say why). */
export class KeysNotReady extends Error {
  constructor(
    readonly status: KeysStatus,
    reason: string | null,
  ) {
    super(reason ?? 'Your message key is not set up in this browser.')
    this.name = 'KeysNotReady'
  }
}

/** The member's own keys from the keys actor, or why not. */
export function myKeys(snapshot: KeysSnapshot | undefined): StoredKeys | KeysNotReady {
  if (!snapshot) return new KeysNotReady('missing', null)
  const { status, keys, reason } = snapshot.context
  return status === 'ready' && keys ? keys : new KeysNotReady(status === 'ready' ? 'missing' : status, reason)
}

/**
 * The keys actor's snapshot once it is not reading its store. After a reload, a conversation (or its list) may open
 * before that read ends; asked then, the key would be called missing and every message shown as unavailable for good,
 * so the answer waits for the read. An actor stopped meanwhile answers with what it had.
 */
export function keysAfterLoad(keys: KeysRef | undefined): Promise<KeysSnapshot | undefined> {
  return whenLeft(keys, 'loading').then(() => keys?.getSnapshot())
}

/**
 * Resolves once `keys` is not in `state` (at once if it is not there, or there is no actor), at the latest after
 * `waitMs`; an actor stopped meanwhile ends the wait too.
 */
function whenLeft(keys: KeysRef | undefined, state: 'loading' | 'saving', waitMs = Infinity): Promise<void> {
  if (!keys || !keys.getSnapshot().matches(state)) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      subscription.unsubscribe()
      resolve()
    }
    const timer = Number.isFinite(waitMs) ? setTimeout(done, waitMs) : undefined
    const subscription = keys.subscribe({
      next: (snapshot) => {
        if (!snapshot.matches(state)) done()
      },
      complete: done,
    })
  })
}

/**
 * The conversation key with the member holding `otherPublicKey`, derived once and cached (ConversationKeyCache).
 * Rejects with KeysNotReady when the member's own key is not ready (after any read of the store in progress), or with
 * the crypto library's tagged error (InvalidPublicKey, CryptoUnavailable) when the other key is unusable.
 */
export async function conversationKeyFor(
  system: { get(systemId: string): AnyActorRef | undefined },
  otherPublicKey: string,
): Promise<CryptoKey> {
  const snapshot = await keysAfterLoad(system.get('keys') as KeysRef | undefined)
  const mine = myKeys(snapshot)
  if (mine instanceof KeysNotReady || !snapshot) throw mine
  return Effect.runPromise(snapshot.context.cache.get(mine, otherPublicKey))
}

/** How long signing in waits for the keys to reach the store before going on without (they still work in this tab). */
export const KEEP_WAIT_MS = 3_000

/**
 * Resolves once the keys login or register settled are in the browser's store (or could not be kept), and at the
 * latest after `waitMs`. Signing in waits for it before the app moves on: a reload while IndexedDB still writes
 * aborts the write, and the key would be missing after it until the next login.
 */
export function keysKept(keys: KeysRef | undefined, waitMs = KEEP_WAIT_MS): Promise<void> {
  return whenLeft(keys, 'saving', waitMs)
}
