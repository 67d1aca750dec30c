import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { Attachment } from '../../crypto/attachments'
import type { Bubble } from '../../machines/conversation/conversation.selectors'
import { fullDate } from '../post/format'
import { Icon } from '../ui/Icon'
import { MessagesIcon } from './icons'
import { MessageAttachments } from './MessageAttachments'
import { ReadTicks } from './ReadTicks'

// One message: mine on the right, theirs on the left; '(edited)', 'This message was deleted', the time, and on mine
// the ticks and the Edit and Delete buttons (the actor refuses what the member may not do). Photos and videos show
// above the text; a message of photos only has no text bubble.

const bubble = css({
  maxW: 'full',
  px: '3.5',
  py: '2',
  borderRadius: '2xl',
  fontSize: 'sm',
  lineHeight: '1.45',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
})

// One formatter for every bubble (toLocaleTimeString with options builds a new one on each call).
let timeFormat: Intl.DateTimeFormat | undefined
const time = (iso: string) => {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' })
  return timeFormat.format(date)
}

export function MessageBubble({
  message,
  editing,
  onEdit,
  onDelete,
  onEditInput,
  onEditSave,
  onEditCancel,
  onReport,
  attachments = [],
}: {
  message: Bubble
  /** The photos and videos its envelope carries. */
  attachments?: ReadonlyArray<Attachment>
  editing: string | null
  onEdit: () => void
  onDelete: () => void
  onEditInput: (value: string) => void
  onEditSave: () => void
  onEditCancel: () => void
  /** Report this message (theirs, decrypted): opens the report dialog with its text. */
  onReport?: () => void
}) {
  const mine = message.mine
  return (
    <li
      data-message-id={message.id}
      className={cx('group', css({ display: 'flex', flexDirection: 'column', alignItems: mine ? 'flex-end' : 'flex-start', gap: '0.5', px: '4', py: '1' }))}
    >
      {editing !== null ? (
        <form
          className={css({ display: 'flex', flexDirection: 'column', gap: '2', w: 'min(100%, 420px)' })}
          onSubmit={(e) => {
            e.preventDefault()
            onEditSave()
          }}
        >
          <textarea
            aria-label="Edit message"
            value={editing}
            autoFocus
            rows={2}
            onChange={(e) => onEditInput(e.target.value)}
            className={css({ w: 'full', p: '2.5', borderRadius: 'lg', borderWidth: '1px', borderColor: 'accent', bg: 'bg.surface', color: 'fg.default', fontSize: 'sm', resize: 'vertical' })}
          />
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2' })}>
            <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onEditCancel}>
              Cancel
            </button>
            <button type="submit" className={button({ size: 'sm' })} disabled={editing.trim() === ''}>
              Save
            </button>
          </div>
        </form>
      ) : (
        <div className={css({ display: 'flex', alignItems: 'center', gap: '1', flexDirection: mine ? 'row-reverse' : 'row', w: 'full', justifyContent: 'flex-start' })}>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '1', alignItems: mine ? 'flex-end' : 'flex-start', maxW: '78%' })}>
            {attachments.length > 0 && !message.deleted ? <MessageAttachments attachments={attachments} /> : null}
            {message.text === '' && attachments.length > 0 && !message.deleted ? null : (
          <div
            className={cx(
              bubble,
              message.deleted
                ? css({ bg: 'transparent', borderWidth: '1px', borderColor: 'border', color: 'fg.muted', fontStyle: 'italic' })
                : mine
                  ? css({ bg: 'accent', color: 'accent.fg', borderBottomRightRadius: 'md' })
                  : css({ bg: 'bg.subtle', color: 'fg.default', borderBottomLeftRadius: 'md' }),
            )}
          >
            {message.text}
          </div>
            )}
          </div>
          {mine && !message.deleted ? (
            <div className={css({ display: 'flex', opacity: { base: 1, md: 0 }, _groupHover: { opacity: 1 }, _focusWithin: { opacity: 1 } })}>
              <button type="button" className={button({ variant: 'ghost', size: 'icon' })} aria-label="Edit message" title="Edit" onClick={onEdit}>
                <MessagesIcon name="edit" size={16} />
              </button>
              <button type="button" className={button({ variant: 'ghost', size: 'icon' })} aria-label="Delete message" title="Delete" onClick={onDelete}>
                <MessagesIcon name="trash" size={16} />
              </button>
            </div>
          ) : null}
          {message.reportable && onReport ? (
            <div className={css({ display: 'flex', opacity: { base: 1, md: 0 }, _groupHover: { opacity: 1 }, _focusWithin: { opacity: 1 } })}>
              <button type="button" className={cx(button({ variant: 'ghost', size: 'icon' }), css({ color: 'fg.muted' }))} aria-label="Report message" title="Report" onClick={onReport}>
                <Icon name="flag" size={16} />
              </button>
            </div>
          ) : null}
        </div>
      )}
      <div className={css({ display: 'flex', alignItems: 'center', gap: '1', fontSize: 'xs', color: 'fg.muted' })}>
        {message.edited && !message.deleted ? <span>(edited)</span> : null}
        <time dateTime={message.createdAt} title={fullDate(message.createdAt)}>
          {time(message.createdAt)}
        </time>
        {mine && !message.deleted ? (
          <span className={css({ color: message.read ? 'accent.text' : 'fg.subtle', display: 'inline-flex' })}>
            <ReadTicks read={message.read} size={14} />
          </span>
        ) : null}
      </div>
    </li>
  )
}
