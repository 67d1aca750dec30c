import { ComingSoon } from '../ui/ComingSoon'
import { PageHeader } from '../ui/PageHeader'

export function NotificationsScreen() {
  return (
    <>
      <PageHeader title="Notifications" />
      <ComingSoon icon="bell" title="Notifications are coming soon">
        When someone interacts with your posts, you&apos;ll see it here.
      </ComingSoon>
    </>
  )
}
