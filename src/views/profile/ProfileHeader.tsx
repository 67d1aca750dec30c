import { format } from 'date-fns'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { UserProfile } from '../../api/users.calls'
import type { FollowRef } from '../../machines/follow/follow.machine'
import type { ProfileMachine } from '../../machines/profile/profile.machine'
import { selectStarting } from '../../machines/conversations/conversations.selectors'
import { selectFollow, selectIsOwner, selectUploading } from '../../machines/profile/profile.selectors'
import { useConversations } from '../actors'
import { BlockUser } from '../post/BlockUserDialog'
import { MuteToggleButton, MuteUser } from '../post/MuteUserDialog'
import { AddToList } from '../lists/AddToList'
import { ReportAbout } from '../report/ReportDialog'
import { formatCount } from '../post/format'
import { Icon } from '../ui/Icon'
import { FollowButton } from './FollowButton'
import { ProfileIcon } from './icons'
import { ProfileAvatar, ProfileBanner } from './ProfileImages'
import { VerifiedMark } from './VerifiedMark'
import { shownName } from '../../machines/lib/shown-name'

// Banner, avatar, the owner's or the visitor's buttons, name with verified mark and Private badge, @username, bio,
// joined date and the counts (docs/product.md, "Profiles").

type ProfileActor = ActorRefFrom<ProfileMachine>

const countLink = css({
  display: 'inline-flex',
  gap: '1',
  color: 'fg.muted',
  _hover: { textDecoration: 'underline', color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', borderRadius: 'sm' },
  '& strong': { color: 'fg.default', fontWeight: 'bold' },
})

export function ProfileHeader({ actor, user }: { actor: ProfileActor; user: UserProfile }) {
  const owner = useSelector(actor, selectIsOwner)
  const follow = useSelector(actor, selectFollow)
  const uploading = useSelector(actor, selectUploading)
  const name = shownName(user)
  const base = `/profile/${encodeURIComponent(user.username)}`

  return (
    <section aria-label={`${name}'s profile`}>
      <ProfileBanner
        user={user}
        owner={owner}
        uploading={uploading}
        onBanner={(file) => actor.send({ type: 'profile.banner.upload', file })}
      />
      <div className={css({ px: '4', pb: '3' })}>
        <div className={css({ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: '3' })}>
          <ProfileAvatar
            user={user}
            owner={owner}
            uploading={uploading}
            onAvatar={(file) => actor.send({ type: 'profile.avatar.upload', file })}
          />
          <div className={css({ display: 'flex', alignItems: 'center', gap: '2', pt: '3' })}>
            {owner ? <OwnerActions /> : follow ? <VisitorActions follow={follow} user={user} /> : null}
          </div>
        </div>

        <div className={css({ mt: '3', display: 'flex', flexDirection: 'column', gap: '0.5' })}>
          <div className={css({ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: '1.5' })}>
            <h2 className={css({ fontSize: '2xl', fontWeight: 'extrabold', letterSpacing: '-0.02em', lineHeight: '1.2', wordBreak: 'break-word' })}>
              {name}
            </h2>
            {user.verified ? <VerifiedMark size={20} /> : null}
            {user.privateAccount ? <PrivateBadge /> : null}
          </div>
          <p className={css({ color: 'fg.muted' })}>@{user.username}</p>
        </div>

        {user.bio.trim() !== '' ? (
          <p className={css({ mt: '3', whiteSpace: 'pre-wrap', wordBreak: 'break-word', lineHeight: '1.55' })}>{user.bio}</p>
        ) : null}

        <p className={css({ mt: '3', display: 'flex', alignItems: 'center', gap: '1.5', color: 'fg.muted', fontSize: 'sm' })}>
          <ProfileIcon name="calendar" size={16} />
          <span>Joined {format(new Date(user.createdAt), 'MMMM yyyy')}</span>
        </p>

        <div className={css({ mt: '3', display: 'flex', flexWrap: 'wrap', columnGap: '5', rowGap: '1', fontSize: 'sm' })}>
          <Link href={`${base}/following`} className={countLink}>
            <strong>{formatCount(user.stats.following)}</strong> Following
          </Link>
          {follow ? (
            <LiveFollowers follow={follow} href={`${base}/followers`} />
          ) : (
            <Link href={`${base}/followers`} className={countLink}>
              <strong>{formatCount(user.stats.followers)}</strong> {user.stats.followers === 1 ? 'Follower' : 'Followers'}
            </Link>
          )}
          <span className={cx(countLink, css({ _hover: { textDecoration: 'none', color: 'fg.muted' } }))}>
            <strong>{formatCount(user.stats.posts)}</strong> {user.stats.posts === 1 ? 'Post' : 'Posts'}
          </span>
        </div>
      </div>
    </section>
  )
}

/** The followers count as the follow actor has it: optimistic at once, then the server's exact number. */
function LiveFollowers({ follow, href }: { follow: FollowRef; href: string }) {
  const followers = useSelector(follow, (s) => s.context.followers)
  return (
    <Link href={href} className={countLink}>
      <strong data-testid="followers-count">{formatCount(followers)}</strong> {followers === 1 ? 'Follower' : 'Followers'}
    </Link>
  )
}

function PrivateBadge() {
  return (
    <span
      title="Requires approval for new followers"
      className={css({
        display: 'inline-flex',
        alignItems: 'center',
        gap: '1',
        px: '2',
        py: '0.5',
        borderRadius: 'full',
        bg: 'bg.subtle',
        color: 'fg.muted',
        fontSize: 'xs',
        fontWeight: 'semibold',
      })}
    >
      <Icon name="lock" size={12} />
      Private
    </span>
  )
}

function OwnerActions() {
  return (
    <Link href="/settings?tab=profile" className={button({ variant: 'outline', size: 'sm' })}>
      <ProfileIcon name="edit" />
      Edit Profile
    </Link>
  )
}

const roundButton = cx(button({ variant: 'outline', size: 'icon' }), css({ w: '9', h: '9' }))

/** Starts (or reopens) the conversation with this member; the list actor opens it, or toasts the server's refusal. */
function MessageButton({ userId, username }: { userId: string; username: string }) {
  // Asked for at once: the list's code may still be loading when a profile is the first screen.
  const conversations = useConversations(true)
  const starting = useSelector(conversations, (s) => (s ? selectStarting(s) : false))
  return (
    <button
      type="button"
      className={roundButton}
      aria-label={`Message @${username}`}
      title="Message"
      disabled={starting || !conversations}
      onClick={() => conversations?.send({ type: 'conversation.start', recipientId: userId })}
    >
      <ProfileIcon name="mail" size={18} />
    </button>
  )
}

function VisitorActions({ follow, user }: { follow: FollowRef; user: UserProfile }) {
  const { username } = user
  return (
    <>
      <MessageButton userId={user.id} username={username} />
      {/* Mute is feed-only: the profile stays as it is (docs/product.md, "Mutes"); only the button says Unmute. */}
      <MuteUser userId={user.id} username={username} muted={user.muted}>
        {(_ask, actor) => <MuteToggleButton actor={actor} username={username} className={roundButton} />}
      </MuteUser>
      <AddToList userId={user.id} username={username} className={roundButton} />
      {/* Blocking makes this profile absent to the member: once blocked, home (docs/product.md, "Blocks"). */}
      <BlockUser userId={user.id} name={shownName(user)} leaveTo="/">
        {(ask) => (
          <button type="button" className={roundButton} aria-label={`Block @${username}`} title="Block" onClick={ask}>
            <Icon name="block" size={18} />
          </button>
        )}
      </BlockUser>
      <ReportAbout>
        {(report) => (
          <button
            type="button"
            className={roundButton}
            aria-label={`Report @${username}`}
            title="Report"
            onClick={() => report({ kind: 'user', id: user.id })}
          >
            <Icon name="flag" size={18} />
          </button>
        )}
      </ReportAbout>
      <FollowButton actor={follow} name={username} size="sm" />
    </>
  )
}
