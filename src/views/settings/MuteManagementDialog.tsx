import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import type { FilterList } from '../../machines/filter-lists/filter-lists.machine'
import type { MuteListsRef, MutesRef } from '../../machines/mutes/mutes.machine'
import { MUTE_TABS, type MuteTab } from '../../machines/mutes/mutes.rules'
import { selectLists, selectOpen, selectTab } from '../../machines/mutes/mutes.selectors'
import { LoadMoreButton } from '../ui/ListStates'
import { Dialog } from '../ui/Overlay'
import { Tabs } from '../ui/Tabs'
import { FilterChips, type FilterChipsTexts } from './FilterChips'
import { FilterListsStatus, FilterMemberRow, useFilterMembers } from './FilterMembers'

// The Mute Management dialog (spec: "tabs users, keywords, domains"): muted members with their reason and Unmute,
// and the muted keywords and domains as removable chips with an Add form. Members are muted from post and profile
// menus, not typed here. Everything it shows and allows comes from the mutes actor; Escape, the backdrop and the
// close button send `mutes.close`; the lists inside are the open dialog's lists actor.

const TAB_LABELS: Record<MuteTab, string> = { users: 'Users', keywords: 'Keywords', domains: 'Domains' }

const panel = css({ display: 'flex', flexDirection: 'column', gap: '3', minH: '200px', mt: '4' })
const empty = css({ fontSize: 'sm', color: 'fg.muted', py: '2' })

export function MuteManagementDialog({ actor }: { actor: MutesRef }) {
  const open = useSelector(actor, selectOpen)
  const tab = useSelector(actor, selectTab)
  const lists = useSelector(actor, selectLists)
  return (
    <Dialog
      open={open}
      onClose={() => actor.send({ type: 'mutes.close' })}
      title="Mute Management"
      description="Muted members, keywords and domains stay out of your Home feed. They are not told."
      size="lg"
    >
      <Tabs
        label="Mutes"
        idPrefix="mutes"
        tabs={MUTE_TABS}
        labels={TAB_LABELS}
        selected={tab}
        onSelect={(next) => actor.send({ type: 'mutes.tab', tab: next })}
        look="dialog"
        panelClassName={panel}
      >
        {lists ? <MutesPanel lists={lists} tab={tab} /> : null}
      </Tabs>
    </Dialog>
  )
}

function MutesPanel({ lists, tab }: { lists: MuteListsRef; tab: MuteTab }) {
  return (
    <FilterListsStatus actor={lists} loadingLabel="Loading mutes" failedText="Could not load your mutes.">
      {tab === 'users' ? (
        <MutedUsers actor={lists} />
      ) : (
        <FilterChips actor={lists} list={tab} texts={CHIP_TEXTS[tab]} titleId={`muted-${tab}-title`} formFirst />
      )}
    </FilterListsStatus>
  )
}

function MutedUsers({ actor }: { actor: MuteListsRef }) {
  const { users, hasMore, saving, loadingMore } = useFilterMembers(actor)
  if (users.length === 0) {
    return <p className={empty}>No muted users. Mute someone from a post's menu or their profile.</p>
  }
  return (
    <>
      <ul aria-label="Muted users" className={css({ display: 'flex', flexDirection: 'column' })}>
        {users.map((entry) => (
          <FilterMemberRow
            key={entry.id}
            user={entry.muted}
            reason={entry.reason}
            action="Unmute"
            disabled={saving}
            onAction={() => actor.send({ type: 'user.remove', userId: entry.muted.id })}
          />
        ))}
      </ul>
      {hasMore ? <LoadMoreButton loadingMore={loadingMore} disabled={saving} onMore={() => actor.send({ type: 'users.more' })} align="start" /> : null}
    </>
  )
}

const CHIP_TEXTS: Record<FilterList, FilterChipsTexts> = {
  keywords: { title: 'Muted keywords', emptyText: 'No muted keywords', label: 'Mute a keyword', placeholder: 'Add a keyword' },
  domains: { title: 'Muted domains', emptyText: 'No muted domains', label: 'Mute a domain', placeholder: 'example.com' },
}
