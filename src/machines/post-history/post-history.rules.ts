import type { PostVersion, Visibility } from '../../api/posts.calls'
import { MORE_FAILED } from '../lib/paging'

// What the History dialog says (docs/product.md, "Editing a post").

export const HISTORY_MESSAGES = {
  title: 'Edit history',
  failed: 'Could not load the history of this post.',
  moreFailed: MORE_FAILED,
  current: 'Current',
  original: 'Original',
} as const

const AUDIENCE_WORDS: Record<Visibility, string> = {
  public: 'Everyone',
  followers: 'Followers only',
  mentioned: 'Mentioned people only',
}

/** Who could see a version, in words. */
export const audienceWords = (visibility: Visibility) => AUDIENCE_WORDS[visibility]

/**
 * A version's label: the newest is the post as it reads now, the oldest (when the whole list is loaded) the original.
 */
export function versionLabel(index: number, total: number, complete: boolean): string | null {
  if (index === 0) return HISTORY_MESSAGES.current
  if (complete && index === total - 1) return HISTORY_MESSAGES.original
  return null
}

/** The alt texts a version gave its media, numbered, leaving out files without one. */
export function altLines(version: PostVersion): string[] {
  return version.alts.flatMap((alt, i) => (alt ? [`Media ${i + 1}: ${alt}`] : []))
}
