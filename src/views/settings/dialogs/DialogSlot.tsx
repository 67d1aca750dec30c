// The props every Settings dialog of the page's own takes (src/views/settings/dialogs/*): it is rendered only while
// open, and asks to close through `onClose` (Escape, the backdrop, its close button). Each one runs the actor of its
// feature (lists, reports, analytics) while it is open.
export interface SettingsDialogProps {
  onClose: () => void
}
