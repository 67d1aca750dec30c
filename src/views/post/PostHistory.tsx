import { useEffect, useRef } from 'react'
import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { postHistoryMachine, type PostHistoryRef } from '../../machines/post-history/post-history.machine'
import { altLines, audienceWords, HISTORY_MESSAGES, versionLabel } from '../../machines/post-history/post-history.rules'
import {
  selectError,
  selectFailed,
  selectHasMore,
  selectIsLoading,
  selectIsLoadingMore,
  selectIsOpen,
  selectVersions,
} from '../../machines/post-history/post-history.selectors'
import { ScreenActor } from '../actors'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'
import { fullDate } from './format'

// The History dialog a card's '(edited)' opens (./EditedMarker.tsx): every version of the post, newest first. The
// history actor starts on the first click, not with the card, so a feed of cards runs none.

/** The History dialog of one post, opened once per click on its '(edited)' (`asked` counts the clicks). */
export function PostHistory({ postId, asked }: { postId: string; asked: number }) {
  return (
    <ScreenActor logic={postHistoryMachine} input={{ postId }}>
      {(actor) => <PostHistoryDialog actor={actor} asked={asked} />}
    </ScreenActor>
  )
}

function PostHistoryDialog({ actor, asked }: { actor: PostHistoryRef; asked: number }) {
  const handled = useRef(0)
  useEffect(() => {
    if (handled.current === asked) return
    handled.current = asked
    actor.send({ type: 'history.open' })
  }, [actor, asked])
  const open = useSelector(actor, selectIsOpen)
  const loading = useSelector(actor, selectIsLoading)
  const loadingMore = useSelector(actor, selectIsLoadingMore)
  const failed = useSelector(actor, selectFailed)
  const versions = useSelector(actor, selectVersions)
  const hasMore = useSelector(actor, selectHasMore)
  const error = useSelector(actor, selectError)
  return (
    <Dialog open={open} onClose={() => actor.send({ type: 'history.close' })} title={HISTORY_MESSAGES.title} size="md">
      {loading ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '8' })}>
          <Spinner size={24} />
        </div>
      ) : null}
      {failed ? (
        <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: '3' })}>
          <p role="alert" className={css({ color: 'danger.text', fontSize: 'sm' })}>
            {error}
          </p>
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'history.retry' })}>
            Try again
          </button>
        </div>
      ) : null}
      {versions.length > 0 ? (
        <ol aria-label="Versions" className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          {versions.map((version, i) => {
            const label = versionLabel(i, versions.length, !hasMore)
            const alts = altLines(version)
            return (
              <li
                key={version.id}
                className={css({ display: 'flex', flexDirection: 'column', gap: '1.5', p: '3.5', borderRadius: 'xl', borderWidth: '1px', borderColor: 'border', bg: i === 0 ? 'bg.subtle' : 'bg.surface' })}
              >
                <p className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'baseline', fontSize: 'sm', color: 'fg.muted' })}>
                  {label ? <span className={css({ fontWeight: 'semibold', color: 'accent.text' })}>{label}</span> : null}
                  <time dateTime={version.createdAt}>{fullDate(version.createdAt)}</time>
                  <span aria-hidden="true">·</span>
                  <span>{audienceWords(version.visibility)}</span>
                  {version.sensitive ? (
                    <>
                      <span aria-hidden="true">·</span>
                      <span>{version.sensitiveReason ? `Sensitive: ${version.sensitiveReason}` : 'Sensitive'}</span>
                    </>
                  ) : null}
                </p>
                {version.content ? (
                  <p className={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', color: 'fg.default' })}>{version.content}</p>
                ) : (
                  <p className={css({ fontStyle: 'italic', color: 'fg.muted', fontSize: 'sm' })}>No text</p>
                )}
                {alts.length > 0 ? (
                  <ul aria-label="Alt texts" className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                    {alts.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                ) : null}
              </li>
            )
          })}
        </ol>
      ) : null}
      {error && !failed ? (
        <p role="alert" className={css({ mt: '3', color: 'danger.text', fontSize: 'sm' })}>
          {error}
        </p>
      ) : null}
      {hasMore && !loading ? (
        <button
          type="button"
          className={cx(button({ variant: 'outline', size: 'sm' }), css({ mt: '3' }))}
          disabled={loadingMore}
          onClick={() => actor.send({ type: 'history.more' })}
        >
          {loadingMore ? <Spinner size={14} /> : null}
          Load more
        </button>
      ) : null}
    </Dialog>
  )
}
