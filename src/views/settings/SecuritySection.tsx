import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { toast } from '../../machines/toast.store'
import { Icon, type IconName } from '../ui/Icon'

const row = css({
  display: 'flex',
  alignItems: { base: 'flex-start', sm: 'center' },
  flexDirection: { base: 'column', sm: 'row' },
  gap: '3',
  py: '4',
  '&:not(:last-child)': { borderBottomWidth: '1px', borderColor: 'border' },
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

/** Spec: Password (Change Password), Two-Factor Authentication (Enable 2FA), Active Sessions (View Sessions). */
export function SecuritySection({ onChangePassword }: { onChangePassword: () => void }) {
  return (
    <ul>
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
        text="Add a second step when you log in."
        action={
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => toast('Two-factor authentication is coming soon.')}>
            Enable 2FA
          </button>
        }
      />
      <SecurityRow
        icon="devices"
        title="Active Sessions"
        text="See where your account is signed in."
        action={
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => toast('Session management is coming soon.')}>
            View Sessions
          </button>
        }
      />
    </ul>
  )
}
