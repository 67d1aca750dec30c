import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'

// A menu button (WAI-ARIA menu pattern), for the post card's overflow menu and the shell's Quick Actions: arrows,
// Home and End move between items, Escape closes and returns focus to the button, Tab closes, a click elsewhere
// closes. Whether it is open is the widget's own business, so it is plain component state.

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

const popup = css({
  py: '1.5',
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'xl',
  boxShadow: 'popover',
  animation: 'popIn 120ms ease-out',
})

const menuItem = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  px: '3.5',
  py: '2.5',
  fontSize: 'sm',
  fontWeight: 'medium',
  textAlign: 'left',
  color: 'fg.default',
  cursor: 'pointer',
  outline: 'none',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { bg: 'bg.subtle', boxShadow: 'inset 2px 0 0 token(colors.accent)' },
  '&[aria-disabled=true]': { color: 'fg.subtle', cursor: 'not-allowed', _hover: { bg: 'transparent' } },
  '&[data-tone=danger]': { color: 'danger.text' },
})

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
  const menuRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    menuRef.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus()
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])]
    const index = all.indexOf(document.activeElement as HTMLElement)
    const focusAt = (i: number) => all[(i + all.length) % all.length]?.focus()
    if (event.key === 'ArrowDown') focusAt(index + 1)
    else if (event.key === 'ArrowUp') focusAt(index - 1)
    else if (event.key === 'Home') focusAt(0)
    else if (event.key === 'End') focusAt(all.length - 1)
    else if (event.key === 'Escape' || event.key === 'Tab') {
      setOpen(false)
      if (event.key === 'Escape') {
        // Closing the menu must not also close what is around it (the phone menu).
        event.stopPropagation()
        buttonRef.current?.focus()
      }
      return
    } else return
    event.preventDefault()
  }

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
        <div ref={menuRef} id={menuId} role="menu" aria-label={label} className={cx(popup, popupClassName)} onKeyDown={onMenuKeyDown}>
          {items.map((item) => {
            const props = {
              role: 'menuitem',
              tabIndex: -1,
              className: menuItem,
              title: item.comingSoon,
              'aria-disabled': item.comingSoon ? true : undefined,
              'data-tone': item.tone,
              onClick: () => {
                if (item.comingSoon) return
                setOpen(false)
                item.onSelect?.()
              },
            }
            const content = (
              <>
                {item.icon}
                {item.label}
              </>
            )
            return item.href ? (
              <Link key={item.label} href={item.href} {...props}>
                {content}
              </Link>
            ) : (
              <button key={item.label} type="button" {...props}>
                {content}
              </button>
            )
          })}
        </div>
      ) : null}
    </div>
  )
}
