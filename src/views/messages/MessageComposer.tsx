import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { ConversationRef } from '../../machines/conversation/conversation.machine'
import { selectCanSend, selectComposerNotice, selectDraft, selectSendError, selectSending } from '../../machines/conversation/conversation.selectors'
import { MessagesIcon } from './icons'

// The composer under the conversation: Enter sends, Shift+Enter breaks the line; Send waits for text and for the
// previous send; 'Failed to send message' keeps the text; when the other member cannot be written to, the reason
// replaces the input. Media are not sent in messages yet: the button says so.

export function MessageComposer({ conversation }: { conversation: ConversationRef }) {
  const draft = useSelector(conversation, selectDraft)
  const canSend = useSelector(conversation, selectCanSend)
  const sending = useSelector(conversation, selectSending)
  const error = useSelector(conversation, selectSendError)
  const notice = useSelector(conversation, selectComposerNotice)

  if (notice !== null) {
    return (
      <p role="status" className={css({ px: '4', py: '4', borderTopWidth: '1px', borderColor: 'border', fontSize: 'sm', color: 'fg.muted', textAlign: 'center' })}>
        {notice}
      </p>
    )
  }
  return (
    <form
      className={css({ borderTopWidth: '1px', borderColor: 'border', px: '3', py: '2.5', bg: 'bg.surface' })}
      onSubmit={(e) => {
        e.preventDefault()
        conversation.send({ type: 'message.send' })
      }}
    >
      <div className={css({ display: 'flex', alignItems: 'flex-end', gap: '2' })}>
        <button type="button" className={button({ variant: 'ghost', size: 'icon' })} aria-label="Add media" title="Media uploads coming soon" disabled>
          <MessagesIcon name="image" />
        </button>
        <textarea
          aria-label="Message"
          placeholder="Type a message..."
          rows={1}
          value={draft}
          readOnly={sending}
          onChange={(e) => conversation.send({ type: 'message.input', value: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault()
              conversation.send({ type: 'message.send' })
            }
          }}
          className={css({
            flex: 1,
            minH: '10',
            maxH: '40',
            px: '4',
            py: '2',
            borderRadius: '2xl',
            bg: 'bg.subtle',
            color: 'fg.default',
            fontSize: 'sm',
            resize: 'none',
            fieldSizing: 'content',
            borderWidth: '1px',
            borderColor: 'transparent',
            _focus: { outline: 'none', borderColor: 'accent', bg: 'bg.surface' },
          })}
        />
        <button type="submit" className={button({ size: 'icon' })} aria-label="Send" title="Send" disabled={!canSend}>
          <MessagesIcon name="send" />
        </button>
      </div>
      {error ? (
        <p role="alert" className={css({ mt: '1.5', px: '12', fontSize: 'xs', color: 'danger.text' })}>
          {error}
        </p>
      ) : null}
    </form>
  )
}
