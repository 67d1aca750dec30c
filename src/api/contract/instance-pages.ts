// The instance pages' rules, shared by the server (which enforces them) and the admin editor (which says so before
// saving). docs/product.md, "Instance pages". openapi.yaml's SaveInstancePageRequest says the same.

import type { components } from './schema'

export type InstancePageSlug = components['schemas']['InstancePageSlug']

/** In the editor's tab order. */
export const INSTANCE_PAGE_SLUGS: readonly InstancePageSlug[] = ['terms', 'privacy']

/** Characters as JSON Schema counts them (code points, so an emoji is one), like `characters` below. */
export const PAGE_BODY_MAX = 50_000

export const PAGE_BODY_REQUIRED = 'Write the page text before saving'
export const PAGE_BODY_TOO_LONG = `The page text must be at most ${PAGE_BODY_MAX.toLocaleString('en-US')} characters`

/** Code points, the unit of the contract's maxLength (a string's `.length` counts UTF-16 units). */
export function characters(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

/** What is wrong with a page text, in the product's words; null when it may be saved. */
export function pageBodyProblem(body: string): string | null {
  if (body.trim() === '') return PAGE_BODY_REQUIRED
  if (characters(body) > PAGE_BODY_MAX) return PAGE_BODY_TOO_LONG
  return null
}
