import { useState } from 'react'
import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { feedMachine } from '../../machines/feed/feed.machine'
import { listPageMachine, type ListPageRef } from '../../machines/list-page/list-page.machine'
import {
  selectBusy,
  selectCanSubscribe,
  selectCanUnsubscribe,
  selectError as selectPageError,
  selectFailed,
  selectIsOwner,
  selectList,
  selectLoading,
  selectMembers,
  selectMembersError,
  selectMembersHasMore,
  selectMembersLoadingMore,
  selectMissing,
} from '../../machines/list-page/list-page.selectors'
import { countLabel, LIST_NOT_FOUND } from '../../machines/lists/lists.rules'
import { selectUserId } from '../../machines/session/session.selectors'
import { ScreenActor, usePosts, useSession } from '../actors'
import { FeedError } from '../home/FeedStates'
import { FeedTimeline } from '../home/FeedTimeline'
import { Avatar } from '../ui/Avatar'
import { Icon } from '../ui/Icon'
import { Dialog } from '../ui/Overlay'
import { LoadError } from '../profile/LoadError'
import { VerifiedMark } from '../profile/VerifiedMark'
import { PageHeader } from '../ui/PageHeader'
import { Spinner } from '../ui/Spinner'
import { shownName } from '../../machines/lib/shown-name'

// A list's page, /lists/{id} (docs/product.md, "Lists"): its name, description, owner, counts, first members and
// Subscribe / Unsubscribe for someone else's list (the list-page actor), then its timeline: the home feed's actor with
// the list as its source, rendered with the same post cards and infinite scroll as Home. The member count and "and N
// more" open the Members dialog: every member read so far, with Load more like Followers / Following.

const MEMBERS_SHOWN = 8

export function ListScreen({ listId }: { listId: string }) {
  const viewerId = useSelector(useSession(), selectUserId) ?? ''
  // Keyed by the id: another list's page is a new pair of actors.
  return (
    <ScreenActor key={listId} logic={listPageMachine} input={{ listId, viewerId }}>
      {(page) => <ListPage page={page} listId={listId} />}
    </ScreenActor>
  )
}

function ListPage({ page, listId }: { page: ListPageRef; listId: string }) {
  const loading = useSelector(page, selectLoading)
  const missing = useSelector(page, selectMissing)
  const failed = useSelector(page, selectFailed)
  const error = useSelector(page, selectPageError)
  const list = useSelector(page, selectList)
  const posts = usePosts()

  if (missing) {
    return (
      <>
        <PageHeader title="List" backTo="/settings?tab=lists" backLabel="Lists" />
        <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '3', px: '6', py: '16' })}>
          <span className={css({ display: 'grid', placeItems: 'center', w: '14', h: '14', borderRadius: '2xl', bg: 'bg.subtle', color: 'fg.muted' })}>
            <Icon name="list" size={28} />
          </span>
          <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{LIST_NOT_FOUND}</h2>
          <p className={css({ color: 'fg.muted', maxW: '360px' })}>It may have been deleted, or it is private.</p>
          <Link href="/" className={button({ variant: 'outline' })}>
            Go to Home
          </Link>
        </div>
      </>
    )
  }
  return (
    <>
      <PageHeader title={list?.name ?? 'List'} subtitle={list ? countLabel(list.memberCount, 'member', 'members') : undefined} backTo="/settings?tab=lists" backLabel="Lists" />
      {loading ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '10' })}>
          <Spinner label="Loading list" />
        </div>
      ) : failed ? (
        <FeedError title="Couldn't load this list" message={error} onRetry={() => page.send({ type: 'listPage.retry' })} />
      ) : list ? (
        <>
          <ListHeader page={page} />
          <ScreenActor logic={feedMachine} input={{ posts, source: { kind: 'list', listId } }}>
            {(feed) => <FeedTimeline feed={feed} label={`Posts in ${list.name}`} errorTitle="Couldn't load this list" empty={<NoPosts />} />}
          </ScreenActor>
        </>
      ) : null}
    </>
  )
}

function ListHeader({ page }: { page: ListPageRef }) {
  const list = useSelector(page, selectList)
  const members = useSelector(page, selectMembers)
  const isOwner = useSelector(page, selectIsOwner)
  const canSubscribe = useSelector(page, selectCanSubscribe)
  const canUnsubscribe = useSelector(page, selectCanUnsubscribe)
  const busy = useSelector(page, selectBusy)
  const [showMembers, setShowMembers] = useState(false)
  if (!list) return null
  return (
    <section aria-label="About this list" className={css({ display: 'flex', flexDirection: 'column', gap: '3', px: '4', py: '4', borderBottomWidth: '1px', borderColor: 'border' })}>
      <div className={css({ display: 'flex', alignItems: 'flex-start', gap: '3' })}>
        <span className={css({ display: 'grid', placeItems: 'center', w: '12', h: '12', borderRadius: 'xl', bg: 'accent.subtle', color: 'accent.text', flexShrink: 0 })}>
          <Icon name={list.isPrivate ? 'lock' : 'list'} size={22} />
        </span>
        <div className={css({ flex: 1, minW: 0 })}>
          <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', lineHeight: '1.2', wordBreak: 'break-word' })}>{list.name}</h2>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            by{' '}
            <Link href={`/profile/${encodeURIComponent(list.owner.username)}`} className={css({ color: 'fg.default', fontWeight: 'medium', _hover: { textDecoration: 'underline' } })}>
              @{list.owner.username}
            </Link>
            {list.isPrivate ? ' · Private' : ''}
          </p>
        </div>
        {isOwner ? (
          <Link href="/settings?tab=lists" className={button({ variant: 'outline', size: 'sm' })}>
            Manage
          </Link>
        ) : canSubscribe || canUnsubscribe ? (
          <button
            type="button"
            className={button({ variant: canUnsubscribe ? 'outline' : 'solid', size: 'sm' })}
            disabled={busy}
            aria-busy={busy}
            onClick={() => page.send({ type: canUnsubscribe ? 'listPage.unsubscribe' : 'listPage.subscribe' })}
          >
            {busy ? <Spinner size={14} /> : null}
            {canUnsubscribe ? 'Unsubscribe' : 'Subscribe'}
          </button>
        ) : null}
      </div>
      {list.description ? <p className={css({ whiteSpace: 'pre-wrap', wordBreak: 'break-word' })}>{list.description}</p> : null}
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        <button
          type="button"
          className={css({ color: 'fg.default', fontWeight: 'semibold', cursor: 'pointer', _hover: { textDecoration: 'underline' } })}
          onClick={() => setShowMembers(true)}
        >
          {countLabel(list.memberCount, 'member', 'members')}
        </button>
        {' · '}
        {countLabel(list.subscriberCount, 'subscriber', 'subscribers')}
      </p>
      {members.length > 0 ? (
        <ul aria-label="Members" className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
          {members.slice(0, MEMBERS_SHOWN).map((m) => (
            <li key={m.id}>
              <Link
                href={`/profile/${encodeURIComponent(m.username)}`}
                title={`${shownName(m)} (@${m.username})`}
                className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', pl: '1', pr: '3', py: '1', borderRadius: 'full', bg: 'bg.subtle', fontSize: 'sm', _hover: { bg: 'accent.subtle' } })}
              >
                <Avatar src={m.avatar} name={shownName(m)} size={24} />
                <span className={css({ maxW: '140px', truncate: true })}>{shownName(m)}</span>
              </Link>
            </li>
          ))}
          {list.memberCount > MEMBERS_SHOWN ? (
            <li className={css({ alignSelf: 'center' })}>
              <button
                type="button"
                className={css({ fontSize: 'sm', color: 'accent.text', cursor: 'pointer', _hover: { textDecoration: 'underline' } })}
                onClick={() => setShowMembers(true)}
              >
                and {(list.memberCount - MEMBERS_SHOWN).toLocaleString('en-US')} more
              </button>
            </li>
          ) : null}
        </ul>
      ) : null}
      {showMembers ? <MembersDialog page={page} name={list.name} onClose={() => setShowMembers(false)} /> : null}
    </section>
  )
}

/** Every member read so far, most recently added first, then Load more while the server has more. */
function MembersDialog({ page, name, onClose }: { page: ListPageRef; name: string; onClose: () => void }) {
  const members = useSelector(page, selectMembers)
  const hasMore = useSelector(page, selectMembersHasMore)
  const loadingMore = useSelector(page, selectMembersLoadingMore)
  const error = useSelector(page, selectMembersError)
  const more = () => page.send({ type: 'listPage.moreMembers' })
  return (
    <Dialog open onClose={onClose} title="Members" description={name}>
      {members.length === 0 && !hasMore ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted', py: '6', textAlign: 'center' })}>No members yet</p>
      ) : (
        <ul aria-label={`Members of ${name}`} className={css({ display: 'flex', flexDirection: 'column' })}>
          {members.map((m) => (
            <li key={m.id} className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '2', '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border' } })}>
              <Avatar src={m.avatar} name={shownName(m)} size={36} />
              <div className={css({ flex: 1, minW: 0, lineHeight: '1.3' })}>
                <div className={css({ display: 'flex', alignItems: 'center', gap: '1', minW: 0 })}>
                  <Link href={`/profile/${encodeURIComponent(m.username)}`} onClick={onClose} className={css({ fontWeight: 'bold', truncate: true, _hover: { textDecoration: 'underline' } })}>
                    {shownName(m)}
                  </Link>
                  {m.verified ? <VerifiedMark size={16} /> : null}
                </div>
                <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>@{m.username}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {loadingMore ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '3', color: 'accent' })}>
          <Spinner size={20} label="Loading more" />
        </div>
      ) : error ? (
        <LoadError compact message={error} onRetry={more} />
      ) : hasMore ? (
        <div className={css({ display: 'flex', justifyContent: 'center', pt: '3' })}>
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={more}>
            Load more
          </button>
        </div>
      ) : null}
    </Dialog>
  )
}

function NoPosts() {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '2', px: '6', py: '16', color: 'fg.muted' })}>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.default' })}>No posts yet</h2>
      <p>Posts by this list's members show here.</p>
    </div>
  )
}
