import { ComingSoon } from '../ui/ComingSoon'
import { PageHeader } from '../ui/PageHeader'

export function ProfileScreen({ username }: { username: string }) {
  return (
    <>
      <PageHeader title="Profile" subtitle={`@${username}`} />
      <ComingSoon icon="user" title="Profiles are coming soon">
        Banners, bios, posts, replies and media for @{username} will live here.
      </ComingSoon>
    </>
  )
}
