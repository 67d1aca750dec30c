import { useSelector } from '@xstate/react'
import { listsMachine } from '../../../machines/lists/lists.machine'
import { selectUserId } from '../../../machines/session/session.selectors'
import { ScreenActor, useSession } from '../../actors'
import { ManageListsDialog as Manage } from '../../lists/ManageListsDialog'
import type { SettingsDialogProps } from './DialogSlot'

// Settings -> Lists' dialog: Manage Lists (src/views/lists) with a lists actor of its own, which reads the member's
// lists afresh each time it opens and stops when it closes.
export function ManageListsDialog({ onClose }: SettingsDialogProps) {
  const viewerId = useSelector(useSession(), selectUserId) ?? ''
  return (
    <ScreenActor logic={listsMachine} input={{ viewerId }}>
      {(actor) => <Manage actor={actor} onClose={onClose} />}
    </ScreenActor>
  )
}
