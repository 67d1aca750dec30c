import type { SnapshotFrom } from 'xstate'
import type { NamedGroupFormMachine } from './named-group-form.machine'

// What the list / collection form reads from its actor.

type Snapshot = SnapshotFrom<NamedGroupFormMachine>

export const selectDraft = (s: Snapshot) => s.context.draft
export const selectEditing = (s: Snapshot) => s.context.editing
export const selectError = (s: Snapshot) => s.context.error
/** Saving: fields and buttons wait for the dialog's answer. */
export const selectSaving = (s: Snapshot) => s.hasTag('busy')
