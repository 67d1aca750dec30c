import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from './Icon'

// Modal surfaces (dialogs and the phone menu). Escape and a click on the backdrop ask to close (docs/product.md,
// "App shell"); the owner decides, so a dialog that is saving can refuse. While open,
// the page behind is inert and does not scroll, focus stays inside, and it returns to the opener afterwards.

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex]:not([tabindex="-1"])'

function trapTab(event: KeyboardEvent, container: HTMLElement) {
  const items = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null)
  const first = items[0]
  const last = items.at(-1)
  if (!first || !last) {
    event.preventDefault()
    return
  }
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault()
    first.focus()
  }
}

interface SurfaceProps {
  onClose: () => void
  labelledBy?: string
  label?: string
  variant: 'dialog' | 'drawer'
  /** Dialogs: `lg` for forms that need room (the post composer). */
  size?: 'md' | 'lg'
  children: ReactNode
}

const backdrop = css({
  position: 'fixed',
  inset: 0,
  zIndex: 50,
  bg: 'bg.overlay',
  animation: 'fadeIn 120ms ease-out',
})

const dialogPanel = css({
  position: 'fixed',
  zIndex: 51,
  left: '50%',
  top: { base: 'auto', sm: '12vh' },
  bottom: { base: 0, sm: 'auto' },
  transform: 'translateX(-50%)',
  w: { base: '100%', sm: 'calc(100% - 2rem)' },
  maxW: '440px',
  maxH: { base: '92dvh', sm: '80dvh' },
  overflowY: 'auto',
  bg: 'bg.surface',
  color: 'fg.default',
  borderRadius: { base: '2xl 2xl 0 0', sm: '2xl' },
  boxShadow: 'popover',
  borderWidth: '1px',
  borderColor: 'border',
  outline: 'none',
  animation: 'popIn 160ms ease-out',
})

const drawerPanel = css({
  position: 'fixed',
  zIndex: 51,
  top: 0,
  bottom: 0,
  left: 0,
  w: 'min(320px, 86vw)',
  overflowY: 'auto',
  bg: 'bg.surface',
  color: 'fg.default',
  boxShadow: 'popover',
  outline: 'none',
  animation: 'slideInLeft 180ms ease-out',
  pb: 'env(safe-area-inset-bottom)',
})

const wideDialog = css({ maxW: '600px' })

function Surface({ onClose, labelledBy, label, variant, size = 'md', children }: SurfaceProps) {
  const panelRef = useRef<HTMLDivElement>(null)
  const requestClose = useEffectEvent(() => onClose())

  useEffect(() => {
    const panel = panelRef.current
    if (!panel) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const root = document.getElementById('root')
    root?.setAttribute('inert', '')
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    const first = panel.querySelector<HTMLElement>('[data-autofocus]') ?? panel.querySelector<HTMLElement>(FOCUSABLE)
    ;(first ?? panel).focus()

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault()
        requestClose()
      } else if (event.key === 'Tab') {
        trapTab(event, panel)
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      root?.removeAttribute('inert')
      document.body.style.overflow = overflow
      opener?.focus()
    }
  }, [])

  return createPortal(
    <>
      <div className={backdrop} onClick={onClose} aria-hidden="true" />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-label={label}
        tabIndex={-1}
        className={variant === 'dialog' ? cx(dialogPanel, size === 'lg' ? wideDialog : undefined) : drawerPanel}
      >
        {children}
      </div>
    </>,
    document.body,
  )
}

export interface DialogProps {
  open: boolean
  onClose: () => void
  title: string
  description?: ReactNode
  size?: 'md' | 'lg'
  children: ReactNode
}

/** A centred dialog (a bottom sheet on phones) with a title and a close button. */
export function Dialog({ open, onClose, title, description, size, children }: DialogProps) {
  const titleId = useId()
  if (!open) return null
  return (
    <Surface onClose={onClose} labelledBy={titleId} variant="dialog" size={size}>
      <div className={css({ display: 'flex', alignItems: 'flex-start', gap: '3', px: '6', pt: '5', pb: '1' })}>
        <div className={css({ flex: 1 })}>
          <h2 id={titleId} className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
            {title}
          </h2>
          {description ? <p className={css({ mt: '1', fontSize: 'sm', color: 'fg.muted' })}>{description}</p> : null}
        </div>
        <button type="button" className={cx(button({ variant: 'ghost', size: 'icon' }), css({ mr: '-2', mt: '-1' }))} aria-label="Close" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <div className={css({ px: '6', pt: '3', pb: '6' })}>{children}</div>
    </Surface>
  )
}

/** The phone's slide-out menu. */
export function Drawer({ open, onClose, label, children }: { open: boolean; onClose: () => void; label: string; children: ReactNode }) {
  if (!open) return null
  return (
    <Surface onClose={onClose} label={label} variant="drawer">
      {children}
    </Surface>
  )
}
