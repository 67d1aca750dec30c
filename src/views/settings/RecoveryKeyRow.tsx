import { useSelector } from '@xstate/react'
import { button } from 'styled-system/recipes'
import { recoveryKeyMachine } from '../../machines/password-reset/recovery-key.machine'
import { useScreenActor, useSession } from '../actors'
import { RecoveryKeyDialog } from './RecoveryKeyDialog'
import { SettingsRow } from './SettingsRow'

/** Settings -> Security: the message recovery key, made, replaced or removed in its dialog. Only with message keys. */
export function RecoveryKeyRow() {
  const user = useSelector(useSession(), (s) => s.context.user)
  const hasKey = user?.hasRecoveryKey === true
  const actor = useScreenActor(recoveryKeyMachine)
  if (!user?.publicKey) return null
  return (
    <SettingsRow
      icon="key"
      title="Message recovery key"
      text={
        hasKey
          ? 'On: a password reset keeps your direct messages readable.'
          : 'Off: if you forget your password, your earlier direct messages are lost.'
      }
      action={
        <>
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor?.send({ type: 'recovery.open' })}>
            {hasKey ? 'Manage key' : 'Create recovery key'}
          </button>
          {actor ? <RecoveryKeyDialog actor={actor} hasKey={hasKey} /> : null}
        </>
      }
    />
  )
}
