import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { UserSummary } from '../../api/types'
import type { FilterListsRef } from '../../machines/filter-lists/filter-lists.machine'
import {
  selectFailed,
  selectHasMore,
  selectLoading,
  selectLoadingMore,
  selectSaving,
  selectUsers,
} from '../../machines/filter-lists/filter-lists.selectors'
import { Avatar } from '../ui/Avatar'
import { FirstPageStatus } from '../ui/ListStates'
import { shownName } from '../../machines/lib/shown-name'

// The parts Settings -> Blocked Accounts and the Mute Management dialog share around a lists actor
// (filter-lists.machine.ts): the first read's spinner or retry, and a listed member's row. Pure views.

/** The spinner while the first page loads, the retry once it failed; then what the lists actor shows. */
export function FilterListsStatus<U>({
  actor,
  loadingLabel,
  failedText,
  children,
}: {
  actor: FilterListsRef<U>
  loadingLabel: string
  failedText: string
  children: ReactNode
}) {
  const loading = useSelector(actor, selectLoading)
  const failed = useSelector(actor, selectFailed)
  return (
    <FirstPageStatus
      loading={loading}
      failed={failed}
      loadingLabel={loadingLabel}
      failedText={failedText}
      onRetry={() => actor.send({ type: 'lists.retry' })}
    >
      {children}
    </FirstPageStatus>
  )
}

/** The listed members and what their list offers. */
export function useFilterMembers<U>(actor: FilterListsRef<U>) {
  return {
    users: useSelector(actor, selectUsers),
    hasMore: useSelector(actor, selectHasMore),
    saving: useSelector(actor, selectSaving),
    loadingMore: useSelector(actor, selectLoadingMore),
  }
}

/** A blocked or muted member: avatar, name, @username, the mute's reason if any, and Unblock / Unmute. */
export function FilterMemberRow({
  user,
  reason,
  action,
  disabled,
  onAction,
}: {
  user: UserSummary
  reason?: string | null
  action: string
  disabled: boolean
  onAction: () => void
}) {
  const name = shownName(user)
  return (
    <li className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '2.5', '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border' } })}>
      <Avatar src={user.avatar} name={name} size={40} />
      <div className={css({ flex: 1, minW: 0 })}>
        <p className={css({ fontWeight: 'semibold', truncate: true })}>{name}</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>@{user.username}</p>
        {reason ? <p className={css({ fontSize: 'sm', mt: '0.5', overflowWrap: 'anywhere' })}>{reason}</p> : null}
      </div>
      <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onAction} disabled={disabled} aria-label={`${action} @${user.username}`}>
        {action}
      </button>
    </li>
  )
}
