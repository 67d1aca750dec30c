import { lazy, Suspense } from 'react'
import { useSelector } from '@xstate/react'
import { useSession } from '../actors'

// The reminder to confirm the email address (./EmailReminder.tsx), with the email actor it runs, is a chunk of its
// own: most members have confirmed, and their first load does without it.
const EmailReminder = lazy(() => import('./EmailReminder').then((m) => ({ default: m.EmailReminder })))

export function EmailBanner() {
  // Absent (an older stored session) counts as confirmed until /auth/me says otherwise.
  const unconfirmed = useSelector(useSession(), (s) => s.context.user?.emailVerified === false)
  if (!unconfirmed) return null
  return (
    <Suspense fallback={null}>
      <EmailReminder />
    </Suspense>
  )
}
