import type { SnapshotFrom } from 'xstate'
import type { NamedGroupFormRef } from '../named-group-form/named-group-form.machine'
import { isOwnList } from './lists.rules'
import type { ListsMachine } from './lists.machine'

// What the Manage Lists dialog reads from the lists actor.

type Snapshot = SnapshotFrom<ListsMachine>

export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectFailed = (s: Snapshot) => s.matches('failed')
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectLists = (s: Snapshot) => s.context.lists
export const selectViewerId = (s: Snapshot) => s.context.viewerId
export const selectHasMore = (s: Snapshot) => s.context.cursor !== null
export const selectLoadingMore = (s: Snapshot) => s.matches({ ready: 'loadingMore' })
export const selectEditing = (s: Snapshot) => s.matches({ ready: 'form' })
export const selectSavingForm = (s: Snapshot) => s.matches({ ready: { form: 'saving' } })
/** The open form's actor (named-group-form), or undefined. */
export const selectForm = (s: Snapshot) => (s.matches({ ready: 'form' }) ? (s.children.form as NamedGroupFormRef | undefined) : undefined)
export const selectEditingId = (s: Snapshot) => s.context.editingId
/** The list the delete confirmation asks about, or null. */
export const selectDeleting = (s: Snapshot) =>
  s.matches({ ready: 'confirmingDelete' }) ? (s.context.lists.find((l) => l.id === s.context.deletingId) ?? null) : null
export const selectOwnLists = (s: Snapshot) => s.context.lists.filter((l) => isOwnList(l, s.context.viewerId))
export const selectSubscribedLists = (s: Snapshot) => s.context.lists.filter((l) => !isOwnList(l, s.context.viewerId))
/** The list whose members are shown (the members panel), or null. */
export const selectOpenList = (s: Snapshot) =>
  s.matches({ ready: 'members' }) ? (s.context.lists.find((l) => l.id === s.context.openId) ?? null) : null
export const selectMembersLoading = (s: Snapshot) => s.matches({ ready: { members: 'loading' } })
export const selectMembers = (s: Snapshot) => s.context.members
export const selectQuery = (s: Snapshot) => s.context.query
export const selectSearching = (s: Snapshot) => s.hasTag('searching')
export const selectSearchFailed = (s: Snapshot) => s.matches({ ready: { members: { browsing: 'searchFailed' } } })
/** Search results, each with whether it is on the open list already. */
export const selectResults = (s: Snapshot) =>
  s.context.results.map((u) => ({ user: u, onList: s.context.members.some((m) => m.id === u.id) }))
/** Why the members could not be read: the first page (Try again) or the last Load more (rows stay). */
export const selectMembersFailed = (s: Snapshot) => s.matches({ ready: { members: 'failed' } })
export const selectMembersError = (s: Snapshot) => s.context.membersError
export const selectMembersHasMore = (s: Snapshot) => s.context.membersCursor !== null
export const selectMembersLoadingMore = (s: Snapshot) => s.matches({ ready: { members: 'loadingMore' } })
