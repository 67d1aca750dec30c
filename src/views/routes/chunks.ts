import { readFlag, TOUR_COMPLETED_KEY } from '../../machines/lib/local-flags'
import { chunk } from '../lazy-chunk'

// The two route sets load as separate chunks: a visitor on /login never downloads the shell, a returning member
// never downloads the sign-up form. src/main.tsx starts the right download at boot, while the session checks; once it
// is in, the gate renders its routes without suspending (../lazy-chunk.ts), so the first screen is not held back.

/**
 * The welcome tour's card, a chunk Home renders while the tour is open. A member who has not finished the tour in this
 * browser (a new member, above all) gets it together with the signed-in screens, so Home does not shift down when it
 * comes; everyone else never fetches it unless they ask for Help.
 */
export const welcomeTour = chunk(() => import('../home/WelcomeTour'))

const signedIn = chunk(() => {
  const routes = import('./SignedInRoutes')
  if (readFlag(TOUR_COMPLETED_KEY)) return routes
  // A tour that does not load is asked for again by Home; the screens do not wait on it.
  return Promise.all([routes, welcomeTour.load().catch(() => undefined)]).then(([module]) => module)
})
const signedOut = chunk(() => import('./SignedOutRoutes'))

export const SignedInRoutes = signedIn.lazy((m) => m.SignedInRoutes)
export const SignedOutRoutes = signedOut.lazy((m) => m.SignedOutRoutes)
const loadSignedIn = signedIn.load
const loadSignedOut = signedOut.load

/** How long a returning member's page waits before it fetches the signed-out screens (their Home loads first). */
const SIGNED_OUT_PRELOAD_DELAY_MS = 5_000

/**
 * Starts fetching the chunk the member will most likely see first, and the other one once the page is idle (so
 * logging in or out does not wait on the network). A returning member's first screen (Home) needs its feed too: the
 * signed-out chunk (with the form library) waits a few seconds more, so it never competes with the first load.
 */
export function preloadRoutes(hasStoredToken: boolean): void {
  const [first, second] = hasStoredToken ? [loadSignedIn, loadSignedOut] : [loadSignedOut, loadSignedIn]
  void first().then(() => {
    const later = () => void second()
    const whenIdle = () => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(later, { timeout: 4_000 })
      else setTimeout(later, 2_000)
    }
    if (hasStoredToken) setTimeout(whenIdle, SIGNED_OUT_PRELOAD_DELAY_MS)
    else whenIdle()
  })
}
