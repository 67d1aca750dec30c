import type { SnapshotFrom } from 'xstate'
import { isOwnList } from '../lists/lists.rules'
import type { ListPageMachine } from './list-page.machine'

// What the list page reads from its actor.

type Snapshot = SnapshotFrom<ListPageMachine>

export const selectLoading = (s: Snapshot) => s.matches('loading')
export const selectMissing = (s: Snapshot) => s.matches('missing')
export const selectFailed = (s: Snapshot) => s.matches('failed')
export const selectError = (s: Snapshot) => s.context.error
export const selectList = (s: Snapshot) => s.context.list
export const selectMembers = (s: Snapshot) => s.context.members
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectIsOwner = (s: Snapshot) => s.context.list !== null && isOwnList(s.context.list, s.context.viewerId)
export const selectCanSubscribe = (s: Snapshot) => s.can({ type: 'listPage.subscribe' })
export const selectCanUnsubscribe = (s: Snapshot) => s.can({ type: 'listPage.unsubscribe' })
