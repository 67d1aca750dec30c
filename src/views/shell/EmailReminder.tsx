import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { maskEmail } from '../../api/contract/email'
import { emailMachine } from '../../machines/email/email.machine'
import { useScreenActor, useSession } from '../actors'
import { Icon } from '../ui/Icon'

// The quiet reminder for a member who has not confirmed their address: one line above the column, "Mail it again"
// and a close button (hidden until the next page load). Not a modal: everything keeps working. The button does not
// say "Resend": on the message screens a "Send" button is right below it, and two names alike confuse a screen reader.
const bar = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  px: '4',
  py: '2',
  fontSize: 'sm',
  bg: 'accent.subtle',
  color: 'fg.default',
  borderBottomWidth: '1px',
  borderColor: 'border',
})
const linkButton = css({
  color: 'accent.text',
  fontWeight: 'semibold',
  borderRadius: 'sm',
  cursor: 'pointer',
  _hover: { textDecoration: 'underline' },
  _disabled: { opacity: 0.6, cursor: 'default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
})

/** The banner itself (./EmailBanner.tsx shows it only to a member whose address is not confirmed). */
export function EmailReminder() {
  const user = useSelector(useSession(), (s) => s.context.user)
  const actor = useScreenActor(emailMachine)
  const shown = useSelector(actor ?? undefined, (s) => s?.matches({ banner: 'shown' }) ?? false)
  const resending = useSelector(actor ?? undefined, (s) => s?.hasTag('resending') ?? false)
  // Absent (an older stored session) counts as confirmed until /auth/me says otherwise.
  if (user?.emailVerified !== false || !shown || !actor) return null
  const address = user.pendingEmail ?? user.email ?? ''
  return (
    <div role="status" className={bar} data-testid="email-banner">
      <Icon name="mail" size={16} />
      <p className={css({ flex: 1, minW: 0 })}>
        Confirm your email: we sent a link to {maskEmail(address)}.{' '}
        <button type="button" className={linkButton} disabled={resending} onClick={() => actor.send({ type: 'email.resend' })}>
          Mail it again
        </button>
      </p>
      <button
        type="button"
        aria-label="Hide this reminder"
        className={cx(button({ variant: 'ghost', size: 'icon' }), css({ w: '7', h: '7', minW: '7' }))}
        onClick={() => actor.send({ type: 'email.banner.dismiss' })}
      >
        <Icon name="close" size={16} />
      </button>
    </div>
  )
}
