import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from '../ui/Icon'
import { Menu } from '../ui/Menu'
import { quickActions } from './nav-items'

// In the sidebar it floats upwards (the button sits low, and a menu running off the screen would hide Reports);
// in the phone menu it opens in place, pushing the rest down.
const floating = css({ position: 'absolute', zIndex: 30, bottom: 'calc(100% + 0.5rem)', left: 0, right: 0, minW: '220px' })
const inFlow = css({ mt: '2' })

export function QuickActionsMenu({ inline = false, onNavigate }: { inline?: boolean; onNavigate?: () => void }) {
  return (
    <Menu
      label="Quick Actions"
      items={quickActions.map((action) => ({
        label: action.label,
        icon: <Icon name={action.icon} size={18} />,
        href: action.href,
        onSelect: onNavigate,
      }))}
      trigger={(open) => (
        <>
          <Icon name="zap" />
          <span className={css({ flex: 1, textAlign: 'left' })}>Quick Actions</span>
          <Icon name="chevronDown" className={css({ transition: 'transform 120ms', transform: open ? 'rotate(180deg)' : 'none' })} />
        </>
      )}
      triggerClassName={button({ variant: 'outline', fullWidth: true })}
      popupClassName={inline ? inFlow : floating}
      arrowDownOpens
    />
  )
}
