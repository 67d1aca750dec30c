import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useSelector } from '@xstate/react'
import { selectKeyStatus } from '../../machines/keys/keys.selectors'
import { sessionsMachine } from '../../machines/sessions/sessions.machine'
import { useKeys, useScreenActor, useSession } from '../actors'
import { RecoveryKeyRow } from './RecoveryKeyRow'
import { SessionsDialog } from './SessionsDialog'
import { SettingsRow, SettingsRows } from './SettingsRow'

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
    <SettingsRows>
      <SettingsRow
        icon="key"
        title="Messages"
        text={key.detail}
        action={
          <span role="status" className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
            {key.label}
          </span>
        }
      />
      <RecoveryKeyRow />
      <SettingsRow
        icon="key"
        title="Password"
        text="Change the password you use to log in."
        action={
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onChangePassword}>
            Change Password
          </button>
        }
      />
      <SettingsRow
        icon="shield"
        title="Two-Factor Authentication"
        text={twoFactorOn ? 'On: signing in asks for a code from your app.' : 'Off: add a second step when you log in.'}
        action={
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => onTwoFactor(twoFactorOn)}>
            {twoFactorOn ? 'Manage 2FA' : 'Enable 2FA'}
          </button>
        }
      />
      <SettingsRow
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
    </SettingsRows>
  )
}
