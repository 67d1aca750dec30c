import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from '../ui/Icon'

/** A load that failed: the reason in words, and Try again. */
export function LoadError({ message, onRetry, compact = false }: { message: string; onRetry: () => void; compact?: boolean }) {
  return (
    <div
      role="alert"
      className={css({
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: '3',
        px: '6',
        color: 'fg.muted',
        py: compact ? '5' : '16',
      })}
    >
      {compact ? null : <Icon name="alert" size={30} />}
      <p className={css({ maxW: '360px' })}>{message}</p>
      <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onRetry}>
        Try again
      </button>
    </div>
  )
}
