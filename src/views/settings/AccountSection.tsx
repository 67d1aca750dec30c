import { useSelector } from '@xstate/react'
import { useSession } from '../actors'
import { SettingsRow, SettingsRows } from './SettingsRow'

/** The account itself: its email address, taking its data out, and leaving. */
export function AccountSection() {
  const email = useSelector(useSession(), (s) => s.context.user?.email ?? '')
  return (
    <SettingsRows>
      <SettingsRow icon="mail" title="Email" text={email} action={null} />
    </SettingsRows>
  )
}
