import { lazy, Suspense, useState, type ReactNode } from 'react'
import { useLocation } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from '../ui/Icon'
import { useOpenComposer } from './actions'
import { BottomBar } from './BottomBar'
import { EmailBanner } from './EmailBanner'
import { MobileHeader } from './MobileHeader'
import { RightRail } from './RightRail'
import { Sidebar } from './Sidebar'

// The signed-in frame. Large screens: sidebar | centre column | right rail (extra wide only). Below that: a top bar
// with the menu button, the centre column, a floating compose button and the bottom bar. The menu drawer's code
// loads when it first opens (it renders nothing while closed).

const MobileMenu = lazy(() => import('./MobileMenu').then((m) => ({ default: m.MobileMenu })))

const skipLink = css({
  position: 'absolute',
  left: '3',
  top: '-20',
  zIndex: 100,
  px: '4',
  py: '2',
  borderRadius: 'lg',
  bg: 'accent',
  color: 'accent.fg',
  fontWeight: 'semibold',
  _focus: { top: '3' },
})

export function AppShell({ children }: { children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false)
  const openComposer = useOpenComposer()
  // Messages needs room for its two panes (and its own composer where the floating button would sit).
  const [path] = useLocation()
  const wide = path === '/messages' || path.startsWith('/messages/')
  return (
    <div className={css({ minH: '100dvh', bg: 'bg.canvas' })}>
      <a href="#main" className={skipLink}>
        Skip to content
      </a>
      <MobileHeader menuOpen={menuOpen} onOpenMenu={() => setMenuOpen(true)} />
      {menuOpen ? (
        <Suspense fallback={null}>
          <MobileMenu open onClose={() => setMenuOpen(false)} />
        </Suspense>
      ) : null}
      <div className={css({ display: 'flex', justifyContent: 'center' })}>
        <Sidebar />
        <main
          id="main"
          tabIndex={-1}
          className={css({
            flex: 1,
            minW: 0,
            maxW: { base: 'none', md: wide ? '1040px' : '640px' },
            minH: { base: 'calc(100dvh - 3.5rem)', lg: '100dvh' },
            bg: 'bg.surface',
            borderXWidth: { base: 0, md: '1px' },
            borderColor: 'border',
            pb: { base: '20', lg: '0' },
            outline: 'none',
          })}
        >
          <EmailBanner />
          {children}
        </main>
        {wide ? null : <RightRail />}
      </div>
      <button
        type="button"
        aria-label="Create Post"
        onClick={openComposer}
        className={cx(
          button({ size: 'icon' }),
          css({
            display: { base: wide ? 'none' : 'inline-flex', lg: 'none' },
            position: 'fixed',
            zIndex: 20,
            right: '4',
            bottom: 'calc(5rem + env(safe-area-inset-bottom))',
            w: '14',
            h: '14',
            boxShadow: 'popover',
          }),
        )}
      >
        <Icon name="compose" size={24} />
      </button>
      <BottomBar />
    </div>
  )
}
