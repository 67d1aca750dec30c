import { useMemo } from 'react'
import { css } from 'styled-system/css'
import { qrDrawing } from '../messages/qr-svg'

/** A QR code as inline SVG (no data: URL: the CSP's img-src stays 'self'), black on white in both themes. */
export function QrCode({ text, label, size = 176 }: { text: string; label: string; size?: number }) {
  const drawing = useMemo(() => qrDrawing(text), [text])
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${drawing.size} ${drawing.size}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className={css({ borderRadius: 'md', bg: 'white' })}
    >
      <rect width={drawing.size} height={drawing.size} fill="#ffffff" />
      <path d={drawing.path} fill="#000000" />
    </svg>
  )
}
