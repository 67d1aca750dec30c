import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import type { FollowRequestsRef } from '../../machines/follow-requests/follow-requests.machine'
import { selectCountLabel } from '../../machines/follow-requests/follow-requests.selectors'
import { selectUser } from '../../machines/session/session.selectors'
import { useSession } from '../actors'
import { Icon } from '../ui/Icon'

// The "Follow requests" entry at the top of Notifications (docs/product.md, "Private accounts and follow requests"):
// shown to a private member, or to anyone with requests still pending (they were private when asked), with the
// pending count; it opens the list in Settings -> Privacy & Safety, where Approve and Decline are.

const FOLLOW_REQUESTS_HREF = '/settings?tab=privacy'
const SUBTITLE = 'Approve or decline who can follow you'

export function FollowRequestsEntry({ actor }: { actor: FollowRequestsRef }) {
  const privateAccount = useSelector(useSession(), (s) => selectUser(s)?.privateAccount ?? false)
  const count = useSelector(actor, selectCountLabel)
  if (!privateAccount && count === null) return null
  return (
    <Link
      href={FOLLOW_REQUESTS_HREF}
      // The name holds every word the row shows, in order (label in name: speech input users say what they see).
      aria-label={count === null ? `Follow requests: ${SUBTITLE}` : `Follow requests: ${SUBTITLE}, ${count} pending`}
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        px: '4',
        py: '3.5',
        borderBottomWidth: '1px',
        borderColor: 'border',
        transition: 'background-color 120ms',
        _hover: { bg: 'bg.subtle' },
        _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
      })}
    >
      <span
        aria-hidden="true"
        className={css({ display: 'grid', placeItems: 'center', w: '10', h: '10', borderRadius: 'full', bg: 'accent.subtle', color: 'accent.text', flexShrink: 0 })}
      >
        <Icon name="user" size={20} />
      </span>
      <span className={css({ flex: 1, minW: 0, lineHeight: '1.3' })}>
        <span className={css({ display: 'block', fontWeight: 'bold' })}>Follow requests</span>
        {/* Spaces between the blocks are not drawn, but keep the row's text separate words for checks that compare it
            with the name ('requestsApprove' otherwise). */}{' '}
        <span className={css({ display: 'block', fontSize: 'sm', color: 'fg.muted', truncate: true })}>
          {SUBTITLE}
        </span>
      </span>{' '}
      {count !== null ? (
        <span
          aria-hidden="true"
          className={css({ minW: '6', h: '6', px: '2', display: 'inline-grid', placeItems: 'center', borderRadius: 'full', bg: 'accent', color: 'accent.fg', fontSize: 'xs', fontWeight: 'bold' })}
        >
          {count}
        </span>
      ) : null}
      <span aria-hidden="true" className={css({ color: 'fg.muted', display: 'inline-flex', transform: 'rotate(180deg)' })}>
        <Icon name="back" size={18} />
      </span>
    </Link>
  )
}
