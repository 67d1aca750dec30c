import { Link, useLocation, useSearch } from 'wouter'
import { css } from 'styled-system/css'
import { Icon } from '../ui/Icon'
import { BOTTOM_BAR_SIZE, isCurrent, navItems } from './nav-items'
import { UnreadBadge, useNavUnread, withUnread } from './UnreadBadge'

/** The phone's bottom bar: the first five navigation items (docs/product.md, "App shell"). */
export function BottomBar() {
  const [path] = useLocation()
  const search = useSearch()
  const unread = useNavUnread()
  // The first five never include Profile or Admin, so the username and role do not matter here.
  const items = navItems('', false).slice(0, BOTTOM_BAR_SIZE)
  return (
    <nav
      aria-label="Bottom navigation"
      className={css({
        display: { base: 'block', lg: 'none' },
        position: 'fixed',
        zIndex: 20,
        left: 0,
        right: 0,
        bottom: 0,
        bg: 'color-mix(in srgb, token(colors.bg.surface) 92%, transparent)',
        backdropFilter: 'saturate(180%) blur(12px)',
        borderTopWidth: '1px',
        borderColor: 'border',
        pb: 'env(safe-area-inset-bottom)',
      })}
    >
      <ul className={css({ display: 'grid', gridTemplateColumns: 'repeat(5, 1fr)', h: '16' })}>
        {items.map((item) => {
          const current = isCurrent(item.href, path, search)
          const count = unread(item.href)
          return (
            <li key={item.label} className={css({ display: 'flex' })}>
              <Link
                href={item.href}
                aria-current={current ? 'page' : undefined}
                aria-label={count > 0 ? withUnread(item.label, count) : undefined}
                className={css({
                  position: 'relative',
                  flex: 1,
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'center',
                  justifyContent: 'center',
                  gap: '0.5',
                  fontSize: '11px',
                  fontWeight: 'medium',
                  color: 'fg.muted',
                  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-4px', borderRadius: 'lg' },
                  '&[aria-current=page]': { color: 'accent.text', fontWeight: 'bold', '& svg': { strokeWidth: 2.4 } },
                })}
              >
                <Icon name={item.icon} size={24} />
                <span>{item.label}</span>
                <UnreadBadge count={count} className={css({ position: 'absolute', top: '1.5', left: 'calc(50% + 6px)' })} />
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
