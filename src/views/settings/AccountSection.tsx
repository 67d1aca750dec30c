import { AccountDeleteRow } from './AccountDeleteRow'
import { AccountEmailRow } from './AccountEmailRow'
import { AccountExportRow } from './AccountExportRow'
import { SettingsRows } from './SettingsRow'

/** The account itself: its email address, taking its data out, and leaving. */
export function AccountSection() {
  return (
    <SettingsRows>
      <AccountEmailRow />
      <AccountExportRow />
      <AccountDeleteRow />
    </SettingsRows>
  )
}
