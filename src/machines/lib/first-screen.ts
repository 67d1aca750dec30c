// "The first screen is up": code that the first screen does not need (the socket library, see
// realtime.actor.ts; the Create Post dialog) waits for it, so it never competes with the first load on a slow
// network. The first screen says so with
// `firstScreenShown()` (Home: once the feed has answered, whatever it showed); a screen that never does (any other
// route opened first) lets the waiting work start after FALLBACK_MS anyway. Each callback then runs when the browser is
// idle.

const FALLBACK_MS = 3_000

let shown = false
const waiting: Array<() => void> = []

function runWhenIdle(callback: () => void): void {
  const idle = globalThis.requestIdleCallback
  if (idle) idle(() => callback(), { timeout: 2_000 })
  else setTimeout(callback, 200)
}

function release(): void {
  if (shown) return
  shown = true
  for (const callback of waiting.splice(0)) runWhenIdle(callback)
}

/** Runs `callback` once the first screen is up (or FALLBACK_MS after the first call), when the browser is idle. */
export function afterFirstScreen(callback: () => void): void {
  if (shown) {
    runWhenIdle(callback)
    return
  }
  if (waiting.length === 0) setTimeout(release, FALLBACK_MS)
  waiting.push(callback)
}

export function firstScreenShown(): void {
  release()
}
