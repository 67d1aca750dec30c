import { useId } from 'react'
import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { Poll } from '../../api/polls.calls'
import { pollMachine, type PollRef } from '../../machines/poll/poll.machine'
import { leaders, percentOf, showsResults, timeLeft, votersText } from '../../machines/poll/poll.rules'
import { ScreenActor } from '../actors'
import { Spinner } from '../ui/Spinner'
import { useMinuteClock } from './clock'

// A poll on a post card (docs/product.md, "Polls"): the options to vote for and the time left until the member has
// voted or the poll has closed (by the member's clock, each minute), then the results: a bar per option with its
// share, the member's own choices checked, the leaders in the accent colour, and 'Final results' once closed. The
// vote form has its own actor (src/machines/poll), started only while the form shows.

const box = css({ mt: '2.5', display: 'flex', flexDirection: 'column', gap: '2' })
const footer = css({ fontSize: 'sm', color: 'fg.muted', display: 'flex', gap: '1.5', alignItems: 'center', flexWrap: 'wrap' })

function Footer({ poll, now }: { poll: Poll; now: number }) {
  return (
    <p className={footer}>
      <span>{votersText(poll.votersCount)}</span>
      <span aria-hidden="true">·</span>
      <span>{timeLeft(poll.closesAt, now)}</span>
    </p>
  )
}

function Results({ poll, now }: { poll: Poll; now: number }) {
  const top = leaders(poll)
  return (
    <div className={box} data-testid="poll-results">
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })} aria-label="Poll results">
        {poll.options.map((option) => {
          const percent = percentOf(poll, option.votes)
          const mine = poll.ownVotes.includes(option.id)
          const leading = top.has(option.id)
          return (
            <li
              key={option.id}
              className={css({ position: 'relative', borderRadius: 'lg', overflow: 'hidden', bg: 'bg.subtle' })}
              aria-label={`${option.text}: ${percent}%, ${option.votes} ${option.votes === 1 ? 'vote' : 'votes'}${mine ? ', your choice' : ''}`}
            >
              <span
                aria-hidden="true"
                className={cx(
                  css({ position: 'absolute', insetY: 0, left: 0, borderRadius: 'lg', transition: 'width 300ms' }),
                  leading ? css({ bg: 'accent.muted' }) : css({ bg: 'border' }),
                )}
                style={{ width: `${percent}%` }}
              />
              <span className={css({ position: 'relative', display: 'flex', alignItems: 'center', gap: '2', px: '3', py: '1.5', fontSize: 'sm' })}>
                <span className={css({ fontWeight: 'bold', minW: '10', fontVariantNumeric: 'tabular-nums', color: 'fg.default' })}>{percent}%</span>
                <span className={css({ flex: 1, minW: 0, overflowWrap: 'anywhere', color: 'fg.default', fontWeight: leading ? 'semibold' : 'normal' })}>
                  {option.text}
                </span>
                {mine ? (
                  <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2.2" className={css({ color: 'accent.text', flexShrink: 0 })}>
                    <path d="m5 12.5 4.5 4.5L19 7.5" />
                  </svg>
                ) : null}
              </span>
            </li>
          )
        })}
      </ul>
      <Footer poll={poll} now={now} />
    </div>
  )
}

function VoteForm({ actor, poll, now }: { actor: PollRef; poll: Poll; now: number }) {
  const name = useId()
  const choices = useSelector(actor, (s) => s.context.choices)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  return (
    <form
      className={box}
      aria-label="Poll"
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: 'poll.submit' })
      }}
    >
      <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })} disabled={busy}>
        <legend className={css({ srOnly: true })}>{poll.multiple ? 'Choose one or more' : 'Choose one'}</legend>
        {poll.options.map((option) => (
          <label
            key={option.id}
            className={css({
              display: 'flex',
              alignItems: 'center',
              gap: '2.5',
              px: '3',
              py: '1.5',
              borderRadius: 'full',
              borderWidth: '1px',
              borderColor: 'border',
              fontSize: 'sm',
              color: 'fg.default',
              cursor: 'pointer',
              _hover: { bg: 'bg.subtle', borderColor: 'border.strong' },
              '&:has(input:checked)': { borderColor: 'accent', bg: 'accent.subtle' },
              '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'accent', outlineOffset: '1px' },
            })}
          >
            <input
              type={poll.multiple ? 'checkbox' : 'radio'}
              name={name}
              value={option.id}
              checked={choices.includes(option.id)}
              onChange={() => actor.send({ type: 'poll.choose', optionId: option.id })}
              className={css({ accentColor: 'var(--colors-accent)', w: '4', h: '4', flexShrink: 0 })}
            />
            <span className={css({ overflowWrap: 'anywhere' })}>{option.text}</span>
          </label>
        ))}
      </fieldset>
      {error ? (
        <p className={css({ fontSize: 'sm', color: 'danger.text', fontWeight: 'medium' })} role="alert">
          {error}
        </p>
      ) : null}
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
        <button type="submit" className={button({ size: 'sm' })} disabled={busy || choices.length === 0}>
          {busy ? <Spinner size={14} /> : null}
          Vote
        </button>
        <Footer poll={poll} now={now} />
      </div>
    </form>
  )
}

export function PostPoll({ postId, poll }: { postId: string; poll: Poll }) {
  const now = useMinuteClock()
  if (showsResults(poll, now)) return <Results poll={poll} now={now} />
  return (
    <ScreenActor logic={pollMachine} input={{ postId, multiple: poll.multiple }}>
      {(actor) => <VoteForm actor={actor} poll={poll} now={now} />}
    </ScreenActor>
  )
}
