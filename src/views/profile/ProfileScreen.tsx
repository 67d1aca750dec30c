import { ProfileView } from './ProfileView'

export function ProfileScreen({ username }: { username: string }) {
  // A new profile actor for each member: moving from one profile to another keeps this route (and component) mounted.
  return <ProfileView key={username} username={username} />
}
