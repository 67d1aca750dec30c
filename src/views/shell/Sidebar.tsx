import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { selectIsAdmin, selectUser } from '../../machines/session/session.selectors'
import { useSession } from '../actors'
import { Wordmark } from '../ui/Logo'
import { ThemeToggle } from '../ui/ThemeToggle'
import { CreatePostButton, HelpLink, LogoutButton } from './actions'
import { NavLink } from './NavLink'
import { navItems } from './nav-items'
import { QuickActionsMenu } from './QuickActionsMenu'
import { UserCard } from './UserCard'

/** The fixed left column on large screens (docs/product.md, "App shell"). */
export function Sidebar() {
  const session = useSession()
  const username = useSelector(session, (s) => selectUser(s)?.username ?? '')
  const isAdmin = useSelector(session, selectIsAdmin)
  return (
    <aside
      className={css({
        display: { base: 'none', lg: 'flex' },
        flexDirection: 'column',
        gap: '3',
        position: 'sticky',
        top: 0,
        h: '100dvh',
        w: '260px',
        flexShrink: 0,
        px: '3',
        py: '4',
        overflowY: 'auto',
      })}
    >
      <Link
        href="/"
        aria-label="Wren home"
        className={css({ px: '2', py: '1', borderRadius: 'lg', _focusVisible: { outline: '2px solid', outlineColor: 'accent' } })}
      >
        <Wordmark />
      </Link>
      <nav aria-label="Main">
        <ul className={css({ display: 'flex', flexDirection: 'column', gap: '0.5' })}>
          {navItems(username, isAdmin).map((item) => (
            <li key={item.label}>
              <NavLink item={item} />
            </li>
          ))}
        </ul>
      </nav>
      <CreatePostButton />
      <QuickActionsMenu />
      <div className={css({ flex: 1 })} />
      <UserCard />
      <div className={css({ display: 'flex', alignItems: 'center', gap: '1', borderTopWidth: '1px', borderColor: 'border', pt: '2' })}>
        <HelpLink compact />
        <ThemeToggle />
        <div className={css({ flex: 1 })} />
        <LogoutButton className={css({ color: 'fg.muted' })} />
      </div>
    </aside>
  )
}
