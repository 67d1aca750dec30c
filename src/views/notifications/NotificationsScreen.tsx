import { followRequestsMachine } from '../../machines/follow-requests/follow-requests.machine'
import { ScreenActor } from '../actors'
import { ComingSoon } from '../ui/ComingSoon'
import { PageHeader } from '../ui/PageHeader'
import { FollowRequestsEntry } from './FollowRequestsEntry'

// Notifications: the Follow requests entry (its actor reads the first page of requests for the count), then the
// notifications themselves, which are still to come.

export function NotificationsScreen() {
  return (
    <>
      <PageHeader title="Notifications" />
      <ScreenActor logic={followRequestsMachine}>{(requests) => <FollowRequestsEntry actor={requests} />}</ScreenActor>
      <ComingSoon icon="bell" title="Notifications are coming soon">
        When someone interacts with your posts, you&apos;ll see it here.
      </ComingSoon>
    </>
  )
}
