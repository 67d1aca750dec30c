// The other member's public key as this browser last saw it, per conversation (issue 9: "a changed key shows a
// warning"). A key that differs from the one remembered means either they re-registered keys or the server is
// handing out a key it controls; the conversation says so until the member accepts the new safety number. Storage
// may be missing or throw (private modes, node tests): then nothing is remembered and no warning can show.

export const seenKeyName = (conversationId: string) => `wren.dm.seen-key.${conversationId}`

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

export function readSeenKey(conversationId: string): string | null {
  try {
    return storage()?.getItem(seenKeyName(conversationId)) ?? null
  } catch {
    return null
  }
}

export function writeSeenKey(conversationId: string, publicKey: string): void {
  try {
    storage()?.setItem(seenKeyName(conversationId), publicKey)
  } catch {
    // The warning may show again in the next session; nothing is lost.
  }
}
