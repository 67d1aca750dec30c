import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import type { FieldMessages } from '../../http/validation-messages'
import { pageRequest } from '../../lib/cursor'
import { DESCRIPTION_TOO_LONG, NAME_REQUIRED, NAME_TOO_LONG } from './service'

/** The product's words for what the yaml refuses before the service sees it (docs/product.md, "Bookmarks"). */
const collectionFields: FieldMessages = {
  name: { minLength: NAME_REQUIRED, pattern: NAME_REQUIRED, maxLength: NAME_TOO_LONG },
  description: { maxLength: DESCRIPTION_TOO_LONG },
}

export const bookmarkMessages: Record<string, FieldMessages> = {
  createCollection: collectionFields,
  updateCollection: collectionFields,
}

export const bookmarkHandlers = {
  async createBookmark(request) {
    const bookmark = await request.server.services.bookmarks.create(requireAuth(request).user, request.body.postId)
    return { status: 201, body: { bookmark } }
  },

  async getBookmarks(request) {
    const { collectionId, ...query } = request.query
    const body = await request.server.services.bookmarks.list(requireAuth(request).user, collectionId, pageRequest(query))
    return { status: 200, body }
  },

  async deleteBookmark(request) {
    await request.server.services.bookmarks.remove(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  async deletePostBookmark(request) {
    await request.server.services.bookmarks.removeByPost(requireAuth(request).user, request.params.postId)
    return { status: 204 }
  },

  async createCollection(request) {
    const collection = await request.server.services.bookmarks.createCollection(requireAuth(request).user, request.body)
    return { status: 201, body: { collection } }
  },

  async getCollections(request) {
    const body = await request.server.services.bookmarks.collections(requireAuth(request).user, pageRequest(request.query))
    return { status: 200, body }
  },

  async updateCollection(request) {
    const { user } = requireAuth(request)
    const collection = await request.server.services.bookmarks.updateCollection(user, request.params.id, request.body)
    return { status: 200, body: { collection } }
  },

  async addCollectionPost(request) {
    const { user } = requireAuth(request)
    const collection = await request.server.services.bookmarks.addToCollection(user, request.params.id, request.body.postId)
    return { status: 201, body: { collection } }
  },

  async removeCollectionPost(request) {
    const { user } = requireAuth(request)
    const { id, postId } = request.params
    const collection = await request.server.services.bookmarks.removeFromCollection(user, id, postId)
    return { status: 200, body: { collection } }
  },
} satisfies Handlers
