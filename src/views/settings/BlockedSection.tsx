import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { BlockedUser } from '../../api/blocks.calls'
import type { BlockedRef } from '../../machines/blocked/blocked.machine'
import {
  selectCanAddDomain,
  selectCanAddKeyword,
  selectDomainDraft,
  selectDomainError,
  selectDomains,
  selectFailed,
  selectHasMore,
  selectKeywordDraft,
  selectKeywordError,
  selectKeywords,
  selectLoading,
  selectLoadingMore,
  selectSaving,
  selectUsers,
} from '../../machines/blocked/blocked.selectors'
import { Avatar } from '../ui/Avatar'
import { Spinner } from '../ui/Spinner'
import { AddForm, Chips } from './ChipList'
import { shownName } from '../../machines/lib/shown-name'

// Settings -> Blocked Accounts (docs/product.md, "Blocks"): the blocked members with Unblock, the blocked keywords and
// domains as removable chips, and an Add form for each. Everything it shows and allows comes from the blocked actor.

const group = css({ display: 'flex', flexDirection: 'column', gap: '3', pt: '5', '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border', mt: '5' } })
const groupTitle = css({ fontSize: 'md', fontWeight: 'bold' })
const empty = css({ fontSize: 'sm', color: 'fg.muted' })
export function BlockedSection({ actor }: { actor: BlockedRef }) {
  const loading = useSelector(actor, selectLoading)
  const failed = useSelector(actor, selectFailed)

  if (loading) {
    return (
      <div className={css({ display: 'grid', placeItems: 'center', py: '10' })}>
        <Spinner label="Loading blocked accounts" />
      </div>
    )
  }
  if (failed) {
    return (
      <div role="alert" className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '6', color: 'fg.muted' })}>
        Could not load your blocks.
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'blocked.retry' })}>
          Try again
        </button>
      </div>
    )
  }
  return (
    <div className={css({ maxW: '560px' })}>
      <BlockedUsers actor={actor} />
      <BlockedChips actor={actor} noun="keyword" />
      <BlockedChips actor={actor} noun="domain" />
    </div>
  )
}

function BlockedUsers({ actor }: { actor: BlockedRef }) {
  const users = useSelector(actor, selectUsers)
  const hasMore = useSelector(actor, selectHasMore)
  const saving = useSelector(actor, selectSaving)
  const loadingMore = useSelector(actor, selectLoadingMore)
  return (
    <section aria-labelledby="blocked-users-title" className={group}>
      <h3 id="blocked-users-title" className={groupTitle}>
        Blocked users
      </h3>
      {users.length === 0 ? (
        <p className={empty}>No blocked users</p>
      ) : (
        <ul aria-label="Blocked users" className={css({ display: 'flex', flexDirection: 'column' })}>
          {users.map((entry) => (
            <BlockedUserRow key={entry.id} entry={entry} disabled={saving} onUnblock={() => actor.send({ type: 'user.unblock', userId: entry.blocked.id })} />
          ))}
        </ul>
      )}
      {hasMore ? (
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          onClick={() => actor.send({ type: 'users.more' })}
          disabled={saving}
          aria-busy={loadingMore}
        >
          {loadingMore ? <Spinner size={14} /> : null}
          Load more
        </button>
      ) : null}
    </section>
  )
}

function BlockedUserRow({ entry, disabled, onUnblock }: { entry: BlockedUser; disabled: boolean; onUnblock: () => void }) {
  const user = entry.blocked
  const name = shownName(user)
  return (
    <li className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '2.5', '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border' } })}>
      <Avatar src={user.avatar} name={name} size={40} />
      <div className={css({ flex: 1, minW: 0 })}>
        <p className={css({ fontWeight: 'semibold', truncate: true })}>{name}</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>@{user.username}</p>
      </div>
      <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onUnblock} disabled={disabled} aria-label={`Unblock @${user.username}`}>
        Unblock
      </button>
    </li>
  )
}

/** What differs between the keyword and the domain lists: texts, what they read, and the events they send. */
const CHIP_LISTS = {
  keyword: {
    title: 'Blocked keywords',
    emptyText: 'No blocked keywords',
    label: 'Block a keyword',
    placeholder: 'Add a keyword',
    values: selectKeywords,
    draft: selectKeywordDraft,
    error: selectKeywordError,
    canAdd: selectCanAddKeyword,
    remove: (keyword: string) => ({ type: 'keyword.remove' as const, keyword }),
    input: (value: string) => ({ type: 'keyword.input' as const, value }),
    add: { type: 'keyword.add' as const },
  },
  domain: {
    title: 'Blocked domains',
    emptyText: 'No blocked domains',
    label: 'Block a domain',
    placeholder: 'example.com',
    values: selectDomains,
    draft: selectDomainDraft,
    error: selectDomainError,
    canAdd: selectCanAddDomain,
    remove: (domain: string) => ({ type: 'domain.remove' as const, domain }),
    input: (value: string) => ({ type: 'domain.input' as const, value }),
    add: { type: 'domain.add' as const },
  },
}

/** Blocked keywords or blocked domains: the chips and the Add form. */
function BlockedChips({ actor, noun }: { actor: BlockedRef; noun: keyof typeof CHIP_LISTS }) {
  const list = CHIP_LISTS[noun]
  const values = useSelector(actor, list.values)
  const draft = useSelector(actor, list.draft)
  const error = useSelector(actor, list.error)
  const canAdd = useSelector(actor, list.canAdd)
  const saving = useSelector(actor, selectSaving)
  const titleId = `blocked-${noun}s-title`
  return (
    <section aria-labelledby={titleId} className={group}>
      <Chips
        title={list.title}
        id={titleId}
        noun={noun}
        values={values}
        emptyText={list.emptyText}
        disabled={saving}
        onRemove={(value) => actor.send(list.remove(value))}
      />
      <AddForm
        label={list.label}
        placeholder={list.placeholder}
        value={draft}
        error={error}
        canAdd={canAdd}
        saving={saving}
        onInput={(value) => actor.send(list.input(value))}
        onAdd={() => actor.send(list.add)}
      />
    </section>
  )
}
