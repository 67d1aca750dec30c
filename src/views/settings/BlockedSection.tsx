import { css } from 'styled-system/css'
import type { BlockedRef } from '../../machines/blocked/blocked.machine'
import type { FilterList } from '../../machines/filter-lists/filter-lists.machine'
import { FilterChips, type FilterChipsTexts } from './FilterChips'
import { LoadMoreButton } from '../ui/ListStates'
import { FilterListsStatus, FilterMemberRow, useFilterMembers } from './FilterMembers'

// Settings -> Blocked Accounts (docs/product.md, "Blocks"): the blocked members with Unblock, the blocked keywords and
// domains as removable chips, and an Add form for each. Everything it shows and allows comes from the blocked actor.

const group = css({ display: 'flex', flexDirection: 'column', gap: '3', pt: '5', '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border', mt: '5' } })
const groupTitle = css({ fontSize: 'md', fontWeight: 'bold' })
const empty = css({ fontSize: 'sm', color: 'fg.muted' })
export function BlockedSection({ actor }: { actor: BlockedRef }) {
  return (
    <FilterListsStatus actor={actor} loadingLabel="Loading blocked accounts" failedText="Could not load your blocks.">
      <div className={css({ maxW: '560px' })}>
        <BlockedUsers actor={actor} />
        <BlockedChips actor={actor} list="keywords" />
        <BlockedChips actor={actor} list="domains" />
      </div>
    </FilterListsStatus>
  )
}

function BlockedUsers({ actor }: { actor: BlockedRef }) {
  const { users, hasMore, saving, loadingMore } = useFilterMembers(actor)
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
            <FilterMemberRow
              key={entry.id}
              user={entry.blocked}
              action="Unblock"
              disabled={saving}
              onAction={() => actor.send({ type: 'user.remove', userId: entry.blocked.id })}
            />
          ))}
        </ul>
      )}
      {hasMore ? <LoadMoreButton loadingMore={loadingMore} disabled={saving} onMore={() => actor.send({ type: 'users.more' })} /> : null}
    </section>
  )
}

const CHIP_TEXTS: Record<FilterList, FilterChipsTexts> = {
  keywords: { title: 'Blocked keywords', emptyText: 'No blocked keywords', label: 'Block a keyword', placeholder: 'Add a keyword' },
  domains: { title: 'Blocked domains', emptyText: 'No blocked domains', label: 'Block a domain', placeholder: 'example.com' },
}

/** Blocked keywords or blocked domains: the chips and the Add form. */
function BlockedChips({ actor, list }: { actor: BlockedRef; list: FilterList }) {
  const titleId = `blocked-${list}-title`
  return (
    <section aria-labelledby={titleId} className={group}>
      <FilterChips actor={actor} list={list} texts={CHIP_TEXTS[list]} titleId={titleId} />
    </section>
  )
}
