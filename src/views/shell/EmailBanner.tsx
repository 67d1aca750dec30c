import { lazy, Suspense } from 'react'
import { useSelector } from '@xstate/react'
import { useSession } from '../actors'
import { useAfterFirstScreen } from '../ui/useAfterFirstScreen'

// The reminder to confirm the email address (./EmailReminder.tsx), with the email actor it runs, is a chunk of its
// own: most members have confirmed, and their first load does without it. It waits for the first screen: the feed
// comes first, and a first render that suspended on this chunk would hold the feed's first paint until it came.
const EmailReminder = lazy(() => import('./EmailReminder').then((m) => ({ default: m.EmailReminder })))

export function EmailBanner() {
  // Absent (an older stored session) counts as confirmed until /auth/me says otherwise.
  const unconfirmed = useSelector(useSession(), (s) => s.context.user?.emailVerified === false)
  const firstScreenUp = useAfterFirstScreen()
  if (!unconfirmed || !firstScreenUp) return null
  return (
    <Suspense fallback={null}>
      <EmailReminder />
    </Suspense>
  )
}
