import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { type UploadPolicy, uploadedFiles } from '../../http/uploads'
import { pageRequest } from '../../lib/cursor'
import { postMediaPolicy } from '../posts/routes'

/** createDraft's multipart form takes the files createPost takes, with the same words. */
export const draftUploadPolicies: Record<string, UploadPolicy> = {
  createDraft: postMediaPolicy,
}

export const draftHandlers = {
  async createDraft(request) {
    const { media: _placeholders, ...fields } = request.body
    const draft = await request.server.services.drafts.create(requireAuth(request).user, fields, uploadedFiles(request))
    return { status: 201, body: { draft } }
  },

  async getDrafts(request) {
    const { kind, ...paging } = request.query
    const body = await request.server.services.drafts.list(requireAuth(request).user, kind ?? 'drafts', pageRequest(paging))
    return { status: 200, body }
  },

  async getDraft(request) {
    const draft = await request.server.services.drafts.get(requireAuth(request).user, request.params.id)
    return { status: 200, body: { draft } }
  },

  async updateDraft(request) {
    const draft = await request.server.services.drafts.update(requireAuth(request).user, request.params.id, request.body)
    return { status: 200, body: { draft } }
  },

  async deleteDraft(request) {
    await request.server.services.drafts.delete(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  async publishDraft(request) {
    const post = await request.server.services.drafts.publish(requireAuth(request).user, request.params.id)
    return { status: 201, body: { post } }
  },
} satisfies Handlers
