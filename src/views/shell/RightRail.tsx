import { Link, useLocation } from 'wouter'
import { css } from 'styled-system/css'
import { card } from 'styled-system/recipes'
import { LazyDiscoverBox } from '../discover/lazy'
import { Icon } from '../ui/Icon'
import { useMediaQuery, WIDE_SCREEN } from '../ui/useMediaQuery'

const footerLink = css({ _hover: { textDecoration: 'underline' } })

/**
 * The right column on wide screens: a way into search, then beside Explore its Trending Now and Who to Follow
 * (docs/product.md, "Explore"), elsewhere a short welcome. Nothing of it runs where it is not shown (narrower screens).
 */
export function RightRail() {
  const [path] = useLocation()
  const shown = useMediaQuery(WIDE_SCREEN)
  return (
    <aside
      aria-label="Sidebar"
      className={css({
        display: { base: 'none', xl: 'flex' },
        flexDirection: 'column',
        gap: '4',
        position: 'sticky',
        top: 0,
        h: '100dvh',
        w: '320px',
        flexShrink: 0,
        px: '5',
        py: '4',
      })}
    >
      <Link
        href="/search"
        className={css({
          display: 'flex',
          alignItems: 'center',
          gap: '3',
          h: '11',
          px: '4',
          borderRadius: 'full',
          bg: 'bg.subtle',
          color: 'fg.muted',
          borderWidth: '1px',
          borderColor: 'transparent',
          _hover: { borderColor: 'border.strong' },
          _focusVisible: { outline: '2px solid', outlineColor: 'accent' },
        })}
      >
        <Icon name="search" />
        Search Wren
      </Link>
      {!shown ? null : path === '/explore' ? (
        <div className={css({ borderRadius: 'xl', borderWidth: '1px', borderColor: 'border', bg: 'bg.surface', overflowY: 'auto', minH: 0, flexShrink: 1, '& > section:last-child': { borderBottomWidth: 0 } })}>
          <LazyDiscoverBox dense />
        </div>
      ) : (
        <Welcome />
      )}
      <p className={css({ fontSize: 'xs', color: 'fg.subtle', display: 'flex', gap: '3', flexWrap: 'wrap', px: '1' })}>
        <a href="/terms" className={footerLink}>
          Terms
        </a>
        <a href="/privacy" className={footerLink}>
          Privacy
        </a>
        <Link href="/?show-help=true" className={footerLink}>
          Help
        </Link>
      </p>
    </aside>
  )
}

function Welcome() {
  return (
    <section className={card({ padding: 'md' })} aria-labelledby="rail-welcome">
      <h2 id="rail-welcome" className={css({ fontWeight: 'bold', fontSize: 'md', mb: '2' })}>
        Welcome to Wren
      </h2>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', lineHeight: '1.6' })}>
        A social network your community runs for itself. Post, reply, follow and keep lists; your direct messages
        are end-to-end encrypted, so only you and the other member can read them.
      </p>
      <Link href="/settings" className={css({ display: 'inline-block', mt: '3', fontSize: 'sm', fontWeight: 'semibold', color: 'accent.text', _hover: { textDecoration: 'underline' } })}>
        Set up your profile →
      </Link>
    </section>
  )
}
