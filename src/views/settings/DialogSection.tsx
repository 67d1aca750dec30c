import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon, type IconName } from '../ui/Icon'

// A Settings section that is a description and a button opening its dialog (spec: "Lists, Bookmarks & Collections,
// Mutes, Reports, Analytics: description plus a button"). The dialog itself is rendered by the page.

export function DialogSection({ heading, text, action, icon, onOpen }: { heading?: string; text: string; action: string; icon: IconName; onOpen: () => void }) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: '3', pt: '3' })}>
      {heading ? <h3 className={css({ fontSize: 'md', fontWeight: 'semibold' })}>{heading}</h3> : null}
      <p className={css({ fontSize: 'sm' })}>{text}</p>
      <button type="button" className={button()} onClick={onOpen}>
        <Icon name={icon} size={18} />
        {action}
      </button>
    </div>
  )
}
