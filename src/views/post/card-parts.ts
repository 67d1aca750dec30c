import { lazy, type ComponentType } from 'react'
import { afterFirstScreen } from '../../machines/lib/first-screen'

// The parts of a post card that most posts do not have (a poll, a quoted post) or that open on a click (the edit
// history, the delete confirmation) are one chunk of their own: a first load of a feed without them does without their
// code. A list fetches it once the first screen is up (`preloadCardParts`), so it is usually there before a card needs
// it; a card that needs it earlier shows the rest of the post and the part when it arrives (the windowed list measures
// the row again).

type Parts = typeof import('./card-parts.chunk')

let loading: Promise<Parts> | null = null
let loaded: Parts | null = null

function load(): Promise<Parts> {
  loading ??= import('./card-parts.chunk').then(
    (parts) => (loaded = parts),
    (error: unknown) => {
      // A failed prefetch (offline) does not stick: the first card that needs a part fetches the chunk again.
      loading = null
      throw error
    },
  )
  return loading
}

/**
 * A lazy component over one of the parts. Once the chunk is here, its first render does not suspend: React.lazy reads
 * a thenable that has already settled (`then` calls back at once) as resolved, so no card shows an empty part for a
 * frame.
 */
function part<P extends object>(pick: (parts: Parts) => ComponentType<P>) {
  return lazy<ComponentType<P>>(() => {
    const ready = loaded
    if (ready) {
      const settled = { then: (resolve: (module: { default: ComponentType<P> }) => void) => resolve({ default: pick(ready) }) }
      return settled as unknown as Promise<{ default: ComponentType<P> }>
    }
    return load().then((parts) => ({ default: pick(parts) }))
  })
}

export const PostPoll = part((parts) => parts.PostPoll)
export const QuotedCard = part((parts) => parts.QuotedCard)
export const PostHistory = part((parts) => parts.PostHistory)
export const DeletePostDialog = part((parts) => parts.DeletePostDialog)

/** Fetches the parts once the first screen is up (lib/first-screen.ts), if no card has asked for them yet. */
export function preloadCardParts(): void {
  afterFirstScreen(() => void load().catch(() => undefined))
}
