import { useSyncExternalStore } from 'react'

/**
 * Whether the media query matches now, following its changes. For parts that should not even run where they cannot
 * be seen (a column that only wide screens show would otherwise load its data on a phone too).
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    () => window.matchMedia(query).matches,
    () => false,
  )
}

/** Panda's `xl` breakpoint (80em): where the shell shows its right column. */
export const WIDE_SCREEN = '(min-width: 80em)'
