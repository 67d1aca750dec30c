import { memo, useCallback, useEffect, type ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { PostEntry } from '../../machines/posts/posts.model'
import { Spinner } from '../ui/Spinner'
import { preloadCardParts } from './card-parts'
import { PostCard } from './PostCard'
import { useWindowedList } from './useWindowedList'

// A list of post cards, virtualized (the DOM holds the rows near the viewport only, however many are loaded), with
// its footer: a spinner while the next page loads, a retry when it failed, or a Load more button. In `infinite` mode
// the next page is asked for when the member is a few rows from the end.
//
// Reusable by any screen that lists posts (home feed, profile tabs): pass the list's entries and what its actor says.

export interface PostListProps {
  entries: ReadonlyArray<PostEntry>
  /** Accessible name of the feed (e.g. 'Home feed', 'Posts by @ann'). */
  label: string
  /** Whether the list's actor would accept a request for the next page now. */
  canLoadMore: boolean
  onLoadMore: () => void
  loadingMore: boolean
  /** The next page failed: a retry button shows (it calls `onLoadMore`). */
  loadMoreFailed?: boolean
  /** `infinite` loads as the member scrolls; `button` shows Load more (the post page's replies). */
  mode?: 'infinite' | 'button'
  /** Shown under the last post when there is nothing more to load. */
  endNote?: ReactNode
}

// A row re-renders whenever the window moves or a row is measured; its card only when its own props change (each card
// reads its post from the post cache itself), so scrolling renders the rows that enter, not every row.
const Card = memo(PostCard)

/** Most cards are about this tall before they are measured (text-only post, one or two lines). */
const ESTIMATED_ROW = 150
const OVERSCAN = 6
/** How close to the end (in rows) the next page is asked for. */
const PREFETCH_ROWS = 5

// Each row is its own stacking context (it is transformed): the row holding an open menu goes above the rows after it.
const rowStyle = css({ position: 'absolute', top: 0, left: 0, right: 0, '&:has([role=menu])': { zIndex: 1 } })

const footer = css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '2', py: '6', color: 'fg.muted', fontSize: 'sm' })

export function PostList({
  entries,
  label,
  canLoadMore,
  onLoadMore,
  loadingMore,
  loadMoreFailed = false,
  mode = 'infinite',
  endNote,
}: PostListProps) {
  useEffect(preloadCardParts, [])
  const keyOf = useCallback((index: number) => entries[index]?.id ?? String(index), [entries])
  const { containerRef, totalHeight, rows, measure } = useWindowedList({
    count: entries.length,
    keyOf,
    estimate: ESTIMATED_ROW,
    overscan: OVERSCAN,
  })

  // The feed pattern's "size unknown" (-1) while more may load: a page arriving then changes no card's props, so only
  // the rows that enter render (every shown card re-rendering per page was a long task on a slow phone).
  const complete = !canLoadMore && !loadingMore && !loadMoreFailed
  const setSize = complete ? entries.length : -1

  const lastShown = rows.at(-1)?.index ?? -1
  const nearEnd = lastShown >= entries.length - PREFETCH_ROWS
  useEffect(() => {
    if (mode === 'infinite' && nearEnd && canLoadMore && !loadMoreFailed) onLoadMore()
  }, [mode, nearEnd, canLoadMore, loadMoreFailed, onLoadMore])

  return (
    <>
      <div
        ref={containerRef}
        role="feed"
        aria-label={label}
        aria-busy={loadingMore}
        // Our own scroll anchoring (useWindowedList) replaces the browser's, which cannot see absolutely placed rows.
        className={css({ position: 'relative', overflowAnchor: 'none' })}
        style={{ height: totalHeight }}
      >
        {rows.map((row) => {
          const entry = entries[row.index]
          if (!entry) return null
          return (
            <div
              key={row.key}
              ref={measure}
              data-key={row.key}
              data-start={row.start}
              className={rowStyle}
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <Card id={entry.id} repostedBy={entry.repostedBy} position={row.index + 1} setSize={setSize} />
            </div>
          )
        })}
      </div>
      <ListFooter
        loadingMore={loadingMore}
        loadMoreFailed={loadMoreFailed}
        showButton={mode === 'button' && canLoadMore}
        onLoadMore={onLoadMore}
        endNote={!canLoadMore && !loadingMore && !loadMoreFailed ? endNote : null}
      />
    </>
  )
}

function ListFooter({
  loadingMore,
  loadMoreFailed,
  showButton,
  onLoadMore,
  endNote,
}: {
  loadingMore: boolean
  loadMoreFailed: boolean
  showButton: boolean
  onLoadMore: () => void
  endNote: ReactNode
}) {
  if (loadingMore) {
    return (
      <div className={cx(footer, css({ color: 'accent' }))}>
        <Spinner size={24} label="Loading more posts" />
      </div>
    )
  }
  if (loadMoreFailed) {
    return (
      <div className={footer} role="alert">
        <p>Couldn't load more posts.</p>
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onLoadMore}>
          Try again
        </button>
      </div>
    )
  }
  if (showButton) {
    return (
      <div className={footer}>
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onLoadMore}>
          Load more
        </button>
      </div>
    )
  }
  return endNote ? <div className={footer}>{endNote}</div> : null
}
