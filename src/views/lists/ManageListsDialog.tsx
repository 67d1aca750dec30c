import type { ReactNode } from 'react'
import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { LIMITS } from '../../api/contract/limits'
import type { List } from '../../api/lists.calls'
import type { UserSummary } from '../../api/types'
import type { ListsRef } from '../../machines/lists/lists.machine'
import { countLabel, DELETE_CONFIRM, LISTS_LOAD_FAILED, listPath, USER_SEARCH_FAILED } from '../../machines/lists/lists.rules'
import { LoadError } from '../profile/LoadError'
import {
  selectBusy,
  selectDeleting,
  selectEditing,
  selectFailed,
  selectForm,
  selectHasMore,
  selectLoading,
  selectLoadingMore,
  selectMembers,
  selectMembersError,
  selectMembersFailed,
  selectMembersHasMore,
  selectMembersLoading,
  selectMembersLoadingMore,
  selectOpenList,
  selectOwnLists,
  selectQuery,
  selectResults,
  selectSearchFailed,
  selectSearching,
  selectSubscribedLists,
} from '../../machines/lists/lists.selectors'
import { NamedGroupForm } from '../settings/NamedGroupForm'
import { Avatar } from '../ui/Avatar'
import { TextField } from '../ui/Field'
import { Icon } from '../ui/Icon'
import { EmptyNote } from '../ui/ListStates'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'
import { SubviewHeader } from '../ui/SubviewHeader'
import { shownName } from '../../machines/lib/shown-name'

// The Manage Lists dialog (spec: "Manage Lists: New List, Close, form, list of lists"; docs/product.md, "Lists"): the
// member's lists and the lists they subscribe to, each linking to its page; New List and Edit open the form; Delete
// asks first; Members opens a list's members with a member search to add more. Everything it shows and allows comes
// from the lists actor (src/machines/lists).

const empty = css({ fontSize: 'sm', color: 'fg.muted', py: '6', textAlign: 'center' })
const row = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  py: '3',
  '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border' },
})
/** A list's row: on phones its buttons go under its name, which keeps the whole width. */
const listRow = css({
  display: 'flex',
  flexDirection: { base: 'column', sm: 'row' },
  alignItems: { base: 'stretch', sm: 'center' },
  gap: { base: '2', sm: '3' },
  py: '3',
  '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border' },
})
const summary = css({ display: 'flex', alignItems: 'center', gap: '3', flex: 1, minW: 0 })
const badge = css({ ml: '2', fontSize: 'xs', color: 'fg.muted', fontWeight: 'medium' })
const heading = css({ fontSize: 'xs', fontWeight: 'bold', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted', mt: '2' })
const rowActions = css({ display: 'flex', gap: '1', flexShrink: 0, ml: { base: '11', sm: 'auto' } })
const nameLink = css({ color: 'fg.default', _hover: { textDecoration: 'underline' } })

export function ManageListsDialog({ actor, onClose }: { actor: ListsRef; onClose: () => void }) {
  const loading = useSelector(actor, selectLoading)
  const failed = useSelector(actor, selectFailed)
  const editing = useSelector(actor, selectEditing)
  const open = useSelector(actor, selectOpenList)
  const deleting = useSelector(actor, selectDeleting)
  return (
    <Dialog open onClose={onClose} title="Manage Lists" description="Groups of members, each with its own timeline. Others can subscribe to your public lists." size="lg">
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', minH: '240px' })}>
        {loading ? (
          <div className={css({ display: 'grid', placeItems: 'center', py: '10' })}>
            <Spinner label="Loading lists" />
          </div>
        ) : failed ? (
          <div role="alert" className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '8' })}>
            <p className={css({ color: 'fg.muted' })}>{LISTS_LOAD_FAILED}</p>
            <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'lists.retry' })}>
              Try again
            </button>
          </div>
        ) : editing ? (
          <ListForm actor={actor} />
        ) : open ? (
          <Members actor={actor} list={open} />
        ) : (
          <Lists actor={actor} />
        )}
        {deleting ? <ConfirmDelete actor={actor} list={deleting} /> : null}
      </div>
    </Dialog>
  )
}

function Lists({ actor }: { actor: ListsRef }) {
  const own = useSelector(actor, selectOwnLists)
  const subscribed = useSelector(actor, selectSubscribedLists)
  const busy = useSelector(actor, selectBusy)
  const hasMore = useSelector(actor, selectHasMore)
  const loadingMore = useSelector(actor, selectLoadingMore)
  return (
    <>
      <button type="button" className={cx(button({ size: 'sm' }), css({ alignSelf: 'flex-start' }))} disabled={busy} onClick={() => actor.send({ type: 'list.new' })}>
        <Icon name="compose" size={16} />
        New List
      </button>
      {own.length === 0 && subscribed.length === 0 ? (
        <EmptyNote title="No lists yet">Make one, then add members to read their posts on its own timeline.</EmptyNote>
      ) : null}
      {own.length > 0 ? (
        <ul aria-label="Your lists" className={css({ display: 'flex', flexDirection: 'column' })}>
          {own.map((list) => (
            <li key={list.id} className={listRow}>
              <ListSummary list={list} />
              <div className={rowActions}>
                <button type="button" className={button({ variant: 'outline', size: 'sm' })} disabled={busy} onClick={() => actor.send({ type: 'list.members', id: list.id })} aria-label={`Members of ${list.name}`}>
                  Members
                </button>
                <button type="button" className={button({ variant: 'ghost', size: 'sm' })} disabled={busy} onClick={() => actor.send({ type: 'list.edit', id: list.id })} aria-label={`Edit ${list.name}`}>
                  Edit
                </button>
                <button type="button" className={cx(button({ variant: 'ghost', size: 'sm' }), css({ color: 'danger.text' }))} disabled={busy} onClick={() => actor.send({ type: 'list.delete', id: list.id })} aria-label={`Delete ${list.name}`}>
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {subscribed.length > 0 ? (
        <>
          <h3 className={heading}>Subscribed</h3>
          <ul aria-label="Subscribed lists" className={css({ display: 'flex', flexDirection: 'column' })}>
            {subscribed.map((list) => (
              <li key={list.id} className={listRow}>
                <ListSummary list={list} />
                <div className={rowActions}>
                  <button
                    type="button"
                    className={button({ variant: list.subscribed ? 'outline' : 'solid', size: 'sm' })}
                    disabled={busy}
                    onClick={() => actor.send({ type: list.subscribed ? 'list.unsubscribe' : 'list.subscribe', id: list.id })}
                    aria-label={`${list.subscribed ? 'Unsubscribe from' : 'Subscribe to'} ${list.name}`}
                  >
                    {list.subscribed ? 'Unsubscribe' : 'Subscribe'}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {hasMore ? (
        <button type="button" className={cx(button({ variant: 'ghost', size: 'sm' }), css({ alignSelf: 'center' }))} disabled={busy} onClick={() => actor.send({ type: 'lists.more' })}>
          {loadingMore ? <Spinner size={16} /> : null}
          Load more
        </button>
      ) : null}
    </>
  )
}

/** A list's icon, name (a link to its page), badges and counts. */
function ListSummary({ list }: { list: List }) {
  return (
    <div className={summary}>
      <span className={css({ display: 'grid', placeItems: 'center', w: '10', h: '10', borderRadius: 'lg', bg: 'accent.subtle', color: 'accent.text', flexShrink: 0 })}>
        <Icon name={list.isPrivate ? 'lock' : 'list'} size={18} />
      </span>
      <div className={css({ flex: 1, minW: 0 })}>
        <p className={css({ fontWeight: 'semibold', truncate: true })}>
          <Link href={listPath(list.id)} className={nameLink}>
            {list.name}
          </Link>
          {list.isPrivate ? <span className={badge}>Private</span> : null}
        </p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>
          {countLabel(list.memberCount, 'member', 'members')}
          {list.subscriberCount > 0 ? ` · ${countLabel(list.subscriberCount, 'subscriber', 'subscribers')}` : ''}
          {list.description ? ` · ${list.description}` : ''}
        </p>
      </div>
    </div>
  )
}

function ConfirmDelete({ actor, list }: { actor: ListsRef; list: List }) {
  return (
    <div
      role="alertdialog"
      aria-label="Delete list"
      className={css({ display: 'flex', flexDirection: 'column', gap: '3', p: '4', borderRadius: 'xl', borderWidth: '1px', borderColor: 'border', bg: 'danger.subtle' })}
    >
      <p className={css({ fontWeight: 'semibold' })}>{DELETE_CONFIRM}</p>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>“{list.name}” and its members go; their posts stay where they are.</p>
      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
        <button type="button" className={button({ variant: 'ghost', size: 'sm' })} onClick={() => actor.send({ type: 'delete.cancel' })}>
          Cancel
        </button>
        <button type="button" autoFocus className={button({ variant: 'danger', size: 'sm' })} onClick={() => actor.send({ type: 'delete.confirm' })}>
          Delete
        </button>
      </div>
    </div>
  )
}

function Members({ actor, list }: { actor: ListsRef; list: List }) {
  const members = useSelector(actor, selectMembers)
  const loading = useSelector(actor, selectMembersLoading)
  const busy = useSelector(actor, selectBusy)
  const query = useSelector(actor, selectQuery)
  const results = useSelector(actor, selectResults)
  const searching = useSelector(actor, selectSearching)
  const searchFailed = useSelector(actor, selectSearchFailed)
  const failed = useSelector(actor, selectMembersFailed)
  const error = useSelector(actor, selectMembersError)
  const hasMore = useSelector(actor, selectMembersHasMore)
  const loadingMore = useSelector(actor, selectMembersLoadingMore)
  return (
    <>
      <SubviewHeader
        backLabel="All lists"
        onBack={() => actor.send({ type: 'members.back' })}
        title={
          <Link href={listPath(list.id)} className={nameLink}>
            {list.name}
          </Link>
        }
        subtitle={countLabel(list.memberCount, 'member', 'members')}
      />
      <TextField
        label="Add members"
        type="search"
        placeholder="Search by name or @username"
        value={query}
        autoComplete="off"
        onChange={(event) => actor.send({ type: 'members.query', value: event.target.value })}
      />
      {searching ? (
        <div className={css({ display: 'flex', justifyContent: 'center', py: '2' })}>
          <Spinner size={18} label="Searching" />
        </div>
      ) : searchFailed ? (
        <p role="alert" className={css({ fontSize: 'sm', color: 'danger.text' })}>
          {USER_SEARCH_FAILED}
        </p>
      ) : results.length > 0 ? (
        <ul aria-label="Search results" className={css({ display: 'flex', flexDirection: 'column', borderWidth: '1px', borderColor: 'border', borderRadius: 'xl', px: '3' })}>
          {results.map(({ user, onList }) => (
            <MemberRow key={user.id} user={user}>
              <button
                type="button"
                className={button({ variant: onList ? 'ghost' : 'outline', size: 'sm' })}
                disabled={busy || onList}
                onClick={() => actor.send({ type: 'members.add', userId: user.id })}
                aria-label={onList ? `@${user.username} is on the list` : `Add @${user.username}`}
              >
                {onList ? <Icon name="check" size={14} /> : null}
                {onList ? 'Added' : 'Add'}
              </button>
            </MemberRow>
          ))}
        </ul>
      ) : query.trim().length >= LIMITS.userSearchMin ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No users found</p>
      ) : null}
      {loading ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '6' })}>
          <Spinner label="Loading members" />
        </div>
      ) : failed ? (
        <LoadError compact message={error ?? ''} onRetry={() => actor.send({ type: 'members.retry' })} />
      ) : members.length === 0 && !hasMore ? (
        <p className={empty}>No members yet. Search above to add some.</p>
      ) : (
        <>
        <ul aria-label={`Members of ${list.name}`} className={css({ display: 'flex', flexDirection: 'column', borderTopWidth: '1px', borderColor: 'border', mt: '1' })}>
          {members.map((member) => (
            <MemberRow key={member.id} user={member}>
              <button
                type="button"
                className={button({ variant: 'ghost', size: 'sm' })}
                disabled={busy}
                onClick={() => actor.send({ type: 'members.remove', userId: member.id })}
                aria-label={`Remove @${member.username}`}
              >
                Remove
              </button>
            </MemberRow>
          ))}
        </ul>
        {loadingMore ? (
          <div className={css({ display: 'grid', placeItems: 'center', py: '3' })}>
            <Spinner size={20} label="Loading more" />
          </div>
        ) : error ? (
          <LoadError compact message={error} onRetry={() => actor.send({ type: 'members.more' })} />
        ) : hasMore ? (
          <button type="button" className={cx(button({ variant: 'outline', size: 'sm' }), css({ alignSelf: 'center' }))} disabled={busy} onClick={() => actor.send({ type: 'members.more' })}>
            Load more
          </button>
        ) : null}
        </>
      )}
    </>
  )
}

/** A member in the search results or on the list: avatar, name, @username, then what can be done with them. */
function MemberRow({ user, children }: { user: UserSummary; children: ReactNode }) {
  return (
    <li className={row}>
      <Avatar src={user.avatar} name={shownName(user)} size={36} />
      <div className={css({ flex: 1, minW: 0 })}>
        <p className={css({ fontWeight: 'semibold', truncate: true })}>{shownName(user)}</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>@{user.username}</p>
      </div>
      {children}
    </li>
  )
}

function ListForm({ actor }: { actor: ListsRef }) {
  const form = useSelector(actor, selectForm)
  return form ? <NamedGroupForm form={form} noun="list" privateLabel="Private list (only you can see it)" /> : null
}
