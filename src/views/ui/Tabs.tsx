import { useRef, type KeyboardEvent, type ReactNode } from 'react'
import { css } from 'styled-system/css'

// A row of tabs over one panel (WAI-ARIA tabs, automatic activation): arrow keys, Home and End move the selection and
// the focus; only the selected tab is in the Tab order. The view says which tab is selected and sends the actor an
// event on `onSelect`; the panel shows whatever the actor holds for it. Screens use the full-width row with a short bar
// under the selected tab; dialogs (Bookmarks, Mute Management, Reports) a compact row underlined in the accent.

const pageTab = css({
  flex: 1,
  position: 'relative',
  py: '3.5',
  fontSize: 'sm',
  fontWeight: 'semibold',
  color: 'fg.muted',
  cursor: 'pointer',
  transition: 'color 120ms, background-color 120ms',
  _hover: { bg: 'bg.subtle', color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
  '&[aria-selected=true]': {
    color: 'fg.default',
    fontWeight: 'bold',
    _after: {
      content: '""',
      position: 'absolute',
      left: '50%',
      bottom: 0,
      transform: 'translateX(-50%)',
      w: '14',
      h: '1',
      borderRadius: 'full',
      bg: 'accent',
    },
  },
})

const dialogTab = css({
  flex: 1,
  px: '3',
  py: '2.5',
  fontSize: 'sm',
  fontWeight: 'semibold',
  color: 'fg.muted',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  mb: '-1px',
  cursor: 'pointer',
  _hover: { color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
  '&[aria-selected=true]': { color: 'accent.text', borderColor: 'accent' },
})

const looks = {
  page: { list: css({ display: 'flex', borderBottomWidth: '1px', borderColor: 'border' }), tab: pageTab },
  dialog: { list: css({ display: 'flex', gap: '1', borderBottomWidth: '1px', borderColor: 'border' }), tab: dialogTab },
}

export interface TabsProps<T extends string> {
  /** The tab list's accessible name ('Profile sections'). */
  label: string
  /** Prefix of the tab and panel ids ('profile' → profile-tab-posts, profile-tab-panel). */
  idPrefix: string
  tabs: readonly T[]
  labels: Readonly<Record<T, string>>
  selected: T
  onSelect: (tab: T) => void
  /** 'dialog': the compact row, and a dialog opens with the focus on the selected tab rather than its close button. */
  look?: keyof typeof looks
  /** The panel's own layout (a dialog's column of rows and the room it keeps while they load). */
  panelClassName?: string
  children: ReactNode
}

export function Tabs<T extends string>({
  label,
  idPrefix,
  tabs,
  labels,
  selected,
  onSelect,
  look = 'page',
  panelClassName,
  children,
}: TabsProps<T>) {
  const buttons = useRef<Partial<Record<T, HTMLButtonElement | null>>>({})
  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.indexOf(selected)
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }
    const target = moves[event.key]
    if (target === undefined) return
    event.preventDefault()
    const next = tabs[(target + tabs.length) % tabs.length]
    if (next === undefined) return
    onSelect(next)
    buttons.current[next]?.focus()
  }
  const panel = `${idPrefix}-tab-panel`
  return (
    <>
      <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className={looks[look].list}>
        {tabs.map((t) => (
          <button
            key={t}
            ref={(node) => {
              buttons.current[t] = node
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${t}`}
            aria-selected={t === selected}
            aria-controls={panel}
            tabIndex={t === selected ? 0 : -1}
            data-autofocus={look === 'dialog' && t === selected ? '' : undefined}
            className={looks[look].tab}
            onClick={() => onSelect(t)}
          >
            {labels[t]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panel} aria-labelledby={`${idPrefix}-tab-${selected}`} className={panelClassName}>
        {children}
      </div>
    </>
  )
}
