import QRCode from 'qrcode'

// A QR code as one SVG path, drawn from the library's module matrix: rendered by React as an inline <svg>, so it needs
// no data: URL (the CSP's img-src stays 'self') and no markup string set as HTML.

export interface QrDrawing {
  /** Modules per side, plus a 4-module quiet zone on each side. */
  readonly size: number
  readonly path: string
}

export function qrDrawing(text: string): QrDrawing {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
  const quiet = 4
  let path = ''
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) {
      if (modules.get(y, x)) path += `M${x + quiet} ${y + quiet}h1v1h-1z`
    }
  }
  return { size: modules.size + 2 * quiet, path }
}
