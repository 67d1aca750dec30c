import { useSelector } from '@xstate/react'
import { useId } from 'react'
import { css } from 'styled-system/css'
import type { NewMessageRef } from '../../machines/new-message/new-message.machine'
import {
  selectIsOpen,
  selectKeysReason,
  selectNotice,
  selectQuery,
  selectResults,
  selectSearching,
} from '../../machines/new-message/new-message.selectors'
import { Avatar } from '../ui/Avatar'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'
import { shownName } from '../../machines/lib/shown-name'

// The New Message modal: 'To:' searches members; picking one starts (or reopens) the conversation with them. Without
// this browser's message key it says why instead.

const resultButton = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  px: '2',
  py: '2',
  borderRadius: 'lg',
  textAlign: 'left',
  color: 'fg.default',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent' },
})

export function NewMessageDialog({ actor }: { actor: NewMessageRef }) {
  const open = useSelector(actor, selectIsOpen)
  const keysReason = useSelector(actor, selectKeysReason)
  const query = useSelector(actor, selectQuery)
  const results = useSelector(actor, selectResults)
  const searching = useSelector(actor, selectSearching)
  const notice = useSelector(actor, selectNotice)
  const inputId = useId()

  return (
    <Dialog open={open} onClose={() => actor.send({ type: 'new-message.close' })} title="New Message">
      {keysReason !== null ? (
        <p role="alert" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {keysReason}
        </p>
      ) : (
        <>
          <div className={css({ display: 'flex', alignItems: 'center', gap: '2', borderBottomWidth: '1px', borderColor: 'border', pb: '2' })}>
            <label htmlFor={inputId} className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>
              To:
            </label>
            <input
              id={inputId}
              data-autofocus
              type="search"
              autoComplete="off"
              placeholder="Search for a user..."
              value={query}
              onChange={(e) => actor.send({ type: 'new-message.query', value: e.target.value })}
              className={css({ flex: 1, h: '10', px: '2', bg: 'transparent', color: 'fg.default', fontSize: 'md', _focus: { outline: 'none' } })}
            />
            {searching ? <Spinner size={16} label="Searching" /> : null}
          </div>
          <div className={css({ minH: '24', pt: '2' })}>
            {notice ? <p className={css({ py: '6', textAlign: 'center', color: 'fg.muted', fontSize: 'sm' })}>{notice}</p> : null}
            {results.length > 0 ? (
              <ul aria-label="Members">
                {results.map((user) => (
                  <li key={user.id}>
                    <button type="button" className={resultButton} onClick={() => actor.send({ type: 'new-message.pick', userId: user.id })}>
                      <Avatar src={user.avatar} name={shownName(user)} size={40} />
                      <span className={css({ display: 'flex', flexDirection: 'column', minW: 0 })}>
                        <span className={css({ fontWeight: 'semibold', truncate: true })}>{shownName(user)}</span>
                        <span className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>@{user.username}</span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </>
      )}
    </Dialog>
  )
}
