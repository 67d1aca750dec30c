import { useSelector } from '@xstate/react'
import { lazy, Suspense, useLayoutEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { ConversationRef } from '../../machines/conversation/conversation.machine'
import {
  selectBubbles,
  selectMedia,
  selectEditing,
  selectFailed,
  selectHasOlder,
  selectLoading,
  selectVerified,
} from '../../machines/conversation/conversation.selectors'
import type { ConversationsRef } from '../../machines/conversations/conversations.machine'
import { selectOpenRow } from '../../machines/conversations/conversations.selectors'
import { Avatar } from '../ui/Avatar'
import { Icon } from '../ui/Icon'
import { Menu } from '../ui/Menu'
import { Spinner } from '../ui/Spinner'
import { ConfirmDialog } from './ConfirmDialog'
import { MessagesIcon } from './icons'
import { ReportAbout } from '../report/ReportDialog'
import { MessageBubble } from './MessageBubble'
import { MessageComposer } from './MessageComposer'
import { KeyNotices } from './KeyNotices'
import { shownName } from '../../machines/lib/shown-name'

// Messages, right pane: one open conversation (its actor is the list's child 'open'). The header links to the other
// member's profile (with the Verified mark once the member verified them) and holds Verify (the safety number dialog,
// with its QR code) and the menu (Mute/Unmute, Archive, Delete); the history
// shows newest at the bottom, loads older pages when scrolled to the top (keeping the place), and follows new
// messages; the composer is at the bottom.

/** With the QR code library: loaded when a member first opens it. */
const SafetyNumberDialog = lazy(() => import('./SafetyNumberDialog').then((m) => ({ default: m.SafetyNumberDialog })))

const paneHeader = css({ display: 'flex', alignItems: 'center', gap: '2', px: '3', minH: '14', borderBottomWidth: '1px', borderColor: 'border' })

/** Where the history is scrolled, to keep the place when older messages come in above and to follow new ones. */
function useHistoryScroll(ref: React.RefObject<HTMLDivElement | null>, firstId: string | undefined, lastId: string | undefined) {
  const previous = useRef({ firstId, lastId, height: 0, top: 0 })
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const before = previous.current
    if (before.lastId !== lastId) {
      el.scrollTop = el.scrollHeight
    } else if (before.firstId !== firstId) {
      // Older messages were put above: keep the ones on screen where they were.
      el.scrollTop = before.top + (el.scrollHeight - before.height)
    }
    previous.current = { firstId, lastId, height: el.scrollHeight, top: el.scrollTop }
  }, [ref, firstId, lastId])
  return () => {
    const el = ref.current
    if (el) previous.current = { ...previous.current, height: el.scrollHeight, top: el.scrollTop }
  }
}

function History({ conversation }: { conversation: ConversationRef }) {
  const bubbles = useSelector(conversation, selectBubbles)
  const hasOlder = useSelector(conversation, selectHasOlder)
  const editing = useSelector(conversation, selectEditing)
  const media = useSelector(conversation, selectMedia)
  const [confirming, setConfirming] = useState<string | null>(null)
  const ref = useRef<HTMLDivElement>(null)
  const remember = useHistoryScroll(ref, bubbles[0]?.id, bubbles.at(-1)?.id)

  return (
    <div
      ref={ref}
      className={css({ flex: 1, minH: 0, overflowY: 'auto', py: '3' })}
      onScroll={(e) => {
        remember()
        if (hasOlder && e.currentTarget.scrollTop < 80) conversation.send({ type: 'conversation.older' })
      }}
    >
      {hasOlder ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '2' })}>
          <button type="button" className={button({ variant: 'ghost', size: 'sm' })} onClick={() => conversation.send({ type: 'conversation.older' })}>
            Load older messages
          </button>
        </div>
      ) : null}
      {bubbles.length === 0 ? (
        <p className={css({ textAlign: 'center', color: 'fg.muted', fontSize: 'sm', py: '10' })}>No messages yet</p>
      ) : (
        <ReportAbout>
          {(report) => (
            <ol aria-label="Messages" className={css({ display: 'flex', flexDirection: 'column' })}>
              {bubbles.map((b) => (
                <MessageBubble
                  key={b.id}
                  message={b}
                  attachments={media[b.id]}
                  editing={editing?.id === b.id ? editing.text : null}
                  onEdit={() => conversation.send({ type: 'message.edit', id: b.id })}
                  onDelete={() => setConfirming(b.id)}
                  onEditInput={(value) => conversation.send({ type: 'edit.input', value })}
                  onEditSave={() => conversation.send({ type: 'edit.save' })}
                  onEditCancel={() => conversation.send({ type: 'edit.cancel' })}
                  onReport={() => report({ kind: 'message', id: b.id, messageText: b.text })}
                />
              ))}
            </ol>
          )}
        </ReportAbout>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title="Delete message?"
        description="It will read 'This message was deleted' for both of you."
        confirmLabel="Delete"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) conversation.send({ type: 'message.delete', id: confirming })
          setConfirming(null)
        }}
      />
    </div>
  )
}

export function ConversationPane({ list, conversation }: { list: ConversationsRef; conversation: ConversationRef }) {
  const loading = useSelector(conversation, selectLoading)
  const failed = useSelector(conversation, selectFailed)
  const other = useSelector(conversation, (s) => s.context.other)
  const id = useSelector(conversation, (s) => s.context.conversationId)
  const row = useSelector(list, selectOpenRow)
  const verified = useSelector(conversation, selectVerified)
  const [verifying, setVerifying] = useState(false)
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const name = shownName(other)
  const muted = row?.muted ?? false

  return (
    <section aria-label={`Conversation with ${name}`} className={css({ display: 'flex', flexDirection: 'column', h: 'full', minH: 0 })}>
      <header className={paneHeader}>
        <Link href="/messages" className={cx(button({ variant: 'ghost', size: 'icon' }), css({ display: { base: 'inline-flex', md: 'none' } }))} aria-label="Back to Messages">
          <Icon name="back" />
        </Link>
        <Link
          href={`/profile/${encodeURIComponent(other?.username ?? '')}`}
          className={css({ display: 'flex', alignItems: 'center', gap: '2.5', flex: 1, minW: 0, borderRadius: 'lg', _hover: { '& strong': { textDecoration: 'underline' } } })}
        >
          <Avatar src={other?.avatar} name={name} size={36} />
          <span className={css({ display: 'flex', flexDirection: 'column', minW: 0, lineHeight: '1.2' })}>
            <strong className={css({ truncate: true })}>{name}</strong>
            {verified ? (
              <span className={css({ fontSize: 'xs', fontWeight: 'semibold', color: 'success.text' })}>Verified</span>
            ) : null}
            <span className={css({ fontSize: 'xs', color: 'fg.muted', truncate: true })}>@{other?.username}</span>
          </span>
        </Link>
        {muted ? (
          <span role="img" aria-label="Muted" title="Muted" className={css({ color: 'fg.subtle', display: 'inline-flex' })}>
            <Icon name="mute" size={16} />
          </span>
        ) : null}
        <button
          type="button"
          className={button({ variant: verifying ? 'soft' : 'ghost', size: 'icon' })}
          aria-label="Verify safety number"
          title="Verify"
          aria-haspopup="dialog"
          onClick={() => setVerifying(true)}
        >
          <MessagesIcon name="shield" />
        </button>
        <Menu
          label="Conversation options"
          triggerLabel="Conversation options"
          trigger={() => <MessagesIcon name="more" />}
          triggerClassName={button({ variant: 'ghost', size: 'icon' })}
          popupClassName={css({ position: 'absolute', right: 0, top: 'calc(100% + 4px)', w: '44', zIndex: 30 })}
          items={[
            { label: muted ? 'Unmute' : 'Mute', icon: <Icon name={muted ? 'unmute' : 'mute'} size={18} />, onSelect: () => list.send({ type: 'conversation.mute', id }) },
            { label: 'Archive', icon: <Icon name="bookmark" size={18} />, onSelect: () => list.send({ type: 'conversation.archive', id }) },
            { label: 'Delete', icon: <MessagesIcon name="trash" size={18} />, tone: 'danger', onSelect: () => setConfirmingDelete(true) },
          ]}
        />
      </header>
      <KeyNotices conversation={conversation} onShowNumber={() => setVerifying(true)} />
      {loading ? (
        <div className={css({ flex: 1, display: 'grid', placeItems: 'center' })}>
          <Spinner label="Loading messages" />
        </div>
      ) : failed ? (
        <div className={css({ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: '3', color: 'fg.muted' })}>
          <p>Failed to load messages</p>
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => conversation.send({ type: 'conversation.retry' })}>
            Retry
          </button>
        </div>
      ) : (
        <>
          <History conversation={conversation} />
          <MessageComposer conversation={conversation} />
        </>
      )}
      {verifying ? (
        <Suspense fallback={null}>
          <SafetyNumberDialog conversation={conversation} name={name} open onClose={() => setVerifying(false)} />
        </Suspense>
      ) : null}
      <ConfirmDialog
        open={confirmingDelete}
        title="Delete conversation?"
        description="It will be removed from your messages. The other member keeps their copy."
        confirmLabel="Delete"
        onCancel={() => setConfirmingDelete(false)}
        onConfirm={() => {
          setConfirmingDelete(false)
          list.send({ type: 'conversation.delete', id })
        }}
      />
    </section>
  )
}
