import { ComingDialog, type SettingsDialogProps } from './DialogSlot'

// Settings -> Reports' dialog (spec: "Reports Management: tabs Pending, Reviewed, Resolved and a detail pane").
// Placeholder until the Reports feature replaces this file with the real dialog (same props).
export function ReportsManagementDialog({ onClose }: SettingsDialogProps) {
  return (
    <ComingDialog title="Reports Management" icon="flag" onClose={onClose}>
      Reports and their review (pending, reviewed, resolved) are on their way. You will follow each one here.
    </ComingDialog>
  )
}
