import { useEffect, useState } from 'react'
import { afterFirstScreen } from '../../machines/lib/first-screen'

/**
 * False until the first screen is up (src/machines/lib/first-screen.ts), then true. A part of the page whose code is
 * a chunk of its own renders only then: rendered in the first render, it would suspend it, and React holds the whole
 * first commit (the feed included) until that chunk has come over a slow network.
 */
export function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    let live = true
    afterFirstScreen(() => {
      if (live) setReady(true)
    })
    return () => {
      live = false
    }
  }, [])
  return ready
}
