import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { MutesRef } from '../../machines/mutes/mutes.machine'
import { Icon } from '../ui/Icon'
import { MuteManagementDialog } from './MuteManagementDialog'

// Settings -> Mutes (spec: "description plus a button Manage Mutes opening a dialog"). The section's description is
// the screen's; the dialog is the mutes actor's.

export function MutesSection({ actor }: { actor: MutesRef }) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: '3', pt: '3' })}>
      <p className={css({ fontSize: 'sm' })}>
        Muted members, keywords and domains are left out of your Home feed. Nobody is told, and you can unmute at any time.
      </p>
      <button type="button" className={button()} onClick={() => actor.send({ type: 'mutes.open' })}>
        <Icon name="mute" size={18} />
        Manage Mutes
      </button>
      <MuteManagementDialog actor={actor} />
    </div>
  )
}
