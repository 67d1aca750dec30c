import { useId } from 'react'
import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { MAX_REASON_LENGTH } from '../../machines/composer/composer.rules'
import {
  selectEditing,
  selectErrors,
  selectIsBusy,
  selectReason,
  selectScheduleDate,
  selectScheduleTime,
  selectSensitive,
  selectVisibility,
} from '../../machines/composer/composer.selectors'
import type { ComposerRef } from '../../machines/composer/composer.machine'
import { audienceChoices, EDIT_MESSAGES } from '../../machines/composer/composer.edit'

// Who can see the post, the sensitive flag with its optional reason, and the schedule fields (a date and time make
// Post save a scheduled post instead, composer.drafts.ts).

const label = css({ fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: '0.04em' })
const fieldError = css({ fontSize: 'sm', color: 'danger.text', fontWeight: 'medium' })
const hint = css({ fontSize: 'xs', color: 'fg.muted' })

const AUDIENCE_LABELS = {
  public: 'Everyone can see this',
  followers: 'Followers only',
  mentioned: 'Mentioned people only',
} as const

/** A compact select under the text, always in view (who sees a post matters more than the other options). */
export function VisibilityField({ composer }: { composer: ComposerRef }) {
  const id = useId()
  const visibility = useSelector(composer, selectVisibility)
  const error = useSelector(composer, (s) => selectErrors(s).visibility)
  const busy = useSelector(composer, selectIsBusy)
  const editing = useSelector(composer, selectEditing)
  const choices = audienceChoices(editing)
  const narrowed = choices.some((c) => !c.allowed)
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1', alignItems: 'flex-start' })}>
      <label htmlFor={id} className={css({ srOnly: true })}>
        Who can see this
      </label>
      <select
        id={id}
        className={css({
          h: '8',
          pl: '3',
          pr: '2',
          borderRadius: 'full',
          borderWidth: '1px',
          borderColor: 'border',
          bg: 'bg.surface',
          color: 'accent.text',
          fontSize: 'sm',
          fontWeight: 'semibold',
          cursor: 'pointer',
          _hover: { bg: 'accent.subtle' },
          _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '1px' },
          _disabled: { opacity: 0.6, cursor: 'not-allowed' },
          '&[aria-invalid=true]': { borderColor: 'danger' },
        })}
        value={visibility}
        disabled={busy}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : narrowed ? `${id}-hint` : undefined}
        onChange={(e) => composer.send({ type: 'composer.visibility.change', value: e.target.value })}
      >
        {choices.map(({ value, allowed }) => (
          <option key={value} value={value} disabled={!allowed} title={allowed ? undefined : EDIT_MESSAGES.widerHint}>
            {AUDIENCE_LABELS[value]}
          </option>
        ))}
      </select>
      {narrowed && !error ? (
        <p id={`${id}-hint`} className={hint}>
          {EDIT_MESSAGES.widerHint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={fieldError} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}

export function SensitiveField({ composer }: { composer: ComposerRef }) {
  const id = useId()
  const sensitive = useSelector(composer, selectSensitive)
  const reason = useSelector(composer, selectReason)
  const busy = useSelector(composer, selectIsBusy)
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <label className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', cursor: 'pointer' })}>
        <input
          type="checkbox"
          checked={sensitive}
          disabled={busy}
          className={css({ w: '4', h: '4', accentColor: 'token(colors.accent)' })}
          onChange={(e) => composer.send({ type: 'composer.sensitive.change', value: e.target.checked })}
        />
        Mark as sensitive
      </label>
      {sensitive ? (
        <input
          id={id}
          className={input({ size: 'sm' })}
          aria-label="Reason (optional)"
          placeholder="Reason (optional), e.g. spoilers"
          maxLength={MAX_REASON_LENGTH}
          value={reason}
          disabled={busy}
          onChange={(e) => composer.send({ type: 'composer.reason.change', value: e.target.value })}
        />
      ) : null}
    </div>
  )
}

export function ScheduleFields({ composer }: { composer: ComposerRef }) {
  const id = useId()
  const date = useSelector(composer, selectScheduleDate)
  const time = useSelector(composer, selectScheduleTime)
  const error = useSelector(composer, (s) => selectErrors(s).schedule)
  const busy = useSelector(composer, selectIsBusy)
  const send = (next: { date?: string; time?: string }) =>
    composer.send({ type: 'composer.schedule.change', date: next.date ?? date, time: next.time ?? time })
  return (
    <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })} disabled={busy}>
      <legend className={label}>Schedule</legend>
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', mt: '1' })}>
        <input
          id={`${id}-date`}
          type="date"
          aria-label="Schedule date"
          className={cx(input({ size: 'sm' }), css({ w: 'auto' }))}
          value={date}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-note`}
          onChange={(e) => send({ date: e.target.value })}
        />
        <input
          type="time"
          aria-label="Schedule time"
          className={cx(input({ size: 'sm' }), css({ w: 'auto' }))}
          value={time}
          aria-describedby={`${id}-note`}
          onChange={(e) => send({ time: e.target.value })}
        />
      </div>
      <p id={`${id}-note`} className={error ? fieldError : hint} role={error ? 'alert' : undefined}>
        {error ?? 'Set a date and time to schedule the post: Post becomes Schedule.'}
      </p>
    </fieldset>
  )
}
