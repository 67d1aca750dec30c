import { Effect } from 'effect'
import { KeyStoreFailed } from './errors'
import type { ConversationKeyCache } from './conversation-key-cache'
import type { MemberKeys } from './keys'

// Where the browser keeps a member's unwrapped private key between page loads: IndexedDB, because it stores a
// CryptoKey by structured clone, and a non-extractable key stays non-extractable there (the browser keeps the key
// material; script, even ours, can only use it, never read it). localStorage could hold only bytes, i.e. an
// extractable key. The persisted session holds the wrapped form only. Logout calls forgetAll.
//
// Behind an interface because Node (the machine tests) has no IndexedDB: memoryKeyStore stands in there. The
// IndexedDB store is exercised in a real browser by tests/browser/key-store.smoke.mjs (and by the messaging e2e).

/** A member's keys as stored: whose they are, the public key as the server has it, the non-extractable private key. */
export interface StoredKeys extends MemberKeys {
  readonly userId: string
}

export interface KeyStore {
  /** Keeps the keys for their member, replacing any earlier. Refuses (a defect) an extractable private key. */
  save(keys: StoredKeys): Effect.Effect<void, KeyStoreFailed>
  /** The member's keys, or undefined when this browser has none (a new device before login, or after logout). */
  load(userId: string): Effect.Effect<StoredKeys | undefined, KeyStoreFailed>
  /** Forgets one member's keys. */
  forget(userId: string): Effect.Effect<void, KeyStoreFailed>
  /** Logout: forgets every member's keys in this browser but those of `keep` (members signed in in other tabs). */
  forgetAll(keep?: ReadonlySet<string>): Effect.Effect<void, KeyStoreFailed>
}

/** Only a non-extractable private key may be persisted: an extractable one could be read back and exfiltrated. */
function checked(keys: StoredKeys): Effect.Effect<StoredKeys> {
  return keys.privateKey.extractable || keys.privateKey.type !== 'private'
    ? Effect.die(new TypeError('Only a non-extractable private key may be stored.'))
    : Effect.succeed(keys)
}

/** A record read back is used only if it has the shape we wrote (an older version may have left something else). */
function isStoredKeys(value: unknown, userId: string): value is StoredKeys {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Partial<Record<keyof StoredKeys, unknown>>
  return (
    record.userId === userId &&
    typeof record.publicKey === 'string' &&
    typeof CryptoKey !== 'undefined' &&
    record.privateKey instanceof CryptoKey
  )
}

/** For tests and for a browser without IndexedDB: keys live until the page goes. */
export function memoryKeyStore(): KeyStore {
  const keys = new Map<string, StoredKeys>()
  return {
    save: (stored) =>
      Effect.map(checked(stored), (valid) => {
        keys.set(valid.userId, { userId: valid.userId, publicKey: valid.publicKey, privateKey: valid.privateKey })
      }),
    load: (userId) => Effect.sync(() => keys.get(userId)),
    forget: (userId) => Effect.sync(() => void keys.delete(userId)),
    forgetAll: (keep) =>
      Effect.sync(() => {
        for (const userId of [...keys.keys()]) if (!keep?.has(userId)) keys.delete(userId)
      }),
  }
}

const DATABASE = 'wren-keys'
const STORE = 'keys'
const VERSION = 1

function failed(message: string) {
  return () => new KeyStoreFailed({ message })
}

/** A request or transaction as a promise. */
function settle<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'))
  })
}

function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve()
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'))
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'))
  })
}

/**
 * The browser's store: database `wren-keys`, object store `keys` keyed by user id. `factory` and `name` are for the
 * smoke test; the app passes neither.
 */
export function indexedDbKeyStore(factory: IDBFactory = globalThis.indexedDB, name: string = DATABASE): KeyStore {
  let opening: Promise<IDBDatabase> | undefined

  function open(): Promise<IDBDatabase> {
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(name, VERSION)
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE))
          request.result.createObjectStore(STORE, { keyPath: 'userId' })
      }
      request.onsuccess = () => {
        const db = request.result
        // Another tab upgrading the schema: let it, and open again on the next call.
        db.onversionchange = () => {
          db.close()
          opening = undefined
        }
        resolve(db)
      }
      request.onerror = () => reject(request.error ?? new Error('IndexedDB cannot be opened'))
      request.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'))
    }).catch((cause: unknown) => {
      opening = undefined
      throw cause
    })
    return opening
  }

  /** One transaction on the store; resolves once it has committed, so a resolved save survives a reload. */
  function transact<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    return open().then(async (db) => {
      const transaction = db.transaction(STORE, mode)
      const [result] = await Promise.all([settle(work(transaction.objectStore(STORE))), committed(transaction)])
      return result
    })
  }

  return {
    save: (stored) =>
      Effect.flatMap(checked(stored), (valid) =>
        Effect.tryPromise({
          // A plain record: only these three fields go to disk, whatever else the caller's object carries.
          try: () =>
            transact('readwrite', (store) =>
              store.put({ userId: valid.userId, publicKey: valid.publicKey, privateKey: valid.privateKey }),
            ).then(() => undefined),
          catch: failed('Your encryption key could not be saved in this browser.'),
        }),
      ),
    load: (userId) =>
      Effect.tryPromise({
        try: () => transact('readonly', (store) => store.get(userId) as IDBRequest<unknown>),
        catch: failed('Your encryption key could not be read in this browser.'),
      }).pipe(Effect.map((value) => (isStoredKeys(value, userId) ? value : undefined))),
    forget: (userId) =>
      Effect.tryPromise({
        try: () => transact('readwrite', (store) => store.delete(userId)).then(() => undefined),
        catch: failed('Your encryption key could not be removed from this browser.'),
      }),
    forgetAll: (keep) =>
      Effect.tryPromise({
        try: async () => {
          if (!keep || keep.size === 0) return transact('readwrite', (store) => store.clear()).then(() => undefined)
          const userIds = await transact('readonly', (store) => store.getAllKeys())
          for (const userId of userIds) {
            if (typeof userId === 'string' && !keep.has(userId)) await transact('readwrite', (store) => store.delete(userId))
          }
        },
        catch: failed('Encryption keys could not be removed from this browser.'),
      }),
  }
}

/**
 * Logout: the conversation keys leave memory and the unwrapped keys leave the store, but for the members of `keep`
 * (signed in in other tabs of this browser, who still need theirs).
 */
export function forgetKeys(
  store: KeyStore,
  cache: Pick<ConversationKeyCache, 'clear'>,
  keep?: ReadonlySet<string>,
): Effect.Effect<void, KeyStoreFailed> {
  return Effect.sync(() => cache.clear()).pipe(Effect.andThen(store.forgetAll(keep)))
}
