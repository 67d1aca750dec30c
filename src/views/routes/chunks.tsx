import { lazy, useState, type ComponentType } from 'react'

// The two route sets load as separate chunks: a visitor on /login never downloads the shell, a returning member
// never downloads the sign-up form. src/main.tsx starts the right download at boot, while the session checks.

/**
 * A component from a chunk, and the function that loads it. Rendered once the chunk is in, it is the loaded component
 * itself: a lazy component suspends on its first render even when its code is there already, and a Suspense boundary
 * whose fallback has just shown holds the content that follows for up to 300 ms (React throttles reveals), which is
 * the first screen's time. Rendered earlier, it is lazy. Which of the two is chosen once per mount, so a re-render
 * never swaps one for the other (that would remount every screen below).
 */
function chunkComponent(load: () => Promise<ComponentType>): { Component: ComponentType; load: () => Promise<ComponentType> } {
  let loaded: ComponentType | undefined
  const keep = () =>
    load().then((component) => {
      loaded = component
      return component
    })
  const Lazy = lazy(() => keep().then((component) => ({ default: component })))
  function Component() {
    const [Chosen] = useState<ComponentType>(() => loaded ?? Lazy)
    return <Chosen />
  }
  return { Component, load: keep }
}

const signedIn = chunkComponent(() => import('./SignedInRoutes').then((m) => m.SignedInRoutes))
const signedOut = chunkComponent(() => import('./SignedOutRoutes').then((m) => m.SignedOutRoutes))

export const SignedInRoutes = signedIn.Component
export const SignedOutRoutes = signedOut.Component
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
