import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { profileMachine } from '../../machines/profile/profile.machine'
import {
  selectIsLoading,
  selectIsNotFound,
  selectIsRestricted,
  selectLoadError,
  selectUser,
} from '../../machines/profile/profile.selectors'
import { PRIVATE_PROFILE_NOTICE } from '../../machines/profile/profile.rules'
import { selectUser as selectSessionUser } from '../../machines/session/session.selectors'
import type { ActorRefFrom } from 'xstate'
import { ScreenActor, useSession } from '../actors'
import { formatCount } from '../post/format'
import { usePosts } from '../actors'
import { PageHeader } from '../ui/PageHeader'
import { Spinner } from '../ui/Spinner'
import { LoadError } from './LoadError'
import { ProfileHeader } from './ProfileHeader'
import { ProfileTabs } from './ProfileTabs'
import { UserNotFound } from './UserNotFound'
import { shownName } from '../../machines/lib/shown-name'

// /profile/{username}: the profile actor's states as screens. Mounted once per username (see ProfileScreen).
export function ProfileView({ username }: { username: string }) {
  const session = useSession()
  const viewerId = useSelector(session, (s) => selectSessionUser(s)?.id ?? '')
  const posts = usePosts()
  return (
    <ScreenActor logic={profileMachine} input={{ username, viewerId, session, posts }}>
      {(profile) => <Profile profile={profile} username={username} />}
    </ScreenActor>
  )
}

function Profile({ profile, username }: { profile: ActorRefFrom<typeof profileMachine>; username: string }) {
  const loading = useSelector(profile, selectIsLoading)
  const notFound = useSelector(profile, selectIsNotFound)
  const error = useSelector(profile, selectLoadError)
  const user = useSelector(profile, selectUser)
  const restricted = useSelector(profile, selectIsRestricted)

  const name = user ? shownName(user) : 'Profile'
  const subtitle = user ? `${formatCount(user.stats.posts)} ${user.stats.posts === 1 ? 'post' : 'posts'}` : `@${username}`

  return (
    <>
      <PageHeader title={notFound ? 'Profile' : name} subtitle={subtitle} />
      {loading ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '24', color: 'accent' })}>
          <Spinner size={28} label="Loading profile" />
        </div>
      ) : notFound ? (
        <UserNotFound username={username} />
      ) : error ? (
        <LoadError message={error} onRetry={() => profile.send({ type: 'profile.retry' })} />
      ) : user ? (
        <>
          <ProfileHeader actor={profile} user={user} />
          {restricted ? <PrivateNotice /> : <ProfileTabs actor={profile} username={user.username} />}
        </>
      ) : null}
    </>
  )
}

function PrivateNotice() {
  return (
    <div data-testid="private-profile" className={css({ textAlign: 'center', px: '6', py: '14' })}>
      <p className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{PRIVATE_PROFILE_NOTICE.title}</p>
      <p className={css({ color: 'fg.muted', mt: '1' })}>{PRIVATE_PROFILE_NOTICE.hint}</p>
    </div>
  )
}
