import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from './Icon'

// The sticky title bar at the top of the centre column; a back link when the screen is a child of another.
export function PageHeader({
  title,
  subtitle,
  backTo,
  onBack,
  backLabel = 'Back',
  actions,
}: {
  title: string
  subtitle?: ReactNode
  backTo?: string
  /** A back button that goes wherever the member came from (instead of a fixed `backTo`). */
  onBack?: () => void
  backLabel?: string
  actions?: ReactNode
}) {
  return (
    <header
      className={css({
        position: 'sticky',
        top: { base: '14', lg: 0 },
        zIndex: 10,
        display: 'flex',
        alignItems: 'center',
        gap: '2',
        minH: '14',
        px: '4',
        py: '2',
        bg: 'color-mix(in srgb, token(colors.bg.surface) 85%, transparent)',
        backdropFilter: 'saturate(180%) blur(12px)',
        borderBottomWidth: '1px',
        borderColor: 'border',
      })}
    >
      {backTo ? (
        <Link href={backTo} className={cx(button({ variant: 'ghost', size: 'icon' }), css({ ml: '-2' }))} aria-label={backLabel}>
          <Icon name="back" />
        </Link>
      ) : onBack ? (
        <button type="button" onClick={onBack} className={cx(button({ variant: 'ghost', size: 'icon' }), css({ ml: '-2' }))} aria-label={backLabel}>
          <Icon name="back" />
        </button>
      ) : null}
      <div className={css({ flex: 1, minW: 0 })}>
        <h1 className={css({ fontSize: 'xl', fontWeight: 'bold', letterSpacing: '-0.01em', lineHeight: '1.2' })}>{title}</h1>
        {subtitle ? <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>{subtitle}</p> : null}
      </div>
      {actions}
    </header>
  )
}
