import { LIMITS } from '../../../src/api/contract/limits'
import { POLL_MESSAGES } from '../../../src/api/contract/polls'
import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { type UploadPolicy, uploadedFiles } from '../../http/uploads'
import { pageRequest } from '../../lib/cursor'

/** createPost's multipart form: up to LIMITS.postMedia images or videos in `media` (server/http/uploads.ts). */
export const postMediaPolicy: UploadPolicy = {
  fileField: 'media',
  maxFiles: LIMITS.postMedia,
  tooManyFiles: `Maximum ${LIMITS.postMedia} media files allowed`,
  kinds: ['image', 'video'],
  unsupported: 'Unsupported file type: images must be JPEG, PNG, WebP or GIF and videos MP4 or WebM',
  // The product's own wording (docs/product.md, "Writing a post", "Media").
  messages: {
    visibility: { enum: 'Please select a valid visibility option' },
    media: { maxItems: `Maximum ${LIMITS.postMedia} media files allowed` },
    pollOptions: { maxItems: POLL_MESSAGES.tooManyOptions, maxLength: POLL_MESSAGES.optionTooLong },
    pollDuration: { maxLength: POLL_MESSAGES.duration },
    pollMultiple: { enum: "pollMultiple must be 'true' or 'false'" },
  },
}

export const postUploadPolicies: Record<string, UploadPolicy> = { createPost: postMediaPolicy }

export const postHandlers = {
  async createPost(request) {
    const author = requireAuth(request).user
    const { media: _placeholders, ...fields } = request.body
    const post = await request.server.services.posts.create(author, fields, uploadedFiles(request))
    return { status: 201, body: { post } }
  },

  async getFeed(request) {
    const viewer = requireAuth(request).user
    const page = await request.server.services.posts.feed(viewer, pageRequest(request.query))
    return { status: 200, body: { posts: page.items, nextCursor: page.nextCursor } }
  },

  async getExplore(request) {
    const viewer = requireAuth(request).user
    const page = await request.server.services.posts.explore(viewer, pageRequest(request.query))
    return { status: 200, body: { posts: page.items, nextCursor: page.nextCursor } }
  },

  async searchPosts(request) {
    const { q, ...paging } = request.query
    const page = await request.server.services.posts.search(requireAuth(request).user, q, pageRequest(paging))
    return { status: 200, body: { posts: page.items, nextCursor: page.nextCursor } }
  },

  async getPost(request) {
    const viewer = requireAuth(request).user
    const detail = await request.server.services.posts.detail(viewer, request.params.id, pageRequest(request.query))
    return { status: 200, body: { post: detail.post, replies: detail.items, nextCursor: detail.nextCursor } }
  },

  async getQuotes(request) {
    const viewer = requireAuth(request).user
    const page = await request.server.services.posts.quotes(viewer, request.params.id, pageRequest(request.query))
    return { status: 200, body: { posts: page.items, nextCursor: page.nextCursor } }
  },

  async detachQuote(request) {
    await request.server.services.posts.detach(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  async deletePost(request) {
    await request.server.services.posts.delete(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  async updatePost(request) {
    const post = await request.server.services.posts.edit(requireAuth(request).user, request.params.id, request.body)
    return { status: 200, body: { post } }
  },

  async getPostHistory(request) {
    const viewer = requireAuth(request).user
    const page = await request.server.services.posts.history(viewer, request.params.id, pageRequest(request.query))
    return { status: 200, body: page }
  },

  async toggleLike(request) {
    const result = await request.server.services.posts.toggle(requireAuth(request).user, request.params.id, 'likes')
    return { status: 200, body: { liked: result.active, likeCount: result.count } }
  },

  async toggleRepost(request) {
    const result = await request.server.services.posts.toggle(requireAuth(request).user, request.params.id, 'reposts')
    return { status: 200, body: { reposted: result.active, repostCount: result.count } }
  },
} satisfies Handlers
