import { characters, pageBodyProblem } from '../../api/contract/instance-pages'
import type { InstancePagesMachine } from './instance-pages.machine'
import type { SnapshotFrom } from 'xstate'

// What the Instance pages editor shows, one narrow selector each.

type Snapshot = SnapshotFrom<InstancePagesMachine>

export const selectSlug = (s: Snapshot) => s.context.slug
export const selectDraft = (s: Snapshot) => s.context.drafts[s.context.slug]
export const selectView = (s: Snapshot) => s.context.view
export const selectResult = (s: Snapshot) => s.context.result
export const selectLogVersion = (s: Snapshot) => s.context.logVersion
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectSaving = (s: Snapshot) => s.matches('saving')
export const selectCanSave = (s: Snapshot) => s.can({ type: 'pages.save' })
export const selectCount = (s: Snapshot) => characters(selectDraft(s))
/** The saved page of the selected tab (null while loading). */
export const selectSaved = (s: Snapshot) => s.context.saved?.[s.context.slug] ?? null
/** Unsaved changes on the selected tab. */
export const selectDirty = (s: Snapshot) => s.context.saved !== null && selectDraft(s) !== s.context.saved[s.context.slug].body
/** Why the draft cannot be saved, shown as soon as the admin changes it (not for the untouched text). */
export const selectProblem = (s: Snapshot) => (selectDirty(s) ? pageBodyProblem(selectDraft(s)) : null)
