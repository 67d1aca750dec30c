import { useCallback } from 'react'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { SearchRef } from '../../machines/search/search.machine'
import {
  selectCanLoadMore,
  selectEntries,
  selectError,
  selectHashtags,
  selectIsLoadingMore,
  selectLoadMoreFailed,
  selectPhase,
  selectTab,
  selectTerm,
  selectUsers,
} from '../../machines/search/search.selectors'
import { FeedSkeleton } from '../home/FeedStates'
import { PostList } from '../post/PostList'
import { LoadError } from '../profile/LoadError'
import { Icon } from '../ui/Icon'
import { Spinner } from '../ui/Spinner'
import { UserRow } from './UserRow'

// The open tab's results: placeholders while searching, the error with Try again, the empty text, or the list
// (posts page on as the member scrolls; users and hashtags have Load more).

const EMPTY_TEXT = {
  posts: (q: string) => `No posts found for "${q}"`,
  users: (q: string) => `No users found for "${q}"`,
  hashtags: (q: string) => `No hashtags found for "${q}"`,
}

export function SearchResults({ search }: { search: SearchRef }) {
  const phase = useSelector(search, selectPhase)
  const tab = useSelector(search, selectTab)
  const term = useSelector(search, selectTerm)
  const error = useSelector(search, selectError)

  if (phase === 'typing' || phase === 'loading') return <FeedSkeleton />
  if (phase === 'tooShort' || phase === 'panels') return null
  if (phase === 'failed') return <LoadError message={error ?? 'Something went wrong.'} onRetry={() => search.send({ type: 'search.retry' })} />
  if (phase === 'empty') {
    return (
      <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '3', px: '6', py: '14', color: 'fg.muted' })}>
        <Icon name="search" size={30} />
        <p className={css({ fontSize: 'lg', fontWeight: 'bold', color: 'fg.default', overflowWrap: 'anywhere' })}>{EMPTY_TEXT[tab](term)}</p>
      </div>
    )
  }
  if (tab === 'posts') return <PostResults search={search} term={term} />
  if (tab === 'users') return <UserResults search={search} />
  return <HashtagResults search={search} />
}

function PostResults({ search, term }: { search: SearchRef; term: string }) {
  const entries = useSelector(search, selectEntries)
  const canLoadMore = useSelector(search, selectCanLoadMore)
  const loadingMore = useSelector(search, selectIsLoadingMore)
  const loadMoreFailed = useSelector(search, selectLoadMoreFailed)
  const loadMore = useCallback(() => search.send({ type: 'search.more' }), [search])
  return (
    <PostList
      entries={entries}
      label={`Posts matching ${term}`}
      canLoadMore={canLoadMore}
      onLoadMore={loadMore}
      loadingMore={loadingMore}
      loadMoreFailed={loadMoreFailed}
    />
  )
}

function UserResults({ search }: { search: SearchRef }) {
  const users = useSelector(search, selectUsers)
  return (
    <>
      <ul aria-label="Users">
        {users.map((row) => (
          <UserRow key={row.user.id} row={row} />
        ))}
      </ul>
      <LoadMore search={search} />
    </>
  )
}

const posts = (count: number) => (count === 1 ? '1 post' : `${count.toLocaleString()} posts`)

function HashtagResults({ search }: { search: SearchRef }) {
  const hashtags = useSelector(search, selectHashtags)
  return (
    <>
      <ul aria-label="Hashtags">
        {hashtags.map(({ hashtag, count }) => (
          <li key={hashtag} className={css({ borderBottomWidth: '1px', borderColor: 'border' })}>
            <button
              type="button"
              onClick={() => search.send({ type: 'search.hashtag', hashtag })}
              className={css({
                display: 'flex',
                alignItems: 'center',
                gap: '3',
                w: 'full',
                px: '4',
                py: '3',
                textAlign: 'left',
                cursor: 'pointer',
                transition: 'background-color 120ms',
                _hover: { bg: 'bg.subtle' },
                _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
              })}
            >
              <span
                aria-hidden="true"
                className={css({ display: 'grid', placeItems: 'center', w: '10', h: '10', borderRadius: 'full', bg: 'accent.subtle', color: 'accent.text', fontWeight: 'bold', flexShrink: 0 })}
              >
                #
              </span>
              <span className={css({ display: 'flex', flexDirection: 'column', minW: 0 })}>
                <span className={css({ fontWeight: 'bold', truncate: true })}>#{hashtag}</span>
                <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>{posts(count)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <LoadMore search={search} />
    </>
  )
}

function LoadMore({ search }: { search: SearchRef }) {
  const canLoadMore = useSelector(search, selectCanLoadMore)
  const loadingMore = useSelector(search, selectIsLoadingMore)
  const failed = useSelector(search, selectLoadMoreFailed)
  const error = useSelector(search, selectError)
  if (loadingMore) {
    return (
      <div className={css({ display: 'grid', placeItems: 'center', py: '5', color: 'accent' })}>
        <Spinner size={24} label="Loading more" />
      </div>
    )
  }
  if (failed) return <LoadError compact message={error ?? 'Something went wrong.'} onRetry={() => search.send({ type: 'search.more' })} />
  if (!canLoadMore) return null
  return (
    <div className={css({ display: 'flex', justifyContent: 'center', py: '5' })}>
      <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => search.send({ type: 'search.more' })}>
        Load more
      </button>
    </div>
  )
}
