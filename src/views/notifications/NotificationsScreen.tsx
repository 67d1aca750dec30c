import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { NotificationFilter } from '../../api/notifications.calls'
import { followRequestsMachine } from '../../machines/follow-requests/follow-requests.machine'
import { notificationListMachine, type NotificationListRef } from '../../machines/notifications/notification-list.machine'
import { EMPTY_TEXT, EMPTY_TITLE } from '../../machines/notifications/notifications.rules'
import {
  selectBusy,
  selectCanMarkAll,
  selectEmpty,
  selectFailed,
  selectFilter,
  selectHasMore,
  selectLoading,
  selectRows,
} from '../../machines/notifications/notifications.selectors'
import { ScreenActor, useScreenActor } from '../actors'
import { Icon } from '../ui/Icon'
import { PageHeader } from '../ui/PageHeader'
import { Tabs } from '../ui/Tabs'
import { Spinner } from '../ui/Spinner'
import { FollowRequestsEntry } from './FollowRequestsEntry'
import { NotificationItem } from './NotificationItem'

// Notifications (docs/product.md, "Notifications"): Mark all as read (only while something is unread) and a link to
// the notification settings in the header, the Follow requests entry, the tabs All, Mentions and Unread, then the
// items. Everything it shows comes from its list actor; it only sends what the member did.

const FILTERS: readonly NotificationFilter[] = ['all', 'mentions', 'unread']
const LABELS: Record<NotificationFilter, string> = { all: 'All', mentions: 'Mentions', unread: 'Unread' }

export function NotificationsScreen() {
  const actor = useScreenActor(notificationListMachine)
  return (
    <>
      <PageHeader title="Notifications" actions={actor ? <HeaderActions actor={actor} /> : null} />
      <ScreenActor logic={followRequestsMachine}>{(requests) => <FollowRequestsEntry actor={requests} />}</ScreenActor>
      {actor ? <NotificationList actor={actor} /> : null}
    </>
  )
}

function HeaderActions({ actor }: { actor: NotificationListRef }) {
  const canMarkAll = useSelector(actor, selectCanMarkAll)
  const busy = useSelector(actor, selectBusy)
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '1' })}>
      {canMarkAll ? (
        <button
          type="button"
          // On a phone the title needs the room: the check alone, named for screen readers and the tooltip.
          aria-label="Mark all as read"
          title="Mark all as read"
          className={cx(button({ variant: 'ghost', size: 'sm' }), css({ px: { base: '2.5', sm: '3.5' } }))}
          disabled={busy}
          onClick={() => actor.send({ type: 'notifications.readAll' })}
        >
          <Icon name="check" />
          <span className={css({ display: { base: 'none', sm: 'inline' } })}>Mark all as read</span>
        </button>
      ) : null}
      <Link
        href="/settings?tab=notifications"
        aria-label="Notification settings"
        title="Notification settings"
        className={button({ variant: 'ghost', size: 'icon' })}
      >
        <Icon name="settings" />
      </Link>
    </div>
  )
}

function NotificationList({ actor }: { actor: NotificationListRef }) {
  const filter = useSelector(actor, selectFilter)
  const loading = useSelector(actor, selectLoading)
  const failed = useSelector(actor, selectFailed)
  const empty = useSelector(actor, selectEmpty)
  const rows = useSelector(actor, selectRows)
  const hasMore = useSelector(actor, selectHasMore)
  const busy = useSelector(actor, selectBusy)

  return (
    <>
      <Tabs
        label="Notification filters"
        idPrefix="notifications"
        tabs={FILTERS}
        labels={LABELS}
        selected={filter}
        onSelect={(next) => actor.send({ type: 'notifications.filter', filter: next })}
      >
        {loading ? (
          <div className={css({ display: 'grid', placeItems: 'center', py: '12', color: 'accent' })}>
            <Spinner size={28} label="Loading notifications" />
          </div>
        ) : failed ? (
          <div role="alert" className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '12', color: 'fg.muted' })}>
            <p>Couldn&apos;t load notifications.</p>
            <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'notifications.retry' })}>
              Try again
            </button>
          </div>
        ) : empty ? (
          <Empty />
        ) : (
          <ul aria-label="Notifications">
            {rows.map((row) => (
              <NotificationItem key={row.id} row={row} onOpen={() => actor.send({ type: 'notification.open', id: row.id })} />
            ))}
          </ul>
        )}
        {hasMore ? (
          <div className={css({ display: 'grid', placeItems: 'center', py: '5' })}>
            <button
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              disabled={busy}
              aria-busy={busy}
              onClick={() => actor.send({ type: 'notifications.more' })}
            >
              {busy ? <Spinner size={16} /> : null}
              Load more
            </button>
          </div>
        ) : null}
      </Tabs>
    </>
  )
}

function Empty() {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '3', px: '6', py: { base: '14', md: '20' }, color: 'fg.muted' })}>
      <span className={cx(css({ display: 'grid', placeItems: 'center', w: '16', h: '16', borderRadius: '2xl', bg: 'accent.subtle', color: 'accent.text', mb: '1' }))}>
        <Icon name="bell" size={30} />
      </span>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.default', letterSpacing: '-0.01em' })}>{EMPTY_TITLE}</h2>
      <p className={css({ maxW: '380px', lineHeight: '1.6' })}>{EMPTY_TEXT}</p>
    </div>
  )
}
