import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { addToListMachine, type AddToListRef } from '../../machines/add-to-list/add-to-list.machine'
import { selectBusy, selectChoices, selectFailed, selectHasMore, selectLoading, selectOpen } from '../../machines/add-to-list/add-to-list.selectors'
import { countLabel, LISTS_LOAD_FAILED } from '../../machines/lists/lists.rules'
import { ScreenActor } from '../actors'
import { Icon } from '../ui/Icon'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'

// "Add to list" on another member's profile (docs/product.md, "Lists"): a button that opens one checkbox per list of
// the viewer's own; ticking adds the member, clearing removes them. The add-to-list actor does the rest.

export function AddToList({ userId, username, className }: { userId: string; username: string; className: string }) {
  return (
    <ScreenActor logic={addToListMachine} input={{ userId }}>
      {(actor) => <AddToListButton actor={actor} username={username} className={className} />}
    </ScreenActor>
  )
}

function AddToListButton({ actor, username, className }: { actor: AddToListRef; username: string; className: string }) {
  const open = useSelector(actor, selectOpen)
  return (
    <>
      <button type="button" className={className} aria-label="Add to list" title="Add to list" onClick={() => actor.send({ type: 'addToList.open' })}>
        <Icon name="list" size={18} />
      </button>
      {open ? <AddToListDialog actor={actor} username={username} /> : null}
    </>
  )
}

function AddToListDialog({ actor, username }: { actor: AddToListRef; username: string }) {
  const loading = useSelector(actor, selectLoading)
  const failed = useSelector(actor, selectFailed)
  const choices = useSelector(actor, selectChoices)
  const busy = useSelector(actor, selectBusy)
  const hasMore = useSelector(actor, selectHasMore)
  return (
    <Dialog open onClose={() => actor.send({ type: 'addToList.close' })} title="Add to list" description={`Choose the lists @${username} is on.`}>
      {loading ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '8' })}>
          <Spinner label="Loading lists" />
        </div>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '6' })}>
          <p className={css({ color: 'fg.muted' })}>{LISTS_LOAD_FAILED}</p>
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'addToList.retry' })}>
            Try again
          </button>
        </div>
      ) : choices.length === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted', py: '6', textAlign: 'center' })}>
          You have no lists yet. Make one in Settings → Lists.
        </p>
      ) : (
        <ul aria-label="Your lists" className={css({ display: 'flex', flexDirection: 'column' })}>
          {choices.map(({ list, checked, saving }) => (
            <li key={list.id} className={css({ '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border' } })}>
              <label className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '3', cursor: 'pointer' })}>
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={busy}
                  onChange={() => actor.send({ type: 'addToList.toggle', listId: list.id })}
                  className={css({ w: '4', h: '4', accentColor: 'accent' })}
                />
                <span className={css({ flex: 1, minW: 0 })}>
                  <span className={css({ display: 'block', fontWeight: 'semibold', truncate: true })}>{list.name}</span>
                  <span className={css({ display: 'block', fontSize: 'sm', color: 'fg.muted' })}>
                    {countLabel(list.memberCount, 'member', 'members')}
                    {list.isPrivate ? ' · Private' : ''}
                  </span>
                </span>
                {saving ? <Spinner size={16} /> : null}
              </label>
            </li>
          ))}
        </ul>
      )}
      {hasMore && !loading ? (
        <button type="button" className={cx(button({ variant: 'ghost', size: 'sm' }), css({ mt: '2' }))} disabled={busy} onClick={() => actor.send({ type: 'addToList.more' })}>
          Load more
        </button>
      ) : null}
    </Dialog>
  )
}
