import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import type { MenuItem } from './Menu'

// The open menu of a menu button (./Menu.tsx): its items, the keys that move between them, and closing on a click
// elsewhere. A chunk of its own: a first screen shows menu buttons but opens none.

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

export interface MenuPopupProps {
  id: string
  label: string
  items: ReadonlyArray<MenuItem>
  className: string
  /** The menu button and its popup: a pointer down outside it closes the menu. */
  root: RefObject<HTMLDivElement | null>
  button: RefObject<HTMLButtonElement | null>
  onClose: () => void
}

export function MenuPopup({ id, label, items, className, root, button, onClose }: MenuPopupProps) {
  const menuRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    menuRef.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus()
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) onClose()
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [root, onClose])

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])]
    const index = all.indexOf(document.activeElement as HTMLElement)
    const focusAt = (i: number) => all[(i + all.length) % all.length]?.focus()
    if (event.key === 'ArrowDown') focusAt(index + 1)
    else if (event.key === 'ArrowUp') focusAt(index - 1)
    else if (event.key === 'Home') focusAt(0)
    else if (event.key === 'End') focusAt(all.length - 1)
    else if (event.key === 'Escape' || event.key === 'Tab') {
      onClose()
      if (event.key === 'Escape') {
        // Closing the menu must not also close what is around it (the phone menu).
        event.stopPropagation()
        button.current?.focus()
      }
      return
    } else return
    event.preventDefault()
  }

  return (
    <div ref={menuRef} id={id} role="menu" aria-label={label} className={cx(popup, className)} onKeyDown={onMenuKeyDown}>
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
            onClose()
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
  )
}
