import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { card } from 'styled-system/recipes'
import { selectIsAdmin, selectUser } from '../../machines/session/session.selectors'
import { useSession } from '../actors'
import { Avatar } from '../ui/Avatar'
import { ComingSoon } from '../ui/ComingSoon'
import { Icon } from '../ui/Icon'
import { PageHeader } from '../ui/PageHeader'

export function AdminScreen() {
  const session = useSession()
  const isAdmin = useSelector(session, selectIsAdmin)
  const user = useSelector(session, selectUser)

  if (!isAdmin) {
    return (
      <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '3', px: '6', py: '24' })}>
        <span className={css({ display: 'grid', placeItems: 'center', w: '16', h: '16', borderRadius: '2xl', bg: 'danger.subtle', color: 'danger.text' })}>
          <Icon name="lock" size={30} />
        </span>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Access Denied</h1>
        <p className={css({ color: 'fg.muted' })}>You need admin privileges to access this page.</p>
      </div>
    )
  }

  return (
    <>
      <PageHeader title="Admin Panel" subtitle="Manage users and system statistics" />
      {user ? (
        <div className={css({ p: '4' })}>
          <div className={card({ padding: 'md' })}>
            <p className={css({ fontSize: 'xs', fontWeight: 'semibold', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted', mb: '3' })}>
              Signed in as administrator
            </p>
            <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
              <Avatar src={user.avatar} name={user.displayName || user.username} size={44} />
              <div>
                <p className={css({ fontWeight: 'bold' })}>{user.displayName}</p>
                <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>@{user.username}</p>
              </div>
            </div>
          </div>
        </div>
      ) : null}
      <ComingSoon icon="shield" title="Admin tools are coming soon">
        Stats management, promoting and demoting members, and encryption key migration will live here.
      </ComingSoon>
    </>
  )
}
