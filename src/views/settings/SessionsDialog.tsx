import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { Session } from '../../api/sessions.calls'
import type { SessionsRef } from '../../machines/sessions/sessions.machine'
import { addressesOf, deviceOf } from '../../machines/sessions/sessions.rules'
import {
  selectBusy,
  selectCanRevokeOthers,
  selectHasMore,
  selectLoadError,
  selectLoading,
  selectLoadingMore,
  selectOpen,
  selectRevoking,
  selectRevokingOthers,
  selectSessions,
} from '../../machines/sessions/sessions.selectors'
import { fullDate, timeAgo } from '../post/format'
import { Icon } from '../ui/Icon'
import { FirstPageStatus, LoadMoreButton } from '../ui/ListStates'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'

// Settings -> Security -> View Sessions: where the account is signed in. Everything it shows and allows comes from
// the sessions actor (src/machines/sessions); Escape, the backdrop and the close button send `sessions.close`.

const empty = css({ fontSize: 'sm', color: 'fg.muted', py: '2' })
const meta = css({ fontSize: 'sm', color: 'fg.muted', overflowWrap: 'anywhere' })

export function SessionsDialog({ actor }: { actor: SessionsRef }) {
  const open = useSelector(actor, selectOpen)
  const loading = useSelector(actor, selectLoading)
  const loadError = useSelector(actor, selectLoadError)
  return (
    <Dialog
      open={open}
      onClose={() => actor.send({ type: 'sessions.close' })}
      title="Active Sessions"
      description="Browsers and devices signed in to your account. Sign out any you do not recognise, then change your password."
      size="lg"
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', minH: '160px' })}>
        <FirstPageStatus
          loading={loading}
          failed={Boolean(loadError)}
          loadingLabel="Loading sessions"
          failedText={loadError ?? ''}
          onRetry={() => actor.send({ type: 'sessions.retry' })}
        >
          <SessionList actor={actor} />
        </FirstPageStatus>
      </div>
    </Dialog>
  )
}

function SessionList({ actor }: { actor: SessionsRef }) {
  const sessions = useSelector(actor, selectSessions)
  const hasMore = useSelector(actor, selectHasMore)
  const busy = useSelector(actor, selectBusy)
  const loadingMore = useSelector(actor, selectLoadingMore)
  const revoking = useSelector(actor, selectRevoking)
  const revokingOthers = useSelector(actor, selectRevokingOthers)
  const canRevokeOthers = useSelector(actor, selectCanRevokeOthers)
  if (sessions.length === 0) return <p className={empty}>No sessions.</p>
  return (
    <>
      <ul aria-label="Sessions" className={css({ display: 'flex', flexDirection: 'column' })}>
        {sessions.map((session) => (
          <SessionRow
            key={session.id}
            session={session}
            disabled={busy}
            signingOut={revoking === session.id}
            onSignOut={() => actor.send({ type: 'session.revoke', id: session.id })}
          />
        ))}
      </ul>
      {hasMore ? <LoadMoreButton loadingMore={loadingMore} disabled={busy} onMore={() => actor.send({ type: 'sessions.more' })} align="start" /> : null}
      {canRevokeOthers || revokingOthers ? (
        <div className={css({ display: 'flex', justifyContent: 'flex-end', pt: '2', borderTopWidth: '1px', borderColor: 'border' })}>
          <button
            type="button"
            className={button({ variant: 'danger', size: 'sm' })}
            onClick={() => actor.send({ type: 'sessions.revokeOthers' })}
            disabled={busy}
            aria-busy={revokingOthers}
          >
            {revokingOthers ? <Spinner size={14} /> : null}
            Sign out all other sessions
          </button>
        </div>
      ) : null}
    </>
  )
}

function SessionRow({
  session,
  disabled,
  signingOut,
  onSignOut,
}: {
  session: Session
  disabled: boolean
  signingOut: boolean
  onSignOut: () => void
}) {
  const device = deviceOf(session)
  const addresses = addressesOf(session)
  return (
    <li
      aria-label={device}
      className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '3', '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border' } })}
    >
      <span className={css({ display: 'grid', placeItems: 'center', w: '10', h: '10', borderRadius: 'xl', bg: 'bg.subtle', color: 'fg.muted', flexShrink: 0 })}>
        <Icon name="devices" />
      </span>
      <div className={css({ flex: 1, minW: 0 })}>
        <p className={css({ fontWeight: 'semibold', display: 'flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' })}>
          {device}
          {session.current ? (
            <span className={css({ fontSize: 'xs', fontWeight: 'semibold', color: 'accent.text', bg: 'accent.subtle', px: '2', py: '0.5', borderRadius: 'full' })}>
              This device
            </span>
          ) : null}
        </p>
        {addresses ? <p className={meta}>{addresses}</p> : null}
        <p className={meta}>
          Signed in <time dateTime={session.createdAt} title={fullDate(session.createdAt)}>{fullDate(session.createdAt)}</time>
          {' · '}
          {session.current ? (
            'Active now'
          ) : (
            <>
              Last active <time dateTime={session.lastSeenAt} title={fullDate(session.lastSeenAt)}>{timeAgo(session.lastSeenAt)}</time>
            </>
          )}
        </p>
      </div>
      {session.current ? null : (
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          onClick={onSignOut}
          disabled={disabled}
          aria-busy={signingOut}
          aria-label={`Sign out ${device}`}
        >
          {signingOut ? <Spinner size={14} /> : null}
          Sign out
        </button>
      )}
    </li>
  )
}
