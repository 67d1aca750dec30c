import type { components } from './schema'

// The rules of editing a post that both sides apply: the SPA's composer disables what an edit may not do, and the
// server refuses it with these words (docs/product.md, "Editing a post").

type Visibility = components['schemas']['Visibility']

/** Audiences from the widest to the narrowest: an edit may move a post only rightwards. */
export const AUDIENCE_ORDER: readonly Visibility[] = ['public', 'followers', 'mentioned']

/** True when `next` is `current` or narrower. */
export function narrowsAudience(current: Visibility, next: Visibility): boolean {
  return AUDIENCE_ORDER.indexOf(next) >= AUDIENCE_ORDER.indexOf(current)
}

export const POST_EDIT_RULES = {
  WIDER_AUDIENCE: 'An edit can only narrow who can see a post',
  ALT_WITHOUT_MEDIA: 'Each alt text must describe an attached media file',
  /** Why the composer greys out a wider audience while editing. */
  WIDER_AUDIENCE_HINT: 'Only a narrower audience can be chosen for a post already shared',
} as const
