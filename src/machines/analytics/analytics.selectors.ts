import type { SnapshotFrom } from 'xstate'
import type { AnalyticsMachine } from './analytics.machine'

// What the Analytics Dashboard dialog and a post's analytics view read from the analytics actor.

type Snapshot = SnapshotFrom<AnalyticsMachine>

export const selectOpen = (s: Snapshot) => !s.matches('closed') && !s.matches('starting')
export const selectView = (s: Snapshot): 'dashboard' | 'post' => (s.matches('post') ? 'post' : 'dashboard')
export const selectRange = (s: Snapshot) => s.context.range
export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectFailure = (s: Snapshot) =>
  s.matches({ dashboard: 'failed' }) || s.matches({ post: 'failed' }) ? s.context.error : null
export const selectDashboard = (s: Snapshot) => s.context.dashboard
export const selectPost = (s: Snapshot) => s.context.post
export const selectCanGoBack = (s: Snapshot) => s.matches('post') && s.context.fromDashboard
export const selectCanRetry = (s: Snapshot) => s.can({ type: 'analytics.retry' })
