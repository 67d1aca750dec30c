import type { SnapshotFrom } from 'xstate'
import type { ExportMachine } from './export.machine'
import { latest, stateOf } from './export.rules'

type Snapshot = SnapshotFrom<ExportMachine>

export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectSaving = (s: Snapshot) => s.matches('saving')
export const selectLoadError = (s: Snapshot) => (s.matches('failed') ? s.context.error : null)
export const selectState = (s: Snapshot) => stateOf(s.context.exports)
export const selectLatest = (s: Snapshot) => latest(s.context.exports)
export const selectSaved = (s: Snapshot) => s.context.saved
export const selectCanRequest = (s: Snapshot) => s.can({ type: 'export.request' })
export const selectCanDownload = (s: Snapshot) => s.can({ type: 'export.download' })
