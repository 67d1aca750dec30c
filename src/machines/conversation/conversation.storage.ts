// This browser's copy of the member's sealed trust record for a contact (src/crypto/trust-record.ts): the server keeps
// the record so every device knows it, and this copy is what the browser saw last. When the server answers no record
// but this browser has one, the copy is used: a server cannot make a browser that saw the record forget the key it
// accepted by deleting it. Storage may be missing or throw (private modes, node tests): then only the server's copy
// counts.

export const trustCacheName = (ownerId: string, contactId: string) => `wren.dm.trust.${ownerId}.${contactId}`

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

export function readCachedRecord(ownerId: string, contactId: string): string | null {
  try {
    return storage()?.getItem(trustCacheName(ownerId, contactId)) ?? null
  } catch {
    return null
  }
}

export function writeCachedRecord(ownerId: string, contactId: string, record: string): void {
  try {
    storage()?.setItem(trustCacheName(ownerId, contactId), record)
  } catch {
    // The server's copy still counts; nothing is lost.
  }
}
