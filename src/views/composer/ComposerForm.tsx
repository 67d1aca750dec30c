import { useId, useRef, useState, type KeyboardEvent } from 'react'
import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { MAX_MEDIA, MAX_POST_LENGTH } from '../../machines/composer/composer.rules'
import { POLL_MESSAGES } from '../../machines/composer/poll.rules'
import {
  selectCanSubmit,
  selectEditing,
  selectContent,
  selectErrors,
  selectFailure,
  selectHasPoll,
  selectIsBusy,
  selectIsMediaFull,
  selectIsScheduled,
  selectOpened,
  selectIsUploading,
  selectLength,
  selectLengthLevel,
  selectReplyTo,
} from '../../machines/composer/composer.selectors'
import { selectUser } from '../../machines/session/session.selectors'
import { useSession } from '../actors'
import { PostIcon } from '../post/icons'
import type { ComposerRef } from '../../machines/composer/composer.machine'
import { Avatar } from '../ui/Avatar'
import { Spinner } from '../ui/Spinner'
import { ScheduleFields, SensitiveField, VisibilityField } from './ComposerOptions'
import { ComposerQuote } from './ComposerQuote'
import { DraftsLink, SavedMedia, SaveDraftButton } from './ComposerDraftActions'
import { MediaPreviews } from './MediaPreviews'
import { PollButton, PollEditor } from './PollEditor'
import { shownName } from '../../machines/lib/shown-name'

// The composer's form, in the Create Post dialog and inline as a post page's reply box. It only sends events to the
// composer actor and shows what the actor holds: the rules, messages and sending all live in the machine.

const errorText = css({ fontSize: 'sm', color: 'danger.text', fontWeight: 'medium' })

const textarea = css({
  w: 'full',
  minH: '24',
  maxH: '50vh',
  fieldSizing: 'content',
  resize: 'none',
  border: 'none',
  outline: 'none',
  bg: 'transparent',
  color: 'fg.default',
  fontSize: 'lg',
  lineHeight: '1.5',
  py: '2',
  _placeholder: { color: 'fg.subtle' },
})

const toolButton = cx(button({ variant: 'ghost', size: 'icon' }), css({ color: 'accent.text', w: '9', h: '9' }))

function Counter({ composer }: { composer: ComposerRef }) {
  const length = useSelector(composer, selectLength)
  const level = useSelector(composer, selectLengthLevel)
  const over = level === 'over'
  return (
    <span
      className={css({ fontSize: 'sm', fontVariantNumeric: 'tabular-nums', color: over ? 'danger.text' : level === 'near' ? 'fg.default' : 'fg.muted', fontWeight: over ? 'bold' : 'normal' })}
      aria-label={`${length} of ${MAX_POST_LENGTH} characters`}
      aria-live={over ? 'polite' : 'off'}
    >
      {length}/{MAX_POST_LENGTH}
    </span>
  )
}

function SubmitButton({ composer }: { composer: ComposerRef }) {
  const canSubmit = useSelector(composer, selectCanSubmit)
  const busy = useSelector(composer, selectIsBusy)
  const uploading = useSelector(composer, selectIsUploading)
  const isReply = useSelector(composer, (s) => selectReplyTo(s) !== null)
  const editing = useSelector(composer, (s) => selectEditing(s) !== null)
  const scheduled = useSelector(composer, selectIsScheduled)
  const idle = editing ? 'Save' : isReply ? 'Reply' : scheduled ? 'Schedule' : 'Post'
  const working = editing ? 'Saving…' : uploading ? 'Uploading…' : 'Posting…'
  return (
    <button type="submit" className={button({ size: 'md' })} disabled={!canSubmit}>
      {busy ? <Spinner size={16} /> : null}
      {busy ? working : idle}
    </button>
  )
}

function MediaButton({ composer }: { composer: ComposerRef }) {
  const fileRef = useRef<HTMLInputElement>(null)
  const full = useSelector(composer, selectIsMediaFull)
  const busy = useSelector(composer, selectIsBusy)
  // A saved draft keeps the files it was saved with.
  const opened = useSelector(composer, (s) => selectOpened(s) !== null)
  // A post has a poll or media, not both.
  const hasPoll = useSelector(composer, selectHasPoll)
  return (
    <>
      <button
        type="button"
        className={toolButton}
        aria-label="Add photos or videos"
        title={opened ? 'Files cannot be added to a saved draft' : hasPoll ? POLL_MESSAGES.withMedia : full ? `Up to ${MAX_MEDIA} files` : 'Add photos or videos'}
        disabled={busy || opened || hasPoll}
        onClick={() => fileRef.current?.click()}
      >
        <PostIcon name="image" size={20} />
      </button>
      <input
        ref={fileRef}
        type="file"
        accept="image/*,video/*"
        multiple
        hidden
        data-testid="composer-files"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])]
          // Cleared so picking the same file again (after removing it) still fires a change.
          e.target.value = ''
          if (files.length > 0) composer.send({ type: 'composer.files.add', files })
        }}
      />
    </>
  )
}

export function ComposerForm({ composer, onCancel, autoFocus = true }: { composer: ComposerRef; onCancel?: () => void; autoFocus?: boolean }) {
  const id = useId()
  const content = useSelector(composer, selectContent)
  const contentError = useSelector(composer, (s) => selectErrors(s).content)
  const mediaError = useSelector(composer, (s) => selectErrors(s).media)
  const failure = useSelector(composer, selectFailure)
  const replyTo = useSelector(composer, selectReplyTo)
  const busy = useSelector(composer, selectIsBusy)
  const editing = useSelector(composer, (s) => selectEditing(s) !== null)
  const user = useSelector(useSession(), selectUser)
  const [showOptions, setShowOptions] = useState(false)

  const submit = () => composer.send({ type: 'composer.submit' })
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault()
      submit()
    }
  }

  return (
    <form
      noValidate
      aria-label={editing ? 'Edit Post' : replyTo ? `Reply to @${replyTo.username}` : 'Create Post'}
      className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      <div className={css({ display: 'flex', gap: '3' })}>
        <Avatar src={user?.avatar} name={shownName(user) || '?'} size={40} />
        <div className={css({ flex: 1, minW: 0 })}>
          <textarea
            id={`${id}-content`}
            className={textarea}
            aria-label={replyTo ? 'Reply text' : 'Post text'}
            placeholder={replyTo ? `Reply to @${replyTo.username}` : "What's happening?"}
            value={content}
            readOnly={busy}
            autoFocus={autoFocus}
            data-autofocus
            aria-invalid={contentError ? true : undefined}
            aria-describedby={contentError ? `${id}-content-error` : undefined}
            onKeyDown={onKeyDown}
            onChange={(e) => composer.send({ type: 'composer.content.change', value: e.target.value })}
          />
          {contentError ? (
            <p id={`${id}-content-error`} className={errorText} role="alert">
              {contentError}
            </p>
          ) : null}
        </div>
      </div>

      <MediaPreviews composer={composer} />
      <ComposerQuote composer={composer} />
      {replyTo ? null : <SavedMedia composer={composer} />}
      <PollEditor composer={composer} />
      <VisibilityField composer={composer} />
      {mediaError ? (
        <p className={errorText} role="alert">
          {mediaError}
        </p>
      ) : null}

      {showOptions ? (
        <div id={`${id}-options`} className={css({ display: 'grid', gap: '4', p: '3.5', borderRadius: 'xl', bg: 'bg.subtle' })}>
          <SensitiveField composer={composer} />
          {editing ? null : <ScheduleFields composer={composer} />}
        </div>
      ) : null}

      {failure ? (
        <p className={cx(errorText, css({ px: '3', py: '2', borderRadius: 'lg', bg: 'danger.subtle' }))}>{failure}</p>
      ) : null}

      <div className={css({ display: 'flex', alignItems: 'center', gap: '1', borderTopWidth: '1px', borderColor: 'border', pt: '3' })}>
        {editing ? null : (
          <>
            <MediaButton composer={composer} />
            <PollButton composer={composer} />
          </>
        )}
        <button
          type="button"
          className={cx(button({ variant: 'ghost', size: 'sm' }), css({ color: 'accent.text' }))}
          title={editing ? 'Sensitive content' : 'Sensitive content and scheduling'}
          aria-expanded={showOptions}
          aria-controls={showOptions ? `${id}-options` : undefined}
          onClick={() => setShowOptions((v) => !v)}
        >
          Options
        </button>
        {replyTo || editing ? null : <DraftsLink composer={composer} />}
        <div className={css({ flex: 1 })} />
        <Counter composer={composer} />
        {replyTo || editing ? null : <SaveDraftButton composer={composer} />}
        {onCancel ? (
          <button type="button" className={button({ variant: 'ghost', size: 'md' })} onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        ) : null}
        <SubmitButton composer={composer} />
      </div>
    </form>
  )
}
