import { ComingDialog, type SettingsDialogProps } from './DialogSlot'

// Settings -> Analytics' dialog (spec: "Analytics Dashboard: time range selector"). Placeholder until the Analytics
// feature replaces this file with the real dialog (same props).
export function AnalyticsDashboardDialog({ onClose }: SettingsDialogProps) {
  return (
    <ComingDialog title="Analytics Dashboard" icon="chart" onClose={onClose}>
      Your totals, top posts and daily trends over 7, 30 or 90 days are on their way. You will see them here.
    </ComingDialog>
  )
}
