import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { ConversationRef } from '../../machines/conversation/conversation.machine'
import { selectKeyChange, selectOwnKeyAlert } from '../../machines/conversation/conversation.selectors'
import { ACKNOWLEDGE } from '../../machines/conversation/conversation.trust'
import { Icon } from '../ui/Icon'

// The key notices above a conversation: the blocking alert when the server reports another key for the member, and
// the changed-key warning (stronger when the contact had been verified) with Acknowledge. Texts and when they show
// are the conversation actor's.

const notice = css({ display: 'flex', alignItems: 'flex-start', gap: '3', px: '4', py: '3', fontSize: 'sm', borderBottomWidth: '1px', borderColor: 'border' })

export function KeyNotices({ conversation, onShowNumber }: { conversation: ConversationRef; onShowNumber: () => void }) {
  const alert = useSelector(conversation, selectOwnKeyAlert)
  const change = useSelector(conversation, selectKeyChange)
  if (alert) {
    return (
      <div role="alert" aria-label="Key alert" className={cx(notice, css({ bg: 'danger.subtle', color: 'danger.text' }))}>
        <Icon name="alert" size={20} />
        <p className={css({ flex: 1 })}>
          <strong>Sending is turned off.</strong> {alert}
        </p>
      </div>
    )
  }
  if (!change) return null
  return (
    <div
      role="alert"
      aria-label="Safety number changed"
      className={cx(notice, change.wasVerified ? css({ bg: 'danger.subtle', color: 'danger.text' }) : css({ bg: 'accent.subtle', color: 'fg.default' }))}
    >
      <Icon name="alert" size={20} />
      <div className={css({ flex: 1, display: 'flex', flexDirection: 'column', gap: '2' })}>
        <p>{change.text}</p>
        <div className={css({ display: 'flex', gap: '2' })}>
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onShowNumber}>
            View safety number
          </button>
          <button type="button" className={button({ size: 'sm' })} disabled={change.saving} onClick={() => conversation.send({ type: 'key.acknowledge' })}>
            {ACKNOWLEDGE}
          </button>
        </div>
      </div>
    </div>
  )
}
