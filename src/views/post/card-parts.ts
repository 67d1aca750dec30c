import { chunk } from '../lazy-chunk'

// The parts of a post card that most posts do not have (a poll, a quoted post) or that open on a click (the edit
// history, the delete confirmation) are one chunk of their own: a first load of a feed without them does without their
// code. A list fetches it once the first screen is up (`preloadCardParts`), so it is usually there before a card needs
// it (and then renders at once, ../lazy-chunk.ts); a card that needs it earlier shows the rest of the post and the part
// when it arrives (the windowed list measures the row again).

const parts = chunk(() => import('./card-parts.chunk'))

export const PostPoll = parts.lazy((p) => p.PostPoll)
export const QuotedCard = parts.lazy((p) => p.QuotedCard)
export const PostHistory = parts.lazy((p) => p.PostHistory)
export const DeletePostDialog = parts.lazy((p) => p.DeletePostDialog)

/** Fetches the parts once the first screen is up (lib/first-screen.ts), if no card has asked for them yet. */
export function preloadCardParts(): void {
  parts.loadAfterFirstScreen()
}
