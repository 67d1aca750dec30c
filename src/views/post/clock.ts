import { useSyncExternalStore } from 'react'

// One shared minute clock for every relative time on screen ('3 minutes ago' keeps up without a timer per card).
const MINUTE = 60_000
const listeners = new Set<() => void>()
let now = Date.now()
let timer: ReturnType<typeof setInterval> | undefined

function subscribe(listener: () => void) {
  listeners.add(listener)
  if (timer === undefined) {
    now = Date.now()
    timer = setInterval(() => {
      now = Date.now()
      for (const l of listeners) l()
    }, MINUTE)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer)
      timer = undefined
    }
  }
}

/** The current time, updated every minute while something shows it. */
export function useMinuteClock(): number {
  return useSyncExternalStore(subscribe, () => now)
}
