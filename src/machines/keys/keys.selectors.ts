import type { KeysSnapshot } from './keys'

// What Settings -> Security shows about the member's message key: whether it is set up in this browser, and if not,
// why (the reason the keys actor kept). Nothing secret: the status and a sentence.

export interface KeyStatusView {
  /** 'Message key: ready' | 'Message key: missing' | 'Message key: unavailable' | 'Message key: checking' */
  label: string
  detail: string
}

export function selectKeyStatus(snapshot: KeysSnapshot): KeyStatusView {
  if (snapshot.hasTag('busy')) return { label: 'Message key: checking', detail: 'Looking for your key in this browser.' }
  const { status, reason } = snapshot.context
  const detail =
    status === 'ready'
      ? (reason ?? 'Your direct messages are end-to-end encrypted with a key only this browser can use.')
      : (reason ?? 'Your message key is not set up in this browser.')
  return { label: `Message key: ${status}`, detail }
}
