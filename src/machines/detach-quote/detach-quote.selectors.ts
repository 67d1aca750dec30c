import type { SnapshotFrom } from 'xstate'
import type { DetachQuoteMachine } from './detach-quote.machine'

type Snapshot = SnapshotFrom<DetachQuoteMachine>

/** The confirm dialog shows while the member decides and while the detach is on its way. */
export const selectConfirmOpen = (s: Snapshot) => s.matches('confirming') || s.matches('detaching')
export const selectDetaching = (s: Snapshot) => s.matches('detaching')
