import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { css, cx } from 'styled-system/css'
import type { PostMedia } from '../../api/posts.calls'
import { PostIcon } from './icons'

// The full-screen photo viewer: Escape or the close button closes, the arrow keys (and buttons) move between the
// post's photos. While open the page behind is inert, and focus returns to the photo that opened it.

const control = css({
  position: 'absolute',
  display: 'grid',
  placeItems: 'center',
  w: '11',
  h: '11',
  borderRadius: 'full',
  bg: 'rgba(20, 27, 36, 0.7)',
  color: 'white',
  cursor: 'pointer',
  transition: 'background-color 120ms',
  _hover: { bg: 'rgba(20, 27, 36, 0.95)' },
  _focusVisible: { outline: '2px solid white', outlineOffset: '2px' },
})

export function MediaViewer({ images, start, onClose }: { images: ReadonlyArray<PostMedia>; start: number; onClose: () => void }) {
  const [index, setIndex] = useState(start)
  const closeRef = useRef<HTMLButtonElement>(null)
  const count = images.length
  const image = images[index]
  const move = (by: number) => setIndex((i) => (i + by + count) % count)

  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      onClose()
    } else if (event.key === 'ArrowRight' && count > 1) move(1)
    else if (event.key === 'ArrowLeft' && count > 1) move(-1)
  })

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const root = document.getElementById('root')
    root?.setAttribute('inert', '')
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    closeRef.current?.focus()
    const listener = (event: KeyboardEvent) => onKey(event)
    document.addEventListener('keydown', listener)
    return () => {
      document.removeEventListener('keydown', listener)
      root?.removeAttribute('inert')
      document.body.style.overflow = overflow
      opener?.focus()
    }
  }, [])

  if (!image) return null
  return createPortal(
    <div
      role="dialog"
      aria-modal="true"
      aria-label="Image viewer"
      className={css({ position: 'fixed', inset: 0, zIndex: 70, bg: 'rgba(5, 8, 12, 0.94)', display: 'flex', flexDirection: 'column', animation: 'fadeIn 120ms ease-out' })}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose()
      }}
    >
      <div className={css({ flex: 1, minH: 0, display: 'grid', placeItems: 'center', p: { base: '2', md: '10' } })} onClick={(e) => e.target === e.currentTarget && onClose()}>
        <img src={image.url} alt={image.alt ?? ''} className={css({ maxW: 'full', maxH: 'full', objectFit: 'contain', borderRadius: 'md' })} />
      </div>
      {image.alt ? (
        <p className={css({ color: 'white', fontSize: 'sm', textAlign: 'center', px: '6', pb: '4', maxW: '720px', mx: 'auto', lineHeight: '1.5' })}>{image.alt}</p>
      ) : null}
      <button ref={closeRef} type="button" aria-label="Close viewer" className={cx(control, css({ top: '4', right: '4' }))} onClick={onClose}>
        <PostIcon name="close" size={22} />
      </button>
      {count > 1 ? (
        <>
          <button type="button" aria-label="Previous image" className={cx(control, css({ left: '4', top: '50%', transform: 'translateY(-50%)' }))} onClick={() => move(-1)}>
            <PostIcon name="chevronLeft" size={22} />
          </button>
          <button type="button" aria-label="Next image" className={cx(control, css({ right: '4', top: '50%', transform: 'translateY(-50%)' }))} onClick={() => move(1)}>
            <PostIcon name="chevronRight" size={22} />
          </button>
          <p aria-live="polite" className={css({ position: 'absolute', top: '6', left: '50%', transform: 'translateX(-50%)', color: 'white', fontSize: 'sm', fontWeight: 'semibold', fontVariantNumeric: 'tabular-nums' })}>
            {index + 1} / {count}
          </p>
        </>
      ) : null}
    </div>,
    document.body,
  )
}
