import type { Readable } from 'node:stream'

/**
 * Where uploaded media live. Keys are relative paths made by the server (`posts/<random>.webp`), never by members.
 * Local disk is the only implementation today; the interface is what an object store would implement too.
 */
export interface Storage {
  /** Stores `data` under `key`, replacing nothing: keys are random and written once. */
  put(key: string, data: Buffer | Readable, contentType: string): Promise<void>
  /** Removes the object; a missing one is not an error (deletes are retried after failures). */
  delete(key: string): Promise<void>
  /** The public URL the SPA loads the object from. */
  url(key: string): string
  /** The key behind a URL this storage made (an avatar column holds the URL), or undefined for any other URL. */
  keyOf(url: string | null | undefined): string | undefined
  /** The object's bytes to stream out (private files served through the API), or undefined when there is none. */
  open(key: string): Promise<Readable | undefined>
  /** Whether the object exists (tests and maintenance; not on request paths). */
  exists(key: string): Promise<boolean>
}

/** Only the characters the server itself uses in keys: a key never climbs out of the storage root. */
const KEY_SHAPE = /^[a-z0-9]+(?:\/[A-Za-z0-9_-]+)*\.[a-z0-9]+$/

export function assertValidKey(key: string): void {
  if (!KEY_SHAPE.test(key)) throw new Error(`Invalid storage key "${key}"`)
}

export function isValidKey(key: string): boolean {
  return KEY_SHAPE.test(key)
}

/**
 * Deletes keys one by one, never throwing: used after a transaction committed (the rows are gone, a file left behind
 * is only wasted space) and when a failed upload cleans up. Failures are reported to `onError` for the log.
 */
export async function deleteQuietly(
  storage: Storage,
  keys: Iterable<string>,
  onError: (key: string, err: unknown) => void = () => undefined,
): Promise<void> {
  for (const key of keys) {
    try {
      await storage.delete(key)
    } catch (err) {
      onError(key, err)
    }
  }
}
