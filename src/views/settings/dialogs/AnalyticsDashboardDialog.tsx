import { useEffect } from 'react'
import { useSelector } from '@xstate/react'
import { analyticsMachine, type AnalyticsRef } from '../../../machines/analytics/analytics.machine'
import { selectOpen } from '../../../machines/analytics/analytics.selectors'
import { ScreenActor } from '../../actors'
import { AnalyticsDashboardDialog as Dashboard } from '../../analytics/AnalyticsDashboardDialog'
import type { SettingsDialogProps } from './DialogSlot'

// Settings -> Analytics' dialog: the Analytics Dashboard (src/views/analytics) with an analytics actor of its own,
// opened at once; when that actor closes (Escape, the backdrop, the close button), the page closes the dialog too.
export function AnalyticsDashboardDialog({ onClose }: SettingsDialogProps) {
  return (
    <ScreenActor logic={analyticsMachine} input={{ open: true }}>
      {(actor) => <Opened actor={actor} onClose={onClose} />}
    </ScreenActor>
  )
}

function Opened({ actor, onClose }: { actor: AnalyticsRef } & SettingsDialogProps) {
  const open = useSelector(actor, selectOpen)
  useEffect(() => {
    if (!open) onClose()
  }, [open, onClose])
  return <Dashboard actor={actor} />
}
