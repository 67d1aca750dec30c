import { css, cx } from 'styled-system/css'

const base = css({
  display: 'inline-grid',
  placeItems: 'center',
  borderRadius: 'full',
  overflow: 'hidden',
  flexShrink: 0,
  bg: 'accent.muted',
  color: 'accent.text',
  fontWeight: 'bold',
  userSelect: 'none',
  '& img': { w: 'full', h: 'full', objectFit: 'cover' },
})

/** The member's picture, or the first letter of their name (docs/product.md, "App shell"). */
export function Avatar({
  src,
  name,
  size = 40,
  className,
}: {
  src: string | null | undefined
  name: string
  size?: number
  className?: string
}) {
  const initial = name.trim().charAt(0).toUpperCase() || '?'
  return (
    <span className={cx(base, className)} style={{ width: size, height: size, fontSize: size * 0.42 }} aria-hidden="true">
      {src ? <img src={src} alt="" loading="lazy" /> : initial}
    </span>
  )
}
