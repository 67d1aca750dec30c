import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from '../ui/Icon'
import { Logo } from '../ui/Logo'
import { ThemeToggle } from '../ui/ThemeToggle'

/** The top bar below the large breakpoint: the menu button, the mark, the theme switch. */
export function MobileHeader({ onOpenMenu, menuOpen }: { onOpenMenu: () => void; menuOpen: boolean }) {
  return (
    <header
      className={css({
        display: { base: 'flex', lg: 'none' },
        position: 'sticky',
        top: 0,
        zIndex: 20,
        h: '14',
        alignItems: 'center',
        justifyContent: 'space-between',
        px: '2',
        bg: 'color-mix(in srgb, token(colors.bg.surface) 88%, transparent)',
        backdropFilter: 'saturate(180%) blur(12px)',
        borderBottomWidth: '1px',
        borderColor: 'border',
      })}
    >
      <button
        type="button"
        className={button({ variant: 'ghost', size: 'icon' })}
        aria-label="Open menu"
        aria-expanded={menuOpen}
        aria-haspopup="dialog"
        onClick={onOpenMenu}
      >
        <Icon name="menu" />
      </button>
      <Link href="/" aria-label="Wren home" className={css({ borderRadius: 'lg', _focusVisible: { outline: '2px solid', outlineColor: 'accent' } })}>
        <Logo size={30} />
      </Link>
      <ThemeToggle />
    </header>
  )
}
