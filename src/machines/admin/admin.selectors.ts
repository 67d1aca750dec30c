import type { SnapshotFrom } from 'xstate'
import type { AdminMachine } from './admin.machine'
import { CONFIRM, type AdminOperation } from './admin.rules'

type Snapshot = SnapshotFrom<AdminMachine>

export const selectUserId = (s: Snapshot) => s.context.userId
export const selectUsername = (s: Snapshot) => s.context.username
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
/** The operation running now (its button shows a spinner), or null. */
export const selectRunning = (s: Snapshot): AdminOperation | null => (s.matches('running') ? s.context.operation : null)
/** The confirm to show, or null. */
export const selectConfirm = (s: Snapshot): string | null =>
  s.matches('confirming') && s.context.operation ? (CONFIRM[s.context.operation] ?? null) : null
export const selectResult = (operation: AdminOperation) => (s: Snapshot) => s.context.results[operation] ?? null
export const selectLogVersion = (s: Snapshot) => s.context.logVersion
