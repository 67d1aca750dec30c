import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { Icon, type IconName } from '../ui/Icon'

// One row of a settings list (Security, Account): icon, title and text, and what to do about it.
// Icon | text, with the button under the text; side by side once the section (not the window) is wide enough.
const list = css({ containerType: 'inline-size' })
const row = css({
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  columnGap: '3',
  rowGap: '2.5',
  alignItems: 'start',
  py: '4',
  '&:not(:last-child)': { borderBottomWidth: '1px', borderColor: 'border' },
  '& > :last-child': { gridColumn: '2', justifySelf: 'start' },
  '@container (min-width: 30rem)': {
    gridTemplateColumns: 'auto 1fr auto',
    alignItems: 'center',
    '& > :last-child': { gridColumn: '3', justifySelf: 'end' },
  },
})

export function SettingsRow({ icon, title, text, action }: { icon: IconName; title: string; text: ReactNode; action: ReactNode }) {
  return (
    <li className={row}>
      <span className={css({ display: 'grid', placeItems: 'center', w: '10', h: '10', borderRadius: 'xl', bg: 'bg.subtle', color: 'fg.muted', flexShrink: 0 })}>
        <Icon name={icon} />
      </span>
      <div className={css({ flex: 1 })}>
        <h3 className={css({ fontWeight: 'semibold' })}>{title}</h3>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{text}</p>
      </div>
      {action}
    </li>
  )
}

export function SettingsRows({ children }: { children: ReactNode }) {
  return <ul className={list}>{children}</ul>
}
