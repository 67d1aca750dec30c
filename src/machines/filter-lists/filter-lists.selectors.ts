import { canSubmitDraft, type FilterList } from './filter-lists.rules'
import type { FilterListsContext, FilterListsTag } from './filter-lists.machine'

// What the Blocked Accounts section and the Mute Management dialog read from a lists actor, whichever members it lists.

interface Snapshot<U> {
  context: FilterListsContext<U>
  hasTag: (tag: FilterListsTag) => boolean
}

export const selectLoading = <U>(s: Snapshot<U>) => s.hasTag('loading')
export const selectFailed = <U>(s: Snapshot<U>) => s.hasTag('failed')
export const selectSaving = <U>(s: Snapshot<U>) => s.hasTag('busy')
export const selectLoadingMore = <U>(s: Snapshot<U>) => s.hasTag('loadingMore')
export const selectUsers = <U>(s: Snapshot<U>) => s.context.users
export const selectHasMore = <U>(s: Snapshot<U>) => s.context.nextCursor !== null
export const selectValues = (list: FilterList) => <U>(s: Snapshot<U>) => s.context.lists[list]
export const selectDraft = (list: FilterList) => <U>(s: Snapshot<U>) => s.context.drafts[list]
export const selectError = (list: FilterList) => <U>(s: Snapshot<U>) => s.context.errors[list]
/** Add is offered once something is typed and nothing is saving. */
export const selectCanAdd = (list: FilterList) => <U>(s: Snapshot<U>) =>
  s.hasTag('ready') && canSubmitDraft(s.context.drafts[list], s.hasTag('busy'))
