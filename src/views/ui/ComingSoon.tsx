import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { Icon, type IconName } from './Icon'

/** An honest placeholder for screens that are designed but not built yet. */
export function ComingSoon({ icon, title, children }: { icon: IconName; title: string; children?: ReactNode }) {
  return (
    <div
      className={css({
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: '3',
        px: '6',
        py: { base: '14', md: '20' },
        color: 'fg.muted',
      })}
    >
      <span
        className={css({
          display: 'grid',
          placeItems: 'center',
          w: '16',
          h: '16',
          borderRadius: '2xl',
          bg: 'accent.subtle',
          color: 'accent.text',
          mb: '1',
        })}
      >
        <Icon name={icon} size={30} />
      </span>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.default', letterSpacing: '-0.01em' })}>{title}</h2>
      {children ? <div className={css({ maxW: '380px', fontSize: 'md', lineHeight: '1.6' })}>{children}</div> : null}
      <span
        className={css({
          mt: '2',
          display: 'inline-flex',
          alignItems: 'center',
          gap: '1.5',
          px: '3',
          py: '1',
          borderRadius: 'full',
          bg: 'bg.subtle',
          fontSize: 'xs',
          fontWeight: 'semibold',
          textTransform: 'uppercase',
          letterSpacing: '0.06em',
        })}
      >
        <Icon name="sparkles" size={14} />
        Coming soon
      </span>
    </div>
  )
}
