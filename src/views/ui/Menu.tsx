import { Suspense, useCallback, useId, useRef, useState, type ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { chunk } from '../lazy-chunk'

// A menu button (WAI-ARIA menu pattern), for the post card's overflow menu and the shell's Quick Actions: arrows,
// Home and End move between items, Escape closes and returns focus to the button, Tab closes, a click elsewhere
// closes. Whether it is open is the widget's own business, so it is plain component state. The open menu is its own
// chunk (./MenuPopup.tsx), fetched once the first screen is up (or by the first click, if that comes sooner).

export interface MenuItem {
  label: string
  icon?: ReactNode
  /** A link item: it navigates there (after `onSelect`, if any). Without it the item is a button. */
  href?: string
  onSelect?: () => void
  /** Why the item does nothing yet: it stays in the menu, dimmed, with this as its title. */
  comingSoon?: string
  tone?: 'danger'
}

export interface MenuProps {
  /** The popup's accessible name. */
  label: string
  items: ReadonlyArray<MenuItem>
  /** The button's content, told whether the menu is open (to turn a chevron). */
  trigger: (open: boolean) => ReactNode
  /** The button's accessible name, for a button without text. */
  triggerLabel?: string
  triggerClassName?: string
  /** Where the popup sits (position, offsets, width); the menu gives it its look. */
  popupClassName: string
  /** The wrapper's placement in its row (it is always `position: relative`). */
  className?: string
  /** ArrowDown on the closed button opens the menu. */
  arrowDownOpens?: boolean
}

const popupChunk = chunk(() => import('./MenuPopup'))
const MenuPopup = popupChunk.lazy((m) => m.MenuPopup)
popupChunk.loadAfterFirstScreen()

export function Menu({
  label,
  items,
  trigger,
  triggerLabel,
  triggerClassName,
  popupClassName,
  className,
  arrowDownOpens = false,
}: MenuProps) {
  const [open, setOpen] = useState(false)
  const menuId = useId()
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const close = useCallback(() => setOpen(false), [])

  return (
    <div ref={rootRef} className={cx(css({ position: 'relative' }), className)}>
      <button
        ref={buttonRef}
        type="button"
        aria-label={triggerLabel}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={triggerClassName}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(event) => {
          if (arrowDownOpens && event.key === 'ArrowDown' && !open) {
            event.preventDefault()
            setOpen(true)
          }
        }}
      >
        {trigger(open)}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <MenuPopup id={menuId} label={label} items={items} className={popupClassName} root={rootRef} button={buttonRef} onClose={close} />
        </Suspense>
      ) : null}
    </div>
  )
}
