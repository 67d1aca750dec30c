import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { FollowRequest } from '../../api/follow-requests.calls'
import type { FollowRequestsRef, PendingAnswer } from '../../machines/follow-requests/follow-requests.machine'
import { NO_REQUESTS } from '../../machines/follow-requests/follow-requests.rules'
import {
  selectBusy,
  selectFailed,
  selectHasMore,
  selectLoading,
  selectLoadingMore,
  selectPending,
  selectRequests,
} from '../../machines/follow-requests/follow-requests.selectors'
import { VerifiedMark } from '../profile/VerifiedMark'
import { Avatar } from '../ui/Avatar'
import { LoadMoreButton } from '../ui/ListStates'
import { Spinner } from '../ui/Spinner'
import { shownName } from '../../machines/lib/shown-name'

// Settings -> Privacy & Safety, below the privacy form (docs/product.md, "Private accounts and follow requests"): the
// member's pending follow requests with Approve and Decline, then Load more while the server has more. Everything it
// shows and allows comes from the follow-requests actor.

const FOLLOW_REQUESTS_ANCHOR = 'follow-requests'

const section = css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '8', pt: '6', borderTopWidth: '1px', borderColor: 'border', maxW: '560px' })
const title = css({ fontSize: 'md', fontWeight: 'bold' })
const muted = css({ fontSize: 'sm', color: 'fg.muted' })

export function FollowRequestsSection({ actor }: { actor: FollowRequestsRef }) {
  return (
    <section id={FOLLOW_REQUESTS_ANCHOR} aria-labelledby="follow-requests-title" className={section}>
      <div>
        <h3 id="follow-requests-title" className={title}>
          Follow requests
        </h3>
        <p className={muted}>People who asked to follow your private account. Declining does not tell them.</p>
      </div>
      <FollowRequestsBody actor={actor} />
    </section>
  )
}

function FollowRequestsBody({ actor }: { actor: FollowRequestsRef }) {
  const loading = useSelector(actor, selectLoading)
  const failed = useSelector(actor, selectFailed)
  const requests = useSelector(actor, selectRequests)

  if (loading) {
    return (
      <div className={css({ display: 'grid', placeItems: 'center', py: '8', color: 'accent' })}>
        <Spinner label="Loading follow requests" />
      </div>
    )
  }
  if (failed) {
    return (
      <div role="alert" className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '4', color: 'fg.muted' })}>
        Could not load your follow requests.
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'requests.retry' })}>
          Try again
        </button>
      </div>
    )
  }
  return (
    <>
      {requests.length === 0 ? (
        <p className={muted}>{NO_REQUESTS}</p>
      ) : (
        <ul aria-label="Follow requests" className={css({ display: 'flex', flexDirection: 'column' })}>
          {requests.map((request) => (
            <RequestRow key={request.id} actor={actor} request={request} />
          ))}
        </ul>
      )}
      <LoadMore actor={actor} />
    </>
  )
}

/** Which of a row's buttons shows the spinner: the answer being saved for this row, if any. */
const answerFor = (pending: PendingAnswer | null, userId: string) => (pending?.userId === userId ? pending.answer : null)

function RequestRow({ actor, request }: { actor: FollowRequestsRef; request: FollowRequest }) {
  const busy = useSelector(actor, selectBusy)
  const saving = useSelector(actor, (s) => answerFor(selectPending(s), request.id))
  const name = shownName(request)
  const href = `/profile/${encodeURIComponent(request.username)}`
  return (
    <li
      aria-busy={saving !== null}
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        py: '3',
        '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border' },
        '&[aria-busy=true]': { opacity: 0.7 },
      })}
    >
      <Link href={href} tabIndex={-1} aria-hidden="true" className={css({ display: 'flex', borderRadius: 'full' })}>
        <Avatar src={request.avatar} name={name} size={40} />
      </Link>
      <div className={css({ flex: 1, minW: 0, lineHeight: '1.3' })}>
        <div className={css({ display: 'flex', alignItems: 'center', gap: '1', minW: 0 })}>
          <Link href={href} className={css({ fontWeight: 'semibold', truncate: true, _hover: { textDecoration: 'underline' } })}>
            {name}
          </Link>
          {request.verified ? <VerifiedMark size={16} /> : null}
        </div>
        <Link href={href} className={css({ display: 'block', fontSize: 'sm', color: 'fg.muted', truncate: true, _hover: { textDecoration: 'underline' } })}>
          @{request.username}
        </Link>
      </div>
      <div className={css({ display: 'flex', gap: '2', flexShrink: 0 })}>
        <button
          type="button"
          className={button({ size: 'sm' })}
          disabled={busy}
          aria-busy={saving === 'approve'}
          aria-label={`Approve @${request.username}`}
          onClick={() => actor.send({ type: 'request.approve', userId: request.id })}
        >
          {saving === 'approve' ? <Spinner size={14} /> : null}
          Approve
        </button>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          disabled={busy}
          aria-busy={saving === 'decline'}
          aria-label={`Decline @${request.username}`}
          onClick={() => actor.send({ type: 'request.decline', userId: request.id })}
        >
          {saving === 'decline' ? <Spinner size={14} /> : null}
          Decline
        </button>
      </div>
    </li>
  )
}

function LoadMore({ actor }: { actor: FollowRequestsRef }) {
  const hasMore = useSelector(actor, selectHasMore)
  const busy = useSelector(actor, selectBusy)
  const loadingMore = useSelector(actor, selectLoadingMore)
  if (!hasMore) return null
  return <LoadMoreButton loadingMore={loadingMore} disabled={busy} onMore={() => actor.send({ type: 'requests.more' })} align="start" />
}
