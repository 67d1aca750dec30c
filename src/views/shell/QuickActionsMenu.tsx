import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from '../ui/Icon'
import { quickActions } from './nav-items'

// A menu button (WAI-ARIA menu pattern): arrows move between items, Escape closes and returns focus, a click
// elsewhere closes. Whether it is open is the widget's own business, so it is plain component state.

const menu = css({
  py: '1.5',
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'xl',
  boxShadow: 'popover',
  animation: 'popIn 120ms ease-out',
})

// In the sidebar it floats upwards (the button sits low, and a menu running off the screen would hide Reports);
// in the phone menu it opens in place, pushing the rest down.
const floating = css({ position: 'absolute', zIndex: 30, bottom: 'calc(100% + 0.5rem)', left: 0, right: 0, minW: '220px' })
const inFlow = css({ mt: '2' })

const menuItem = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '3.5',
  py: '2.5',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.default',
  outline: 'none',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { bg: 'bg.subtle', boxShadow: 'inset 2px 0 0 token(colors.accent)' },
})

export function QuickActionsMenu({ inline = false, onNavigate }: { inline?: boolean; onNavigate?: () => void }) {
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
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])]
    const index = items.indexOf(document.activeElement as HTMLElement)
    const focusAt = (i: number) => items[(i + items.length) % items.length]?.focus()
    if (event.key === 'ArrowDown') focusAt(index + 1)
    else if (event.key === 'ArrowUp') focusAt(index - 1)
    else if (event.key === 'Home') focusAt(0)
    else if (event.key === 'End') focusAt(items.length - 1)
    else if (event.key === 'Escape' || event.key === 'Tab') {
      setOpen(false)
      if (event.key === 'Escape') {
        // Closing the menu must not also close the phone menu around it.
        event.stopPropagation()
        buttonRef.current?.focus()
      }
      return
    } else return
    event.preventDefault()
  }

  return (
    <div ref={rootRef} className={css({ position: 'relative' })}>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={cx(button({ variant: 'outline', fullWidth: true }))}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault()
            setOpen(true)
          }
        }}
      >
        <Icon name="zap" />
        <span className={css({ flex: 1, textAlign: 'left' })}>Quick Actions</span>
        <Icon name="chevronDown" className={css({ transition: 'transform 120ms', transform: open ? 'rotate(180deg)' : 'none' })} />
      </button>
      {open ? (
        <div ref={menuRef} id={menuId} role="menu" aria-label="Quick Actions" className={cx(menu, inline ? inFlow : floating)} onKeyDown={onMenuKeyDown}>
          {quickActions.map((action) => (
            <Link
              key={action.label}
              href={action.href}
              role="menuitem"
              tabIndex={-1}
              className={menuItem}
              onClick={() => {
                setOpen(false)
                onNavigate?.()
              }}
            >
              <Icon name={action.icon} size={18} />
              {action.label}
            </Link>
          ))}
        </div>
      ) : null}
    </div>
  )
}
