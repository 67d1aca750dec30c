import { useId } from 'react'
import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button, input } from 'styled-system/recipes'
import { canAddOption, canRemoveOption, optionProblems, POLL, POLL_DURATIONS, POLL_MESSAGES } from '../../machines/composer/poll.rules'
import { selectErrors, selectHasMedia, selectHasPoll, selectIsBusy, selectPoll } from '../../machines/composer/composer.selectors'
import type { ComposerRef } from '../../machines/composer/composer.machine'
import { PostIcon } from '../post/icons'

// The composer's poll (docs/product.md, "Polls"): 2 to 4 options of up to 50 characters, a duration from Mastodon's
// presets, single or multiple choice. It only sends the composer's poll events; the rules are in poll.rules.ts.

const fieldError = css({ fontSize: 'sm', color: 'danger.text', fontWeight: 'medium' })
const toolButton = cx(button({ variant: 'ghost', size: 'icon' }), css({ color: 'accent.text', w: '9', h: '9' }))

/** The toolbar's poll button: adds a poll, or removes it. Off while media are attached (a post has one or the other). */
export function PollButton({ composer }: { composer: ComposerRef }) {
  const hasPoll = useSelector(composer, selectHasPoll)
  const hasMedia = useSelector(composer, selectHasMedia)
  const busy = useSelector(composer, selectIsBusy)
  return (
    <button
      type="button"
      className={toolButton}
      aria-label={hasPoll ? 'Remove poll' : 'Add a poll'}
      aria-pressed={hasPoll}
      title={hasMedia ? POLL_MESSAGES.withMedia : hasPoll ? 'Remove poll' : 'Add a poll'}
      disabled={busy || (hasMedia && !hasPoll)}
      onClick={() => composer.send({ type: hasPoll ? 'composer.poll.remove' : 'composer.poll.add' })}
    >
      <PostIcon name="poll" size={20} />
    </button>
  )
}

export function PollEditor({ composer }: { composer: ComposerRef }) {
  const id = useId()
  const poll = useSelector(composer, selectPoll)
  const error = useSelector(composer, (s) => selectErrors(s).poll)
  const checked = useSelector(composer, (s) => s.context.checked)
  const busy = useSelector(composer, selectIsBusy)
  if (!poll) return null
  // Each option's own problem shows beside it once the member has tried to post (or at once when too long).
  const problems = optionProblems(poll)
  return (
    <fieldset
      className={css({ display: 'flex', flexDirection: 'column', gap: '2', p: '3.5', borderRadius: 'xl', borderWidth: '1px', borderColor: 'border' })}
      disabled={busy}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className={css({ srOnly: true })}>Poll</legend>
      {poll.options.map((option, index) => {
        const problem = problems[index] ?? null
        const shown = problem === POLL_MESSAGES.optionTooLong || (checked && problem) ? problem : null
        return (
          <div key={index} className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
            <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
              <input
                className={input({ size: 'sm' })}
                aria-label={`Option ${index + 1}`}
                placeholder={`Option ${index + 1}`}
                value={option}
                aria-invalid={shown ? true : undefined}
                onChange={(e) => composer.send({ type: 'composer.poll.option.change', index, value: e.target.value })}
              />
              {canRemoveOption(poll) ? (
                <button
                  type="button"
                  className={cx(button({ variant: 'ghost', size: 'icon' }), css({ w: '8', h: '8', color: 'fg.muted', flexShrink: 0 }))}
                  aria-label={`Remove option ${index + 1}`}
                  onClick={() => composer.send({ type: 'composer.poll.option.remove', index })}
                >
                  ×
                </button>
              ) : null}
            </div>
            {shown ? <p className={fieldError}>{shown}</p> : null}
          </div>
        )
      })}
      <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
        {canAddOption(poll) ? (
          <button
            type="button"
            className={cx(button({ variant: 'ghost', size: 'sm' }), css({ color: 'accent.text' }))}
            onClick={() => composer.send({ type: 'composer.poll.option.add' })}
          >
            Add option
          </button>
        ) : (
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>Up to {POLL.optionsMax} options</span>
        )}
        <label className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' })}>
          <span className={css({ color: 'fg.muted' })}>Poll length</span>
          <select
            className={cx(input({ size: 'sm' }), css({ w: 'auto' }))}
            value={poll.durationSeconds}
            onChange={(e) => composer.send({ type: 'composer.poll.duration.change', seconds: Number(e.target.value) })}
          >
            {POLL_DURATIONS.map((d) => (
              <option key={d.seconds} value={d.seconds}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
        <label className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', cursor: 'pointer' })}>
          <input
            type="checkbox"
            checked={poll.multiple}
            className={css({ w: '4', h: '4', accentColor: 'token(colors.accent)' })}
            onChange={(e) => composer.send({ type: 'composer.poll.multiple.change', value: e.target.checked })}
          />
          Multiple choice
        </label>
      </div>
      {error ? (
        <p id={`${id}-error`} className={fieldError} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}
