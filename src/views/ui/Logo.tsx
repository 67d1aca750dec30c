import { css } from 'styled-system/css'

// Wren's mark: a small bird in a rounded square, drawn in the accent colour.
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" className={css({ flexShrink: 0 })}>
      <rect width="32" height="32" rx="9" className={css({ fill: 'accent' })} />
      <path
        d="M7 12.5c4 0 7 2 9 6 2-5 5-8 10-8-2 2-3 4-3 7 0 4-3 7-7 7-5 0-8-4-9-12Z"
        className={css({ fill: 'accent.fg' })}
      />
      <circle cx="21.5" cy="13.5" r="1.1" className={css({ fill: 'accent' })} />
    </svg>
  )
}

export function Wordmark() {
  return (
    <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '2.5' })}>
      <Logo size={32} />
      <span className={css({ fontSize: 'xl', fontWeight: 'bold', letterSpacing: '-0.02em' })}>Wren</span>
    </span>
  )
}
