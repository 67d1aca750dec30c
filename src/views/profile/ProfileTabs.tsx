import { useCallback } from 'react'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { css } from 'styled-system/css'
import { PROFILE_TABS, type ProfileTab } from '../../api/users.calls'
import type { ProfileMachine } from '../../machines/profile/profile.machine'
import {
  selectCanLoadMore,
  selectEntries,
  selectIsLoadingMore,
  selectIsOwner,
  selectIsTabLoading,
  selectLoadMoreFailed,
  selectTab,
  selectTabError,
} from '../../machines/profile/profile.selectors'
import { FeedSkeleton } from '../home/FeedStates'
import { PostList } from '../post/PostList'
import { Tabs } from '../ui/Tabs'
import { LoadError } from './LoadError'

// Posts, Replies, Media, Likes: a tab list (arrow keys move between tabs) over the open tab's posts, which the profile
// actor loads from the server for that tab.

type ProfileActor = ActorRefFrom<ProfileMachine>

const LABELS: Record<ProfileTab, string> = { posts: 'Posts', replies: 'Replies', media: 'Media', likes: 'Likes' }

/** What an empty tab says, for the member themselves and for a visitor. */
const EMPTY: Record<ProfileTab, { own: [string, string]; other: (u: string) => [string, string] }> = {
  posts: {
    own: ["You haven't posted yet", 'Your posts and reposts will show here.'],
    other: (u) => [`@${u} hasn't posted yet`, 'When they post, it will show here.'],
  },
  replies: {
    own: ['No replies yet', 'Your replies to other posts will show here.'],
    other: (u) => ['No replies yet', `When @${u} replies to a post, it will show here.`],
  },
  media: {
    own: ['No photos or videos yet', 'Posts with photos or videos you share will show here.'],
    other: (u) => ['No photos or videos yet', `Photos and videos @${u} shares will show here.`],
  },
  likes: {
    own: ['No likes yet', 'Posts you like will show here.'],
    other: (u) => ['No likes yet', `Posts @${u} likes will show here.`],
  },
}

export function ProfileTabs({ actor, username }: { actor: ProfileActor; username: string }) {
  const tab = useSelector(actor, selectTab)
  return (
    <Tabs
      label="Profile sections"
      idPrefix="profile"
      tabs={PROFILE_TABS}
      labels={LABELS}
      selected={tab}
      onSelect={(next) => actor.send({ type: 'profile.tab.select', tab: next })}
    >
      <TabPosts actor={actor} tab={tab} username={username} />
    </Tabs>
  )
}

function TabPosts({ actor, tab, username }: { actor: ProfileActor; tab: ProfileTab; username: string }) {
  const entries = useSelector(actor, selectEntries)
  const loading = useSelector(actor, selectIsTabLoading)
  const error = useSelector(actor, selectTabError)
  const owner = useSelector(actor, selectIsOwner)
  const canLoadMore = useSelector(actor, selectCanLoadMore)
  const loadingMore = useSelector(actor, selectIsLoadingMore)
  const loadMoreFailed = useSelector(actor, selectLoadMoreFailed)
  const loadMore = useCallback(() => actor.send({ type: loadMoreFailed ? 'profile.list.retry' : 'profile.more' }), [actor, loadMoreFailed])

  if (loading) return <FeedSkeleton />
  if (error) return <LoadError message={error} onRetry={() => actor.send({ type: 'profile.list.retry' })} />
  if (entries.length === 0) {
    const [title, hint] = owner ? EMPTY[tab].own : EMPTY[tab].other(username)
    return (
      <div className={css({ textAlign: 'center', px: '6', py: '14' })}>
        <p className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{title}</p>
        <p className={css({ color: 'fg.muted', mt: '1' })}>{hint}</p>
      </div>
    )
  }
  return (
    <PostList
      entries={entries}
      label={`${LABELS[tab]} by @${username}`}
      canLoadMore={canLoadMore}
      onLoadMore={loadMore}
      loadingMore={loadingMore}
      loadMoreFailed={loadMoreFailed}
    />
  )
}
