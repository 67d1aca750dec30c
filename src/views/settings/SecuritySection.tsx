import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useSelector } from '@xstate/react'
import { selectKeyStatus } from '../../machines/keys/keys.selectors'
import { sessionsMachine } from '../../machines/sessions/sessions.machine'
import { useKeys, useScreenActor, useSession } from '../actors'
import { Icon, type IconName } from '../ui/Icon'
import { SessionsDialog } from './SessionsDialog'

// Icon | text, with the button under the text; side by side once the section (not the window) is wide enough.
const list = css({ containerType: 'inline-size' })
const row = css({
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  columnGap: '3',
  rowGap: '2.5',
  alignItems: 'start',
  py: '4',
  '&:not(:last-child)': { borderBottomWidth: '1px', borderColor: 'border' },
  '& > :last-child': { gridColumn: '2', justifySelf: 'start' },
  '@container (min-width: 30rem)': {
    gridTemplateColumns: 'auto 1fr auto',
    alignItems: 'center',
    '& > :last-child': { gridColumn: '3', justifySelf: 'end' },
  },
})

function SecurityRow({ icon, title, text, action }: { icon: IconName; title: string; text: string; action: ReactNode }) {
  return (
    <li className={row}>
      <span className={css({ display: 'grid', placeItems: 'center', w: '10', h: '10', borderRadius: 'xl', bg: 'bg.subtle', color: 'fg.muted', flexShrink: 0 })}>
        <Icon name={icon} />
      </span>
      <div className={css({ flex: 1 })}>
        <h3 className={css({ fontWeight: 'semibold' })}>{title}</h3>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{text}</p>
      </div>
      {action}
    </li>
  )
}

/** Password (Change Password), Two-Factor Authentication (Enable 2FA), Active Sessions (View Sessions). */
export function SecuritySection({
  onChangePassword,
  onTwoFactor,
}: {
  onChangePassword: () => void
  /** Opens the two-factor dialog, on its setup or its manage step. */
  onTwoFactor: (enabled: boolean) => void
}) {
  const twoFactorOn = useSelector(useSession(), (s) => s.context.user?.twoFactorEnabled === true)
  const key = useSelector(useKeys(), selectKeyStatus, (a, b) => a.label === b.label && a.detail === b.detail)
  // The View Sessions dialog's actor lives while the section shows.
  const sessions = useScreenActor(sessionsMachine)
  return (
    <ul className={list}>
      <SecurityRow
        icon="key"
        title="Messages"
        text={key.detail}
        action={
          <span role="status" className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
            {key.label}
          </span>
        }
      />
      <SecurityRow
        icon="key"
        title="Password"
        text="Change the password you use to log in."
        action={
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onChangePassword}>
            Change Password
          </button>
        }
      />
      <SecurityRow
        icon="shield"
        title="Two-Factor Authentication"
        text={twoFactorOn ? 'On: signing in asks for a code from your app.' : 'Off: add a second step when you log in.'}
        action={
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => onTwoFactor(twoFactorOn)}>
            {twoFactorOn ? 'Manage 2FA' : 'Enable 2FA'}
          </button>
        }
      />
      <SecurityRow
        icon="devices"
        title="Active Sessions"
        text="See where your account is signed in."
        action={
          <>
            <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => sessions?.send({ type: 'sessions.open' })}>
              View Sessions
            </button>
            {/* The dialog opens over the page (a portal), wherever it is rendered. */}
            {sessions ? <SessionsDialog actor={sessions} /> : null}
          </>
        }
      />
    </ul>
  )
}
