import { useEffect } from 'react'
import { useSelector } from '@xstate/react'
import { reportsMachine, type ReportsRef } from '../../../machines/reports/reports.machine'
import { selectOpen } from '../../../machines/reports/reports.selectors'
import { selectIsAdmin } from '../../../machines/session/session.selectors'
import { ScreenActor, useSession } from '../../actors'
import { ReportsManagementDialog as Reports } from '../ReportsManagementDialog'
import type { SettingsDialogProps } from './DialogSlot'

// Settings -> Reports' dialog: Reports Management with a report review actor of its own, opened at once.
// Administrators review every report; a member reads their own, read-only. When the actor closes (Escape, the
// backdrop, the close button), the page closes the dialog too.
export function ReportsManagementDialog({ onClose }: SettingsDialogProps) {
  const isAdmin = useSelector(useSession(), selectIsAdmin)
  return (
    <ScreenActor logic={reportsMachine} input={{ open: true, canReview: isAdmin }}>
      {(actor) => <Opened actor={actor} onClose={onClose} />}
    </ScreenActor>
  )
}

function Opened({ actor, onClose }: { actor: ReportsRef } & SettingsDialogProps) {
  const open = useSelector(actor, selectOpen)
  useEffect(() => {
    if (!open) onClose()
  }, [open, onClose])
  return <Reports actor={actor} />
}
