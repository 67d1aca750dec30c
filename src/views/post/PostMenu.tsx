import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { PostIcon, type PostIconName } from './icons'

// The card's overflow menu (docs/product.md, "Post card"): the author sees Edit (not built yet) and Delete; everyone
// else sees Report and Block User (not built yet either). Items that do nothing yet say so in their title instead of
// pretending. A WAI-ARIA menu button like the shell's Quick Actions: arrows move, Escape closes and returns focus.

interface Item {
  label: string
  icon: PostIconName
  /** Why it does nothing yet; absent when it works. */
  comingSoon?: string
  danger?: boolean
  onSelect?: () => void
}

const menu = css({
  position: 'absolute',
  zIndex: 30,
  top: 'calc(100% + 0.25rem)',
  right: 0,
  minW: '200px',
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
  '&[data-danger]': { color: 'danger.text' },
})

export function PostMenu({ isOwner, onDelete }: { isOwner: boolean; onDelete: () => void }) {
  const [open, setOpen] = useState(false)
  const menuId = useId()
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)

  const items: Item[] = isOwner
    ? [
        { label: 'Edit', icon: 'edit', comingSoon: 'Editing posts is coming soon' },
        { label: 'Delete', icon: 'trash', danger: true, onSelect: onDelete },
      ]
    : [
        { label: 'Report', icon: 'flag', comingSoon: 'Reporting posts is coming soon' },
        { label: 'Block User', icon: 'block', comingSoon: 'Blocking is coming soon' },
      ]

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
        event.stopPropagation()
        buttonRef.current?.focus()
      }
      return
    } else return
    event.preventDefault()
  }

  return (
    <div ref={rootRef} className={css({ position: 'relative', ml: 'auto', flexShrink: 0 })}>
      <button
        ref={buttonRef}
        type="button"
        aria-label="More options"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={cx(button({ variant: 'ghost', size: 'icon' }), css({ w: '8', h: '8', mt: '-1', mr: '-1.5', color: 'fg.muted' }))}
        onClick={() => setOpen((v) => !v)}
      >
        <PostIcon name="more" size={18} />
      </button>
      {open ? (
        <div ref={menuRef} id={menuId} role="menu" aria-label="Post options" className={menu} onKeyDown={onMenuKeyDown}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={menuItem}
              aria-disabled={item.comingSoon ? true : undefined}
              title={item.comingSoon}
              data-danger={item.danger ? '' : undefined}
              onClick={() => {
                if (item.comingSoon) return
                setOpen(false)
                item.onSelect?.()
              }}
            >
              <PostIcon name={item.icon} size={18} />
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  )
}
