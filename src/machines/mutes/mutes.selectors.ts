import type { SnapshotFrom } from 'xstate'
import type { MutesMachine } from './mutes.machine'

// What Settings -> Mutes and its Mute Management dialog read from the mutes actor; the lists inside the open dialog
// are read from its lists actor (filter-lists.selectors.ts).

type Snapshot = SnapshotFrom<MutesMachine>

export const selectOpen = (s: Snapshot) => s.matches('open')
export const selectTab = (s: Snapshot) => s.context.tab
export const selectLists = (s: Snapshot) => s.context.lists
