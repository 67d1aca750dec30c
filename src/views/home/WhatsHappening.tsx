import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { selectUser } from '../../machines/session/session.selectors'
import { useSession, useTell } from '../actors'
import { Avatar } from '../ui/Avatar'
import { shownName } from '../../machines/lib/shown-name'

/** Home's "What's happening?" box: opens the Create Post composer. */
export function WhatsHappening() {
  const tell = useTell()
  const user = useSelector(useSession(), selectUser)
  const open = () => tell({ to: 'composer', event: { type: 'composer.open' } })
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '3', px: '4', py: '3', borderBottomWidth: '1px', borderColor: 'border' })}>
      <Avatar src={user?.avatar} name={shownName(user) || '?'} size={40} />
      <button
        type="button"
        onClick={open}
        className={css({
          flex: 1,
          h: '11',
          px: '4',
          textAlign: 'left',
          borderRadius: 'full',
          bg: 'bg.subtle',
          color: 'fg.muted',
          fontSize: 'md',
          cursor: 'text',
          borderWidth: '1px',
          borderColor: 'transparent',
          _hover: { borderColor: 'border.strong' },
          _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
        })}
      >
        What's happening?
      </button>
    </div>
  )
}
