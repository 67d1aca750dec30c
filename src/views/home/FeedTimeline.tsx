import { useCallback, type ReactNode } from 'react'
import { useSelector } from '@xstate/react'
import type { FeedRef } from '../../machines/feed/feed.machine'
import {
  selectCanLoadMore,
  selectEntries,
  selectError,
  selectIsLoading,
  selectIsLoadingMore,
  selectLoadFailed,
  selectLoadMoreFailed,
} from '../../machines/feed/feed.selectors'
import { PostList } from '../post/PostList'
import { FeedError, FeedSkeleton } from './FeedStates'

/**
 * A feed actor's posts (Home, a list's page): placeholders while the first page loads, the error with a retry, the
 * screen's own empty state, then the post cards with infinite scroll.
 */
export function FeedTimeline({
  feed,
  label,
  errorTitle,
  empty,
}: {
  feed: FeedRef
  /** The post list's accessible name ('Home feed'). */
  label: string
  /** The error's heading, when the screen says more than "Couldn't load your feed". */
  errorTitle?: string
  empty: ReactNode
}) {
  const entries = useSelector(feed, selectEntries)
  const loading = useSelector(feed, selectIsLoading)
  const failed = useSelector(feed, selectLoadFailed)
  const error = useSelector(feed, selectError)
  const canLoadMore = useSelector(feed, selectCanLoadMore)
  const loadingMore = useSelector(feed, selectIsLoadingMore)
  const loadMoreFailed = useSelector(feed, selectLoadMoreFailed)
  const loadMore = useCallback(() => feed.send({ type: 'feed.loadMore' }), [feed])

  if (loading) return <FeedSkeleton />
  if (failed) return <FeedError title={errorTitle} message={error} onRetry={() => feed.send({ type: 'feed.retry' })} />
  if (entries.length === 0) return empty
  return (
    <PostList
      entries={entries}
      label={label}
      canLoadMore={canLoadMore}
      onLoadMore={loadMore}
      loadingMore={loadingMore}
      loadMoreFailed={loadMoreFailed}
      endNote="You're all caught up"
    />
  )
}
