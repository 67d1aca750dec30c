import type { SnapshotFrom } from 'xstate'
import type { ProfileMachine } from './profile.machine'
import { isOwnProfile } from './profile.rules'

// Narrow reads of the profile actor for the views (one useSelector each).
type ProfileSnapshot = SnapshotFrom<ProfileMachine>

export const selectIsLoading = (s: ProfileSnapshot) => s.hasTag('loading')
export const selectIsNotFound = (s: ProfileSnapshot) => s.matches('notFound')
export const selectLoadError = (s: ProfileSnapshot) => (s.matches('error') ? s.context.error : null)
export const selectUser = (s: ProfileSnapshot) => s.context.user
export const selectIsOwner = (s: ProfileSnapshot) => isOwnProfile(s.context.user, s.context.viewerId)
export const selectFollow = (s: ProfileSnapshot) => s.context.follow
export const selectTab = (s: ProfileSnapshot) => s.context.tab
export const selectEntries = (s: ProfileSnapshot) => s.context.entries
export const selectIsTabLoading = (s: ProfileSnapshot) => s.hasTag('listLoading')
export const selectTabError = (s: ProfileSnapshot) =>
  s.matches({ loaded: { list: 'failed' } }) ? s.context.listError : null
export const selectCanLoadMore = (s: ProfileSnapshot) => s.can({ type: 'profile.more' })
export const selectIsLoadingMore = (s: ProfileSnapshot) => s.hasTag('busy')
export const selectLoadMoreFailed = (s: ProfileSnapshot) => s.matches({ loaded: { list: 'moreFailed' } })
/** Which image is uploading: 'avatar', 'banner' or null. */
export const selectUploading = (s: ProfileSnapshot) => s.context.uploading
/** A private account the viewer neither owns nor follows: the header only, no tabs. */
export const selectIsRestricted = (s: ProfileSnapshot) => s.context.user?.restricted === true
