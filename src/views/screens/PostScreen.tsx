import { ComingSoon } from '../ui/ComingSoon'
import { PageHeader } from '../ui/PageHeader'

export function PostScreen() {
  return (
    <>
      <PageHeader title="Post" backTo="/" backLabel="Back to Home" />
      <ComingSoon icon="messages" title="Posts and replies are coming soon">
        A post with its whole conversation will open here.
      </ComingSoon>
    </>
  )
}
