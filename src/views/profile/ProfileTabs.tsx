import { useCallback, useRef, type KeyboardEvent } from 'react'
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

const tabButton = css({
  flex: 1,
  position: 'relative',
  py: '3.5',
  fontSize: 'sm',
  fontWeight: 'semibold',
  color: 'fg.muted',
  cursor: 'pointer',
  transition: 'color 120ms, background-color 120ms',
  _hover: { bg: 'bg.subtle', color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
  '&[aria-selected=true]': {
    color: 'fg.default',
    _after: {
      content: '""',
      position: 'absolute',
      left: '50%',
      bottom: 0,
      transform: 'translateX(-50%)',
      w: '14',
      h: '1',
      borderRadius: 'full',
      bg: 'accent',
    },
  },
})

export function ProfileTabs({ actor, username }: { actor: ProfileActor; username: string }) {
  const tab = useSelector(actor, selectTab)
  const buttons = useRef<Partial<Record<ProfileTab, HTMLButtonElement | null>>>({})
  const select = (next: ProfileTab) => actor.send({ type: 'profile.tab.select', tab: next })

  // Arrow keys, Home and End move the selection (WAI-ARIA tabs pattern, automatic activation).
  const onKeyDown = (event: KeyboardEvent) => {
    const index = PROFILE_TABS.indexOf(tab)
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: PROFILE_TABS.length - 1 }
    const target = moves[event.key]
    if (target === undefined) return
    event.preventDefault()
    const next = PROFILE_TABS[(target + PROFILE_TABS.length) % PROFILE_TABS.length]
    if (!next) return
    select(next)
    buttons.current[next]?.focus()
  }

  return (
    <>
      <div
        role="tablist"
        aria-label="Profile sections"
        onKeyDown={onKeyDown}
        className={css({ display: 'flex', borderBottomWidth: '1px', borderColor: 'border' })}
      >
        {PROFILE_TABS.map((t) => (
          <button
            key={t}
            ref={(node) => {
              buttons.current[t] = node
            }}
            type="button"
            role="tab"
            id={`profile-tab-${t}`}
            aria-selected={t === tab}
            aria-controls="profile-tab-panel"
            tabIndex={t === tab ? 0 : -1}
            className={tabButton}
            onClick={() => select(t)}
          >
            {LABELS[t]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="profile-tab-panel" aria-labelledby={`profile-tab-${tab}`}>
        <TabPosts actor={actor} tab={tab} username={username} />
      </div>
    </>
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
