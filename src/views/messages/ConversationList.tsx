import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { ConversationsRef } from '../../machines/conversations/conversations.machine'
import {
  selectBusy,
  selectEmpty,
  selectFailed,
  selectHasMore,
  selectLoading,
  selectRows,
  selectSearch,
  type ConversationRow,
} from '../../machines/conversations/conversations.selectors'
import { fullDate, timeAgo } from '../post/format'
import { useMinuteClock } from '../post/clock'
import { Avatar } from '../ui/Avatar'
import { Icon } from '../ui/Icon'
import { Spinner } from '../ui/Spinner'
import { ReadTicks } from './ReadTicks'

// Messages, left pane: the heading, New message, 'Search conversations' and the rows (docs/product.md, "Direct
// messages"). Everything it shows comes from the conversation list actor's selectors.

const row = css({
  display: 'flex',
  gap: '3',
  alignItems: 'center',
  px: '4',
  py: '3',
  borderBottomWidth: '1px',
  borderColor: 'border',
  color: 'fg.default',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
  '&[aria-current=page]': { bg: 'bg.subtle', boxShadow: 'inset 3px 0 0 token(colors.accent)' },
})

function Row({ item, current, now }: { item: ConversationRow; current: boolean; now: number }) {
  return (
    <li>
      <Link href={`/messages/${encodeURIComponent(item.id)}`} className={row} aria-current={current ? 'page' : undefined}>
        <Avatar src={item.avatar} name={item.name || item.username} size={44} />
        <span className={css({ flex: 1, minW: 0, display: 'flex', flexDirection: 'column', gap: '0.5' })}>
          <span className={css({ display: 'flex', alignItems: 'baseline', gap: '2' })}>
            <span className={css({ fontWeight: item.unread ? 'bold' : 'semibold', truncate: true })}>{item.name || item.username}</span>
            {item.muted ? (
              <span role="img" aria-label="Muted" title="Muted" className={css({ color: 'fg.subtle', display: 'inline-flex' })}>
                <Icon name="mute" size={14} />
              </span>
            ) : null}
            <span className={css({ flex: 1 })} />
            <time dateTime={item.lastActivity} title={fullDate(item.lastActivity)} className={css({ fontSize: 'xs', color: 'fg.muted', flexShrink: 0 })}>
              {timeAgo(item.lastActivity, now)}
            </time>
          </span>
          <span className={css({ display: 'flex', alignItems: 'center', gap: '1.5', fontSize: 'sm', color: item.unread ? 'fg.default' : 'fg.muted' })}>
            {item.fromMe ? (
              <span className={css({ color: item.read ? 'accent.text' : 'fg.subtle', display: 'inline-flex' })}>
                <ReadTicks read={item.read} size={14} />
              </span>
            ) : null}
            <span className={css({ flex: 1, truncate: true })}>{item.preview}</span>
            {item.unread ? (
              <span role="img" aria-label="Unread" className={css({ w: '2.5', h: '2.5', borderRadius: 'full', bg: 'accent', flexShrink: 0 })} />
            ) : null}
          </span>
        </span>
      </Link>
    </li>
  )
}

export function ConversationList({ list, currentId, onNewMessage }: { list: ConversationsRef; currentId: string | undefined; onNewMessage: () => void }) {
  const loading = useSelector(list, selectLoading)
  const failed = useSelector(list, selectFailed)
  const empty = useSelector(list, selectEmpty)
  const rows = useSelector(list, selectRows)
  const search = useSelector(list, selectSearch)
  const hasMore = useSelector(list, selectHasMore)
  const busy = useSelector(list, selectBusy)
  const now = useMinuteClock()

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', h: 'full', minH: 0 })}>
      <header className={css({ display: 'flex', alignItems: 'center', gap: '2', px: '4', minH: '14', borderBottomWidth: '1px', borderColor: 'border' })}>
        <h1 className={css({ flex: 1, fontSize: 'xl', fontWeight: 'bold' })}>Messages</h1>
        <button type="button" className={button({ variant: 'ghost', size: 'icon' })} aria-label="New message" title="New message" onClick={onNewMessage}>
          <Icon name="compose" />
        </button>
      </header>
      <div className={css({ px: '4', py: '3', borderBottomWidth: '1px', borderColor: 'border' })}>
        <input
          type="search"
          aria-label="Search conversations"
          placeholder="Search conversations"
          value={search}
          onChange={(e) => list.send({ type: 'conversations.search', query: e.target.value })}
          className={css({
            w: 'full',
            h: '10',
            px: '4',
            borderRadius: 'full',
            bg: 'bg.subtle',
            color: 'fg.default',
            fontSize: 'sm',
            borderWidth: '1px',
            borderColor: 'transparent',
            _focus: { outline: 'none', borderColor: 'accent', bg: 'bg.surface' },
          })}
        />
      </div>
      <div className={css({ flex: 1, overflowY: 'auto', minH: 0 })}>
        {loading ? (
          <div className={css({ display: 'grid', placeItems: 'center', py: '10' })}>
            <Spinner label="Loading conversations" />
          </div>
        ) : failed ? (
          <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '10', color: 'fg.muted' })}>
            <p>Failed to load conversations</p>
            <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => list.send({ type: 'conversations.retry' })}>
              Retry
            </button>
          </div>
        ) : empty ? (
          <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '2', py: '12', px: '6', textAlign: 'center' })}>
            <p className={css({ fontSize: 'lg', fontWeight: 'bold' })}>No messages yet</p>
            <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>Start a conversation with someone</p>
            <button type="button" className={cx(button({ size: 'sm' }), css({ mt: '2' }))} onClick={onNewMessage}>
              New Message
            </button>
          </div>
        ) : (
          <>
            <ul aria-label="Conversations">
              {rows.map((item) => (
                <Row key={item.id} item={item} current={item.id === currentId} now={now} />
              ))}
            </ul>
            {hasMore ? (
              <div className={css({ display: 'grid', placeItems: 'center', py: '4' })}>
                <button type="button" className={button({ variant: 'ghost', size: 'sm' })} disabled={busy} onClick={() => list.send({ type: 'conversations.more' })}>
                  {busy ? <Spinner size={16} /> : null}
                  Load more
                </button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </div>
  )
}
