import { ComingDialog, type SettingsDialogProps } from './DialogSlot'

// Settings -> Lists' dialog (spec: "Manage Lists: New List, Close, form, list of lists"). Placeholder until the Lists
// feature replaces this file with the real dialog (same props).
export function ManageListsDialog({ onClose }: SettingsDialogProps) {
  return (
    <ComingDialog title="Manage Lists" icon="list" onClose={onClose}>
      Lists of people, each with its own timeline, are on their way. You will create, edit and share them here.
    </ComingDialog>
  )
}
