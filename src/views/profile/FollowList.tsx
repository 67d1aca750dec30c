import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { followListMachine, type FollowListKind, type FollowListMachine, type FollowRow } from '../../machines/follow-list/follow-list.machine'
import { selectUser } from '../../machines/session/session.selectors'
import { ScreenActor, useSession } from '../actors'
import { Avatar } from '../ui/Avatar'
import { Spinner } from '../ui/Spinner'
import { FollowButton } from './FollowButton'
import { LoadError } from './LoadError'
import { UserNotFound } from './UserNotFound'
import { VerifiedMark } from './VerifiedMark'
import { shownName } from '../../machines/lib/shown-name'

// The body of /profile/{username}/followers and /following: rows with avatar, name, @username, verified mark and a
// Follow/Unfollow button (none on the viewer's own row), then Load more while the server has more.

type ListActor = ActorRefFrom<FollowListMachine>

const EMPTY_TEXT: Record<FollowListKind, string> = {
  followers: 'No followers yet',
  following: 'Not following anyone yet',
}

const EMPTY_HINT: Record<FollowListKind, (username: string) => string> = {
  followers: (username) => `When someone follows @${username}, they'll show up here.`,
  following: (username) => `When @${username} follows someone, they'll show up here.`,
}

export function FollowList({ username, kind }: { username: string; kind: FollowListKind }) {
  const viewerId = useSelector(useSession(), (s) => selectUser(s)?.id ?? '')
  return (
    <ScreenActor logic={followListMachine} input={{ username, kind, viewerId }}>
      {(list) => <FollowRows list={list} username={username} kind={kind} />}
    </ScreenActor>
  )
}

function FollowRows({ list, username, kind }: { list: ListActor; username: string; kind: FollowListKind }) {
  const loading = useSelector(list, (s) => s.hasTag('loading'))
  const notFound = useSelector(list, (s) => s.matches('notFound'))
  const failed = useSelector(list, (s) => (s.matches('failed') ? s.context.error : null))
  const rows = useSelector(list, (s) => s.context.rows)

  if (loading) {
    return (
      <div className={css({ display: 'grid', placeItems: 'center', py: '16', color: 'accent' })}>
        <Spinner size={28} label={kind === 'followers' ? 'Loading followers' : 'Loading following'} />
      </div>
    )
  }
  if (notFound) return <UserNotFound username={username} />
  if (failed) return <LoadError message={failed} onRetry={() => list.send({ type: 'follows.retry' })} />
  if (rows.length === 0) {
    return (
      <div className={css({ textAlign: 'center', px: '6', py: '16' })}>
        <p className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{EMPTY_TEXT[kind]}</p>
        <p className={css({ color: 'fg.muted', mt: '1' })}>{EMPTY_HINT[kind](username)}</p>
      </div>
    )
  }
  return (
    <>
      <ul aria-label={kind === 'followers' ? `Followers of @${username}` : `Followed by @${username}`}>
        {rows.map((row) => (
          <FollowListRow key={row.entry.id} row={row} />
        ))}
      </ul>
      <LoadMore list={list} />
    </>
  )
}

function FollowListRow({ row }: { row: FollowRow }) {
  const { entry, follow } = row
  const href = `/profile/${encodeURIComponent(entry.username)}`
  return (
    <li
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        px: '4',
        py: '3',
        borderBottomWidth: '1px',
        borderColor: 'border',
        transition: 'background-color 120ms',
        _hover: { bg: 'bg.subtle' },
      })}
    >
      <Link href={href} tabIndex={-1} aria-hidden="true" className={css({ display: 'flex', borderRadius: 'full' })}>
        <Avatar src={entry.avatar} name={shownName(entry)} size={44} />
      </Link>
      <div className={css({ flex: 1, minW: 0, lineHeight: '1.3' })}>
        <div className={css({ display: 'flex', alignItems: 'center', gap: '1', minW: 0 })}>
          <Link
            href={href}
            className={css({ fontWeight: 'bold', truncate: true, _hover: { textDecoration: 'underline' } })}
          >
            {shownName(entry)}
          </Link>
          {entry.verified ? <VerifiedMark size={16} /> : null}
        </div>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>@{entry.username}</p>
      </div>
      {follow ? <FollowButton actor={follow} name={entry.username} size="sm" /> : null}
    </li>
  )
}

/** Load more while the last page came back full (docs/product.md, "Paging"); a spinner, or Try again on failure. */
function LoadMore({ list }: { list: ListActor }) {
  const canLoadMore = useSelector(list, (s) => s.can({ type: 'follows.more' }))
  const loadingMore = useSelector(list, (s) => s.hasTag('busy'))
  const failed = useSelector(list, (s) => (s.matches({ loaded: 'moreFailed' }) ? s.context.error : null))
  const footer = css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '2', py: '5' })

  if (loadingMore) {
    return (
      <div className={css({ display: 'grid', placeItems: 'center', py: '5', color: 'accent' })}>
        <Spinner size={24} label="Loading more" />
      </div>
    )
  }
  if (failed) return <LoadError compact message={failed} onRetry={() => list.send({ type: 'follows.more' })} />
  if (!canLoadMore) return null
  return (
    <div className={footer}>
      <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => list.send({ type: 'follows.more' })}>
        Load more
      </button>
    </div>
  )
}
