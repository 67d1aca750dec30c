import { lazy, Suspense, useState } from 'react'
import { css, cx } from 'styled-system/css'
import type { PostMedia } from '../../api/posts.calls'

// A post's photos and videos (1 to 4): one shown at its own shape (within limits), two side by side, three as one
// large and two small, four as a square grid. Photos use their thumbnail in a grid and open the full-screen viewer;
// videos play in place with their controls. The viewer is its own chunk, loaded on the first click.

const MediaViewer = lazy(() => import('./MediaViewer').then((m) => ({ default: m.MediaViewer })))

const frame = css({
  display: 'grid',
  gap: '0.5',
  mt: '2.5',
  borderRadius: 'xl',
  overflow: 'hidden',
  borderWidth: '1px',
  borderColor: 'border',
  bg: 'bg.subtle',
})

const tile = css({
  position: 'relative',
  display: 'block',
  w: 'full',
  h: 'full',
  minH: 0,
  p: 0,
  border: 'none',
  bg: 'bg.subtle',
  cursor: 'zoom-in',
  overflow: 'hidden',
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
  '& img': { w: 'full', h: 'full', objectFit: 'cover', display: 'block' },
  '& video': { w: 'full', h: 'full', objectFit: 'contain', display: 'block', bg: 'black' },
})

const layouts: Record<number, string> = {
  1: css({ gridTemplateColumns: '1fr' }),
  2: css({ gridTemplateColumns: '1fr 1fr', aspectRatio: '2 / 1' }),
  3: css({ gridTemplateColumns: '1fr 1fr', gridTemplateRows: '1fr 1fr', aspectRatio: '3 / 2', '& > :first-child': { gridRow: 'span 2' } }),
  4: css({ gridTemplateColumns: '1fr 1fr', gridTemplateRows: '1fr 1fr', aspectRatio: '3 / 2' }),
}

/** A single item keeps its shape, but never taller than 4:5 nor wider than 2:1. */
function singleRatio(item: PostMedia): string {
  if (!item.width || !item.height) return '16 / 9'
  const ratio = Math.min(2, Math.max(0.8, item.width / item.height))
  return String(ratio)
}

export function MediaGrid({ media }: { media: ReadonlyArray<PostMedia> }) {
  const [viewing, setViewing] = useState<number | null>(null)
  if (media.length === 0) return null
  const single = media.length === 1
  const images = media.filter((m) => m.type === 'image')

  return (
    <>
      <div className={cx(frame, layouts[Math.min(media.length, 4)])}>
        {media.slice(0, 4).map((item) => {
          const style = single ? { aspectRatio: singleRatio(item) } : undefined
          if (item.type === 'video') {
            return (
              <div key={item.id} className={cx(tile, css({ cursor: 'auto' }))} style={style}>
                <video
                  src={item.url}
                  poster={item.thumbnailUrl ?? undefined}
                  controls
                  playsInline
                  preload="metadata"
                  aria-label={item.alt ?? 'Video'}
                />
              </div>
            )
          }
          const src = single ? item.url : (item.thumbnailUrl ?? item.url)
          return (
            <button
              key={item.id}
              type="button"
              className={tile}
              style={style}
              onClick={() => setViewing(images.indexOf(item))}
              aria-label={item.alt ? `View image, ALT: ${item.alt}` : 'View image'}
            >
              <img src={src} alt={item.alt ?? ''} loading="lazy" decoding="async" width={item.width ?? undefined} height={item.height ?? undefined} />
              {/* The ALT badge is visible text, so the button's name says it too (label in name). */}
              {item.alt ? (
                <span
                  aria-hidden="true"
                  className={css({ position: 'absolute', left: '2', bottom: '2', px: '1.5', borderRadius: 'md', bg: 'rgba(0,0,0,0.65)', color: 'white', fontSize: '2xs', fontWeight: 'bold', letterSpacing: '0.04em' })}
                >
                  ALT
                </span>
              ) : null}
            </button>
          )
        })}
      </div>
      {viewing !== null ? (
        <Suspense fallback={null}>
          <MediaViewer images={images} start={viewing} onClose={() => setViewing(null)} />
        </Suspense>
      ) : null}
    </>
  )
}
