import { css, cx } from 'styled-system/css'

const ring = css({
  display: 'inline-block',
  borderRadius: 'full',
  borderWidth: '2.5px',
  borderStyle: 'solid',
  borderColor: 'currentColor',
  borderRightColor: 'transparent',
  animation: 'spin 0.7s linear infinite',
  flexShrink: 0,
})

export function Spinner({ size = 20, className, label }: { size?: number; className?: string; label?: string }) {
  return (
    <span
      className={cx(ring, className)}
      style={{ width: size, height: size }}
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    />
  )
}

/** Shown while the session decides whether the stored token is still good (docs/product.md, "Session check"). */
export function FullScreenSpinner() {
  return (
    <div
      className={css({
        minH: '100dvh',
        display: 'grid',
        placeItems: 'center',
        bg: 'bg.canvas',
        color: 'accent',
      })}
    >
      <Spinner size={36} label="Loading" />
    </div>
  )
}
