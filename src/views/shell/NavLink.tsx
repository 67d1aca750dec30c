import { Link, useLocation, useSearch } from 'wouter'
import { css, cx } from 'styled-system/css'
import { Icon } from '../ui/Icon'
import { isCurrent, type NavItem } from './nav-items'
import { UnreadBadge, useNavUnread, withUnread } from './UnreadBadge'

const sidebarLink = css({
  display: 'flex',
  alignItems: 'center',
  gap: '4',
  h: '11',
  px: '3',
  borderRadius: 'full',
  fontSize: 'lg',
  color: 'fg.default',
  transitionProperty: 'background-color',
  transitionDuration: 'fast',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
  '&[aria-current=page]': { fontWeight: 'bold', '& svg': { strokeWidth: 2.4 } },
})

/** A navigation entry that marks itself as the current page (aria-current) for screen readers and styling. */
export function NavLink({ item, onNavigate, className }: { item: NavItem; onNavigate?: () => void; className?: string }) {
  const [path] = useLocation()
  const search = useSearch()
  const current = isCurrent(item.href, path, search)
  const unread = useNavUnread()
  const count = unread(item.href)
  return (
    <Link
      href={item.href}
      aria-current={current ? 'page' : undefined}
      aria-label={count > 0 ? withUnread(item.label, count) : undefined}
      className={cx(sidebarLink, className)}
      onClick={onNavigate}
    >
      <Icon name={item.icon} size={24} />
      <span>{item.label}</span>
      <UnreadBadge count={count} />
    </Link>
  )
}
