import type { SnapshotFrom } from 'xstate'
import type { SettingsPageMachine } from './settings-page.machine'
import { DIALOG_IDS, type DialogId } from './settings-page.rules'

// What the Settings page reads from its actor.

type Snapshot = SnapshotFrom<SettingsPageMachine>

export const selectSection = (s: Snapshot) => s.context.section
/** The open dialog of the page's own, or null. */
export const selectDialog = (s: Snapshot): DialogId | null => DIALOG_IDS.find((id) => s.matches({ dialog: id })) ?? null
export const selectBookmarksActor = (s: Snapshot) => s.context.bookmarks
