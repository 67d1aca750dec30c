import { useSelector } from '@xstate/react'
import { useRef } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { ATTACHMENT_TYPES } from '../../api/contract/encryption'
import type { ConversationRef } from '../../machines/conversation/conversation.machine'
import {
  selectCanSend,
  selectComposerNotice,
  selectDraft,
  selectFiles,
  selectSendError,
  selectSending,
} from '../../machines/conversation/conversation.selectors'
import type { MessageAttachmentsRef } from '../../machines/message-attachments/message-attachments.machine'
import {
  selectAttachmentError,
  selectCanPick,
  selectHeldFiles,
  selectUploading,
} from '../../machines/message-attachments/message-attachments.selectors'
import { Icon } from '../ui/Icon'
import { MessagesIcon } from './icons'

// The composer under the conversation: Enter sends, Shift+Enter breaks the line; Send waits for text or a photo and
// for the previous send; 'Failed to send message' keeps the text and the files; when the other member cannot be
// written to, the reason replaces the input. The photo button picks up to four photos or videos, shown above the
// input with a remove button each until sent (the attachments actor checks and encrypts them).

const ACCEPT = Object.keys(ATTACHMENT_TYPES).join(',')

function PickedFiles({ files }: { files: MessageAttachmentsRef }) {
  const held = useSelector(files, selectHeldFiles)
  const uploading = useSelector(files, selectUploading)
  if (held.length === 0) return null
  return (
    <ul aria-label="Attachments" className={css({ display: 'flex', gap: '2', pb: '2', px: '12', overflowX: 'auto' })}>
      {held.map((file) => (
        <li key={file.id} className={css({ position: 'relative', flexShrink: 0 })}>
          {file.kind === 'image' ? (
            <img src={file.previewUrl} alt={file.file.name} className={css({ w: '16', h: '16', objectFit: 'cover', borderRadius: 'lg', borderWidth: '1px', borderColor: 'border' })} />
          ) : (
            <video src={file.previewUrl} muted aria-label={file.file.name} className={css({ w: '16', h: '16', objectFit: 'cover', borderRadius: 'lg', borderWidth: '1px', borderColor: 'border', bg: 'bg.subtle' })} />
          )}
          <button
            type="button"
            aria-label={`Remove ${file.file.name}`}
            title="Remove"
            disabled={uploading}
            onClick={() => files.send({ type: 'attachments.remove', id: file.id })}
            className={css({
              position: 'absolute',
              top: '-1.5',
              right: '-1.5',
              w: '5',
              h: '5',
              display: 'grid',
              placeItems: 'center',
              borderRadius: 'full',
              bg: 'fg.default',
              color: 'bg.surface',
              cursor: 'pointer',
              _disabled: { opacity: 0.5, cursor: 'default' },
            })}
          >
            <Icon name="close" size={12} />
          </button>
        </li>
      ))}
    </ul>
  )
}

function PickButton({ files }: { files: MessageAttachmentsRef }) {
  const input = useRef<HTMLInputElement>(null)
  const canPick = useSelector(files, selectCanPick)
  return (
    <>
      <button type="button" className={button({ variant: 'ghost', size: 'icon' })} aria-label="Add photos or videos" title="Add photos or videos" disabled={!canPick} onClick={() => input.current?.click()}>
        <MessagesIcon name="image" />
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        multiple
        hidden
        data-testid="message-files"
        onChange={(e) => {
          files.send({ type: 'attachments.add', files: [...(e.target.files ?? [])] })
          e.target.value = ''
        }}
      />
    </>
  )
}

function AttachmentError({ files }: { files: MessageAttachmentsRef }) {
  const error = useSelector(files, selectAttachmentError)
  return error ? (
    <p role="alert" className={css({ mt: '1.5', px: '12', fontSize: 'xs', color: 'danger.text' })}>
      {error}
    </p>
  ) : null
}

export function MessageComposer({ conversation }: { conversation: ConversationRef }) {
  const draft = useSelector(conversation, selectDraft)
  const canSend = useSelector(conversation, selectCanSend)
  const sending = useSelector(conversation, selectSending)
  const error = useSelector(conversation, selectSendError)
  const notice = useSelector(conversation, selectComposerNotice)
  const files = useSelector(conversation, selectFiles)

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
      {files ? <PickedFiles files={files} /> : null}
      <div className={css({ display: 'flex', alignItems: 'flex-end', gap: '2' })}>
        {files ? <PickButton files={files} /> : null}
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
      ) : files ? (
        <AttachmentError files={files} />
      ) : null}
    </form>
  )
}
