import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'
import type { Post, Visibility } from './posts.calls'

// Drafts and scheduled posts (openapi.yaml tag `drafts`): one row type, a scheduled post being a draft with a time.

type Schemas = components['schemas']

export type SavedDraft = Schemas['Draft']
export type DraftsPage = Schemas['DraftsPage']
export type DraftKind = 'drafts' | 'scheduled'

/** What the composer saves: createPost's fields (no replies) and, for a scheduled post, its time. */
export interface NewDraft {
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitiveReason: string
  media: ReadonlyArray<{ file: File; alt: string }>
  scheduledAt: string | null
}

/** Changes to a saved draft: `media` lists the saved files to keep, with their alt texts. */
export type DraftChanges = Schemas['UpdateDraftRequest']

/** The multipart form of createDraft, in createPost's shape (src/api/posts.calls.ts, toFormData). */
export function draftFormData(draft: NewDraft): FormData {
  const form = new FormData()
  if (draft.content !== '') form.append('content', draft.content)
  form.append('visibility', draft.visibility)
  form.append('sensitive', draft.sensitive ? 'true' : 'false')
  if (draft.sensitive && draft.sensitiveReason.trim() !== '') form.append('sensitiveReason', draft.sensitiveReason.trim())
  if (draft.scheduledAt) form.append('scheduledAt', draft.scheduledAt)
  for (const { file } of draft.media) form.append('media', file, file.name)
  for (const { alt } of draft.media) form.append('alt', alt.trim())
  return form
}

export function makeDraftCalls(client: ApiClient) {
  return {
    createDraft: (draft: NewDraft): Effect.Effect<SavedDraft, ApiError> =>
      mutation<Schemas['DraftResponse']>((signal) =>
        client.POST('/drafts', {
          body: { visibility: draft.visibility, sensitive: draft.sensitive ? 'true' : 'false', media: draft.media.map(({ file }) => file.name) },
          bodySerializer: () => draftFormData(draft),
          signal,
        }),
      ).pipe(Effect.map((body) => body.draft)),

    getDrafts: (kind: DraftKind, cursor: string | null): Effect.Effect<DraftsPage, ApiError> =>
      query<DraftsPage>((signal) => client.GET('/drafts', { params: { query: { kind, ...(cursor ? { cursor } : {}) } }, signal })),

    updateDraft: (id: string, changes: DraftChanges): Effect.Effect<SavedDraft, ApiError> =>
      mutation<Schemas['DraftResponse']>((signal) => client.PATCH('/drafts/{id}', { params: { path: { id } }, body: changes, signal })).pipe(
        Effect.map((body) => body.draft),
      ),

    deleteDraft: (id: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/drafts/{id}', { params: { path: { id } }, signal })).pipe(Effect.asVoid),

    publishDraft: (id: string): Effect.Effect<Post, ApiError> =>
      mutation<Schemas['PostResponse']>((signal) => client.POST('/drafts/{id}/publish', { params: { path: { id } }, signal })).pipe(
        Effect.map((body) => body.post),
      ),
  }
}

export type DraftCalls = ReturnType<typeof makeDraftCalls>

export const draftCalls: DraftCalls = makeDraftCalls(api)
