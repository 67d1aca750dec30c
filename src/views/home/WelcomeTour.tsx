import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { TOUR_STEPS, type TourMachine } from '../../machines/tour/tour.machine'
import { Icon } from '../ui/Icon'
import { TOUR_ELEMENT_ID } from './tour-element'
import { TOUR_COPY } from './tour-steps'

// The welcome tour as a card at the top of Home: it guides without blocking the page (the member can still scroll,
// post or switch the theme while it shows).

const dot = css({ w: '2', h: '2', borderRadius: 'full', transition: 'width 160ms' })
const dotCurrent = css({ w: '5' })
const dotDone = css({ bg: 'accent' })
const dotAhead = css({ bg: 'accent.muted' })


export type TourRef = ActorRefFrom<TourMachine>

const selectStep = (s: ReturnType<TourRef['getSnapshot']>) => TOUR_STEPS.find((step) => s.matches({ open: step })) ?? null

export function WelcomeTour({ tour }: { tour: TourRef }) {
  const step = useSelector(tour, selectStep)
  const canFinish = useSelector(tour, (s) => s.can({ type: 'tour.finish' }))
  if (!step) return null
  const index = TOUR_STEPS.indexOf(step)
  const copy = TOUR_COPY[step]
  return (
    <section
      id={TOUR_ELEMENT_ID}
      tabIndex={-1}
      aria-label="Welcome tour"
      aria-roledescription="tour"
      className={css({
        m: '4',
        mb: '0',
        p: '5',
        borderRadius: '2xl',
        bg: 'accent.subtle',
        borderWidth: '1px',
        borderColor: 'accent.muted',
        outline: 'none',
        animation: 'popIn 160ms ease-out',
        _focusVisible: { boxShadow: '0 0 0 3px token(colors.accent.ring)' },
      })}
    >
      <div className={css({ display: 'flex', alignItems: 'center', gap: '2', mb: '2' })}>
        <span className={css({ display: 'inline-grid', placeItems: 'center', w: '8', h: '8', borderRadius: 'lg', bg: 'accent', color: 'accent.fg' })}>
          <Icon name="sparkles" size={18} />
        </span>
        <p className={css({ fontSize: 'xs', fontWeight: 'bold', color: 'accent.text', textTransform: 'uppercase', letterSpacing: '0.06em' })}>
          Step {index + 1} of {TOUR_STEPS.length}
        </p>
      </div>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', letterSpacing: '-0.01em' })}>{copy.title}</h2>
      <p className={css({ mt: '1.5', color: 'fg.muted', lineHeight: '1.6' })}>{copy.body}</p>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3', mt: '4', flexWrap: 'wrap' })}>
        <ol aria-hidden="true" className={css({ display: 'flex', gap: '1.5', flex: 1 })}>
          {TOUR_STEPS.map((s, i) => (
            <li key={s} className={cx(dot, i === index ? dotCurrent : undefined, i <= index ? dotDone : dotAhead)} />
          ))}
        </ol>
        {canFinish ? null : (
          <button type="button" className={button({ variant: 'ghost', size: 'sm' })} onClick={() => tour.send({ type: 'tour.skip' })}>
            Skip Tour
          </button>
        )}
        {canFinish ? (
          <button type="button" className={button({ size: 'sm' })} onClick={() => tour.send({ type: 'tour.finish' })}>
            Get Started
          </button>
        ) : (
          <button type="button" className={button({ size: 'sm' })} onClick={() => tour.send({ type: 'tour.next' })}>
            Next
          </button>
        )}
      </div>
    </section>
  )
}
