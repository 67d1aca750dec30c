import type { DataExport } from '../../api/exports.calls'

// What Settings -> Account -> Export my data says (docs/product.md, "Exporting your data"), as pure functions the
// machine, the selectors and the tests share.

export const EXPORT_TITLE = 'Export my data'
export const EXPORT_INTRO = 'A zip of your posts and media, replies, likes, follows, lists, bookmarks, mutes and blocks. Your browser adds your messages.'
export const EXPORT_PREPARING = 'Preparing… We’ll notify you when it’s ready.'
export const EXPORT_STARTED = 'We’re preparing your data. We’ll notify you when it’s ready.'
export const EXPORT_FAILED = 'The export could not be prepared.'
export const EXPORT_REQUEST_FAILED = 'Could not start the export. Try again.'
export const EXPORTS_LOAD_FAILED = 'Could not load your exports.'
export const DOWNLOAD_FAILED = 'Could not download your data. Try again.'
export const SAVED_WITH_MESSAGES = (count: number) =>
  count === 0 ? 'Saved. You have no conversations to add.' : `Saved with your messages (${count} ${count === 1 ? 'conversation' : 'conversations'}).`
export const SAVED_WITHOUT_MESSAGES = (reason: string) => `Saved without your messages: ${reason}`

export type ExportState = 'none' | 'preparing' | 'ready' | 'failed'

/** The export the row is about: the newest (the server lists newest first). */
export function latest(exports: ReadonlyArray<DataExport>): DataExport | undefined {
  return exports[0]
}

export function stateOf(exports: ReadonlyArray<DataExport>): ExportState {
  return latest(exports)?.status ?? 'none'
}

/** "Ready until 4 December 2026" in the member's language. */
export function readyUntil(expiresAt: string, locale?: string): string {
  const day = new Date(expiresAt).toLocaleDateString(locale, { day: 'numeric', month: 'long', year: 'numeric' })
  return `Ready until ${day}`
}

/** "1.2 MB". */
export function sizeText(bytes: number | null): string {
  if (bytes === null) return ''
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** The saved file's name: the account and the day it was asked for. */
export function archiveName(username: string, createdAt: string): string {
  return `${username}-${createdAt.slice(0, 10)}.zip`
}
