import type { SnapshotFrom } from 'xstate'
import { canSubmitDraft } from './mutes.rules'
import type { MutesMachine } from './mutes.machine'

// What Settings -> Mutes and its Mute Management dialog read from the mutes actor.

type Snapshot = SnapshotFrom<MutesMachine>

export const selectOpen = (s: Snapshot) => s.matches('open')
export const selectTab = (s: Snapshot) => s.context.tab
export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectFailed = (s: Snapshot) => s.matches({ open: 'failed' })
export const selectSaving = (s: Snapshot) => s.hasTag('busy')
export const selectLoadingMore = (s: Snapshot) => s.matches({ open: { ready: 'loadingMore' } })
export const selectUsers = (s: Snapshot) => s.context.users
export const selectKeywords = (s: Snapshot) => s.context.keywords
export const selectDomains = (s: Snapshot) => s.context.domains
export const selectHasMore = (s: Snapshot) => s.context.nextCursor !== null
export const selectKeywordDraft = (s: Snapshot) => s.context.keywordDraft
export const selectDomainDraft = (s: Snapshot) => s.context.domainDraft
export const selectKeywordError = (s: Snapshot) => s.context.keywordError
export const selectDomainError = (s: Snapshot) => s.context.domainError
/** Add is offered once something is typed and nothing is saving. */
export const selectCanAddKeyword = (s: Snapshot) =>
  s.matches({ open: 'ready' }) && canSubmitDraft(s.context.keywordDraft, s.hasTag('busy'))
export const selectCanAddDomain = (s: Snapshot) =>
  s.matches({ open: 'ready' }) && canSubmitDraft(s.context.domainDraft, s.hasTag('busy'))
