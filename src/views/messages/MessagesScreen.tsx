import { ComingSoon } from '../ui/ComingSoon'
import { PageHeader } from '../ui/PageHeader'

export function MessagesScreen({ conversationId }: { conversationId?: string }) {
  return (
    <>
      <PageHeader title="Messages" backTo={conversationId ? '/messages' : undefined} backLabel="Back to Messages" />
      <ComingSoon icon="messages" title="Private messages are coming soon">
        Send private messages to other users, one conversation at a time.
      </ComingSoon>
    </>
  )
}
