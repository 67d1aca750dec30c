import type { FollowListKind } from '../../machines/follow-list/follow-list.machine'
import { FollowList } from './FollowList'
import { PageHeader } from '../ui/PageHeader'

export function FollowListScreen({ username, kind }: { username: string; kind: FollowListKind }) {
  const title = kind === 'followers' ? 'Followers' : 'Following'
  return (
    <>
      <PageHeader
        title={title}
        subtitle={`@${username}`}
        backTo={`/profile/${encodeURIComponent(username)}`}
        backLabel={`Back to @${username}`}
      />
      {/* A new list (and actor) for each member and direction: both routes render this same component. */}
      <FollowList key={`${kind}:${username}`} username={username} kind={kind} />
    </>
  )
}
