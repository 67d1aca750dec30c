import type { SnapshotFrom } from 'xstate'
import type { NewMessageMachine } from './new-message.machine'
import { NO_USERS_FOUND, SEARCH_FAILED } from './new-message.rules'

// What the New Message modal reads from its actor.

type Snapshot = SnapshotFrom<NewMessageMachine>

export const selectIsOpen = (s: Snapshot) => !s.matches('closed')
export const selectQuery = (s: Snapshot) => s.context.query
export const selectSearching = (s: Snapshot) => s.hasTag('searching')
export const selectResults = (s: Snapshot) => s.context.results
/** The keys actor's reason, shown instead of the search when no conversation can be started from this browser. */
export const selectKeysReason = (s: Snapshot) => (s.matches('keysUnavailable') ? s.context.keysReason : null)
/** 'No users found' after a search that found nobody (but the viewer), or why the search failed. */
export function selectNotice(s: Snapshot): string | null {
  if (s.matches({ open: 'failed' })) return SEARCH_FAILED
  if (s.matches({ open: 'shown' }) && s.context.results.length === 0) return NO_USERS_FOUND
  return null
}
