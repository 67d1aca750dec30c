import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { MutedUser } from '../../api/mutes.calls'
import type { MutesRef } from '../../machines/mutes/mutes.machine'
import { MUTE_TABS, type MuteTab } from '../../machines/mutes/mutes.rules'
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
  selectOpen,
  selectSaving,
  selectTab,
  selectUsers,
} from '../../machines/mutes/mutes.selectors'
import { Avatar } from '../ui/Avatar'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'
import { AddForm, Chips } from './ChipList'
import { shownName } from '../../machines/lib/shown-name'

// The Mute Management dialog (spec: "tabs users, keywords, domains"): muted members with their reason and Unmute,
// and the muted keywords and domains as removable chips with an Add form. Members are muted from post and profile
// menus, not typed here. Everything it shows and allows comes from the mutes actor; Escape, the backdrop and the
// close button send `mutes.close`.

const TAB_LABELS: Record<MuteTab, string> = { users: 'Users', keywords: 'Keywords', domains: 'Domains' }

const tabList = css({ display: 'flex', gap: '1', borderBottomWidth: '1px', borderColor: 'border', mb: '4' })
const tabButton = css({
  flex: 1,
  px: '3',
  py: '2.5',
  fontSize: 'sm',
  fontWeight: 'semibold',
  color: 'fg.muted',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  mb: '-1px',
  cursor: 'pointer',
  _hover: { color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
  '&[aria-selected=true]': { color: 'accent.text', borderColor: 'accent' },
})
const panel = css({ display: 'flex', flexDirection: 'column', gap: '3', minH: '200px' })
const empty = css({ fontSize: 'sm', color: 'fg.muted', py: '2' })

export function MuteManagementDialog({ actor }: { actor: MutesRef }) {
  const open = useSelector(actor, selectOpen)
  const tab = useSelector(actor, selectTab)
  const loading = useSelector(actor, selectLoading)
  const failed = useSelector(actor, selectFailed)
  return (
    <Dialog
      open={open}
      onClose={() => actor.send({ type: 'mutes.close' })}
      title="Mute Management"
      description="Muted members, keywords and domains stay out of your Home feed. They are not told."
      size="lg"
    >
      <div role="tablist" aria-label="Mutes" className={tabList}>
        {MUTE_TABS.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`mutes-tab-${id}`}
            aria-selected={tab === id}
            // Focus starts on the open tab, not on the close button (arrow-free tabs: Tab moves between them).
            data-autofocus={tab === id ? '' : undefined}
            aria-controls={`mutes-panel-${id}`}
            className={tabButton}
            onClick={() => actor.send({ type: 'mutes.tab', tab: id })}
          >
            {TAB_LABELS[id]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`mutes-panel-${tab}`} aria-labelledby={`mutes-tab-${tab}`} className={panel}>
        {loading ? (
          <div className={css({ display: 'grid', placeItems: 'center', py: '10' })}>
            <Spinner label="Loading mutes" />
          </div>
        ) : failed ? (
          <div role="alert" className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '6', color: 'fg.muted' })}>
            Could not load your mutes.
            <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'mutes.retry' })}>
              Try again
            </button>
          </div>
        ) : tab === 'users' ? (
          <MutedUsers actor={actor} />
        ) : (
          <MutedChips actor={actor} noun={tab === 'keywords' ? 'keyword' : 'domain'} />
        )}
      </div>
    </Dialog>
  )
}

function MutedUsers({ actor }: { actor: MutesRef }) {
  const users = useSelector(actor, selectUsers)
  const hasMore = useSelector(actor, selectHasMore)
  const saving = useSelector(actor, selectSaving)
  const loadingMore = useSelector(actor, selectLoadingMore)
  if (users.length === 0) {
    return <p className={empty}>No muted users. Mute someone from a post's menu or their profile.</p>
  }
  return (
    <>
      <ul aria-label="Muted users" className={css({ display: 'flex', flexDirection: 'column' })}>
        {users.map((entry) => (
          <MutedUserRow key={entry.id} entry={entry} disabled={saving} onUnmute={() => actor.send({ type: 'user.unmute', userId: entry.muted.id })} />
        ))}
      </ul>
      {hasMore ? (
        <button
          type="button"
          className={cx(button({ variant: 'outline', size: 'sm' }), css({ alignSelf: 'flex-start' }))}
          onClick={() => actor.send({ type: 'users.more' })}
          disabled={saving}
          aria-busy={loadingMore}
        >
          {loadingMore ? <Spinner size={14} /> : null}
          Load more
        </button>
      ) : null}
    </>
  )
}

function MutedUserRow({ entry, disabled, onUnmute }: { entry: MutedUser; disabled: boolean; onUnmute: () => void }) {
  const user = entry.muted
  const name = shownName(user)
  return (
    <li className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '2.5', '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border' } })}>
      <Avatar src={user.avatar} name={name} size={40} />
      <div className={css({ flex: 1, minW: 0 })}>
        <p className={css({ fontWeight: 'semibold', truncate: true })}>{name}</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>@{user.username}</p>
        {entry.reason ? <p className={css({ fontSize: 'sm', mt: '0.5', overflowWrap: 'anywhere' })}>{entry.reason}</p> : null}
      </div>
      <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onUnmute} disabled={disabled} aria-label={`Unmute @${user.username}`}>
        Unmute
      </button>
    </li>
  )
}

/** What differs between the keyword and the domain tabs: texts, what they read, and the events they send. */
const CHIP_LISTS = {
  keyword: {
    title: 'Muted keywords',
    emptyText: 'No muted keywords',
    label: 'Mute a keyword',
    placeholder: 'Add a keyword',
    values: (s: Parameters<typeof selectKeywords>[0]) => selectKeywords(s).map((k) => k.keyword),
    draft: selectKeywordDraft,
    error: selectKeywordError,
    canAdd: selectCanAddKeyword,
    remove: (keyword: string) => ({ type: 'keyword.remove' as const, keyword }),
    input: (value: string) => ({ type: 'keyword.input' as const, value }),
    add: { type: 'keyword.add' as const },
  },
  domain: {
    title: 'Muted domains',
    emptyText: 'No muted domains',
    label: 'Mute a domain',
    placeholder: 'example.com',
    values: (s: Parameters<typeof selectDomains>[0]) => selectDomains(s).map((d) => d.domain),
    draft: selectDomainDraft,
    error: selectDomainError,
    canAdd: selectCanAddDomain,
    remove: (domain: string) => ({ type: 'domain.remove' as const, domain }),
    input: (value: string) => ({ type: 'domain.input' as const, value }),
    add: { type: 'domain.add' as const },
  },
}

const sameList = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((v, i) => v === b[i])

function MutedChips({ actor, noun }: { actor: MutesRef; noun: keyof typeof CHIP_LISTS }) {
  const list = CHIP_LISTS[noun]
  // A mapped list is new on every snapshot: compare by value so typing does not re-render the chips.
  const values = useSelector(actor, list.values, sameList)
  const draft = useSelector(actor, list.draft)
  const error = useSelector(actor, list.error)
  const canAdd = useSelector(actor, list.canAdd)
  const saving = useSelector(actor, selectSaving)
  return (
    <>
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
      <Chips
        title={list.title}
        id={`muted-${noun}s-title`}
        noun={noun}
        values={values}
        emptyText={list.emptyText}
        disabled={saving}
        onRemove={(value) => actor.send(list.remove(value))}
      />
    </>
  )
}
