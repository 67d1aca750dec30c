import type { SnapshotFrom } from 'xstate'
import type { AddToListMachine } from './add-to-list.machine'

// What a profile's "Add to list" dialog reads from its actor.

type Snapshot = SnapshotFrom<AddToListMachine>

export const selectOpen = (s: Snapshot) => !s.matches('closed')
export const selectLoading = (s: Snapshot) => s.matches('loading')
export const selectFailed = (s: Snapshot) => s.matches('failed')
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectHasMore = (s: Snapshot) => s.context.cursor !== null
/** One checkbox per list: checked while the member is on it (or being added to it). */
export const selectChoices = (s: Snapshot) =>
  s.context.lists.map((list) => ({
    list,
    checked: s.context.pending?.listId === list.id ? s.context.pending.add : (list.hasMember ?? false),
    saving: s.context.pending?.listId === list.id,
  }))
