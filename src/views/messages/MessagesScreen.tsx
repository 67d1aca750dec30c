import { useSelector } from '@xstate/react'
import { useEffect } from 'react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { ConversationsRef } from '../../machines/conversations/conversations.machine'
import { selectMissing, selectOpen, selectOpening } from '../../machines/conversations/conversations.selectors'
import { newMessageMachine, type NewMessageRef } from '../../machines/new-message/new-message.machine'
import { selectUser } from '../../machines/session/session.selectors'
import { useConversations, useKeys, useScreenActor, useSession } from '../actors'
import { Icon } from '../ui/Icon'
import { Spinner } from '../ui/Spinner'
import { ConversationList } from './ConversationList'
import { ConversationPane } from './ConversationPane'
import { NewMessageDialog } from './NewMessageDialog'

// Messages (/messages, /messages/{id}): the conversation list and the open conversation side by side on wide screens;
// on phones one at a time (the list at /messages, the conversation with a back button at /messages/{id}). The route
// tells the list which conversation to open; everything else is the actors' (docs/product.md, "Direct messages").

const centred = css({ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: '2', px: '6', textAlign: 'center' })

function NothingSelected({ onNewMessage }: { onNewMessage: () => void }) {
  return (
    <div className={centred}>
      <span className={css({ color: 'accent.text', mb: '2' })}>
        <Icon name="messages" size={40} />
      </span>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>Your messages</h2>
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>Send private messages to other users</p>
      <button type="button" className={cx(button(), css({ mt: '3' }))} onClick={onNewMessage}>
        Start a conversation
      </button>
    </div>
  )
}

function RightPane({ list, onNewMessage }: { list: ConversationsRef; onNewMessage: () => void }) {
  const open = useSelector(list, selectOpen)
  const opening = useSelector(list, selectOpening)
  const missing = useSelector(list, selectMissing)
  if (open) return <ConversationPane key={open.id + open.sessionId} list={list} conversation={open} />
  if (opening) {
    return (
      <div className={centred}>
        <Spinner label="Loading conversation" />
      </div>
    )
  }
  if (missing) {
    return (
      <div className={centred}>
        <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{missing.notFound ? 'Conversation not found' : 'Failed to load conversation'}</h2>
        {missing.notFound ? null : (
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => list.send({ type: 'conversation.open', id: missing.id })}>
            Retry
          </button>
        )}
        <Link href="/messages" className={css({ color: 'accent.text', fontWeight: 'semibold', _hover: { textDecoration: 'underline' } })}>
          Back to Messages
        </Link>
      </div>
    )
  }
  return <NothingSelected onNewMessage={onNewMessage} />
}

function Panes({ conversationId, newMessage, list }: { conversationId: string | undefined; newMessage: NewMessageRef; list: ConversationsRef }) {
  // The route decides what the right pane shows; the list actor ignores a repeat of what it already shows.
  useEffect(() => {
    list.send(conversationId ? { type: 'conversation.open', id: conversationId } : { type: 'conversation.close' })
  }, [list, conversationId])
  // Leaving Messages closes the conversation, so nothing is marked read behind the member's back.
  useEffect(() => () => list.send({ type: 'conversation.close' }), [list])
  const openNewMessage = () => newMessage.send({ type: 'new-message.open' })
  const showing = conversationId !== undefined

  return (
    <div
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: '1fr', md: 'minmax(260px, 340px) 1fr' },
        h: { base: 'calc(100dvh - 3.5rem - 4rem)', lg: '100dvh' },
      })}
    >
      <div className={css({ display: { base: showing ? 'none' : 'flex', md: 'flex' }, flexDirection: 'column', minH: 0, borderRightWidth: { md: '1px' }, borderColor: 'border' })}>
        <ConversationList list={list} currentId={conversationId} onNewMessage={openNewMessage} />
      </div>
      <div className={css({ display: { base: showing ? 'flex' : 'none', md: 'flex' }, flexDirection: 'column', minH: 0, minW: 0 })}>
        <RightPane list={list} onNewMessage={openNewMessage} />
      </div>
      <NewMessageDialog actor={newMessage} />
    </div>
  )
}

export function MessagesScreen({ conversationId }: { conversationId?: string }) {
  const session = useSession()
  const keys = useKeys()
  const userId = useSelector(session, (s) => selectUser(s)?.id ?? '')
  const newMessage = useScreenActor(newMessageMachine, { userId, keys })
  // Asked for at once: on a first screen that is Messages, the list's code may still be loading.
  const list = useConversations(true)
  if (!newMessage) return null
  if (!list) {
    return (
      <div className={cx(centred, css({ py: '24', color: 'accent' }))}>
        <Spinner size={28} label="Loading" />
      </div>
    )
  }
  return <Panes conversationId={conversationId} newMessage={newMessage} list={list} />
}
