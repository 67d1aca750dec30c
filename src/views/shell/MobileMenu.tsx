import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { selectIsAdmin, selectUser } from '../../machines/session/session.selectors'
import { useSession } from '../actors'
import { Icon } from '../ui/Icon'
import { Drawer } from '../ui/Overlay'
import { Wordmark } from '../ui/Logo'
import { ThemeToggle } from '../ui/ThemeToggle'
import { HelpLink, LogoutButton } from './actions'
import { NavLink } from './NavLink'
import { navItems } from './nav-items'
import { QuickActionsMenu } from './QuickActionsMenu'
import { UserCard } from './UserCard'

/** The phone's slide-out menu: everything the sidebar has, in one scrollable column. */
export function MobileMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const session = useSession()
  const username = useSelector(session, (s) => selectUser(s)?.username ?? '')
  const isAdmin = useSelector(session, selectIsAdmin)
  return (
    <Drawer open={open} onClose={onClose} label="Menu">
      <div className={css({ display: 'flex', flexDirection: 'column', p: '3', gap: '1' })}>
        <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: '1', pb: '2' })}>
          <Wordmark />
          <button type="button" className={button({ variant: 'ghost', size: 'icon' })} aria-label="Close menu" onClick={onClose}>
            <Icon name="close" />
          </button>
        </div>
        <UserCard onNavigate={onClose} />
        <nav aria-label="Menu">
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: '0.5', mt: '2' })}>
            {navItems(username, isAdmin).map((item) => (
              <li key={item.label}>
                <NavLink item={item} onNavigate={onClose} className={css({ fontSize: 'md', h: '11' })} />
              </li>
            ))}
          </ul>
        </nav>
        <div className={css({ mt: '3' })}>
          <QuickActionsMenu inline onNavigate={onClose} />
        </div>
        <div className={css({ borderTopWidth: '1px', borderColor: 'border', mt: '3', pt: '3', display: 'flex', flexDirection: 'column', gap: '0.5' })}>
          <HelpLink onNavigate={onClose} className={css({ w: 'full' })} />
          <ThemeToggle withLabel className={css({ w: 'full' })} />
          <LogoutButton className={css({ w: 'full' })} />
        </div>
      </div>
    </Drawer>
  )
}
