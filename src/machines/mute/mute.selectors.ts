import type { SnapshotFrom } from 'xstate'
import { checkReason } from '../mutes/mutes.rules'
import type { MuteMachine } from './mute.machine'

type Snapshot = SnapshotFrom<MuteMachine>

/** The confirm dialog shows while the member decides and while the mute is on its way. */
export const selectConfirmOpen = (s: Snapshot) => s.matches('confirming') || s.matches('muting')
export const selectMuting = (s: Snapshot) => s.matches('muting')
/** The profile's button: Unmute while the member is muted (and while the unmute is on its way), else Mute. */
export const selectIsMuted = (s: Snapshot) => s.context.muted
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectReason = (s: Snapshot) => s.context.reason
/** Why the reason is refused (too long), shown under it; null when it may be sent. */
export const selectReasonError = (s: Snapshot) => {
  const checked = checkReason(s.context.reason)
  return checked.ok ? null : checked.message
}
export const selectCanConfirm = (s: Snapshot) => s.matches('confirming') && checkReason(s.context.reason).ok
