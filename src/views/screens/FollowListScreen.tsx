import { ComingSoon } from '../ui/ComingSoon'
import { PageHeader } from '../ui/PageHeader'

export function FollowListScreen({ username, kind }: { username: string; kind: 'followers' | 'following' }) {
  const title = kind === 'followers' ? 'Followers' : 'Following'
  return (
    <>
      <PageHeader
        title={title}
        subtitle={`@${username}`}
        backTo={`/profile/${encodeURIComponent(username)}`}
        backLabel={`Back to @${username}`}
      />
      <ComingSoon icon="user" title={`${title} lists are coming soon`}>
        {kind === 'followers' ? `Who follows @${username} will show here.` : `Who @${username} follows will show here.`}
      </ComingSoon>
    </>
  )
}
