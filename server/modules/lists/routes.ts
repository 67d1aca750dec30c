import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import type { FieldMessages } from '../../http/validation-messages'
import { pageRequest } from '../../lib/cursor'
import { DESCRIPTION_TOO_LONG, NAME_REQUIRED, NAME_TOO_LONG } from './service'

/** The product's words for what the yaml refuses before the service sees it (docs/product.md, "Lists"). */
const listFields: FieldMessages = {
  name: { minLength: NAME_REQUIRED, pattern: NAME_REQUIRED, maxLength: NAME_TOO_LONG },
  description: { maxLength: DESCRIPTION_TOO_LONG },
}

export const listMessages: Record<string, FieldMessages> = {
  createList: listFields,
  updateList: listFields,
}

export const listHandlers = {
  async createList(request) {
    const list = await request.server.services.lists.create(requireAuth(request).user, request.body)
    return { status: 201, body: { list } }
  },

  async getLists(request) {
    const { scope, member, ...paging } = request.query
    const body = await request.server.services.lists.lists(requireAuth(request).user, scope ?? 'all', member, pageRequest(paging))
    return { status: 200, body }
  },

  async getList(request) {
    const { user } = requireAuth(request)
    const body = await request.server.services.lists.detail(user, request.params.id, pageRequest(request.query))
    return { status: 200, body }
  },

  async updateList(request) {
    const list = await request.server.services.lists.update(requireAuth(request).user, request.params.id, request.body)
    return { status: 200, body: { list } }
  },

  async deleteList(request) {
    await request.server.services.lists.delete(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  async addListMember(request) {
    const { user } = requireAuth(request)
    const list = await request.server.services.lists.addMember(user, request.params.id, request.body.userId)
    return { status: 201, body: { list } }
  },

  async removeListMember(request) {
    const { user } = requireAuth(request)
    const list = await request.server.services.lists.removeMember(user, request.params.id, request.params.userId)
    return { status: 200, body: { list } }
  },

  async subscribeList(request) {
    const body = await request.server.services.lists.subscribe(requireAuth(request).user, request.params.id, true)
    return { status: 200, body }
  },

  async unsubscribeList(request) {
    const body = await request.server.services.lists.subscribe(requireAuth(request).user, request.params.id, false)
    return { status: 200, body }
  },

  async getListPosts(request) {
    const page = await request.server.services.lists.timeline(requireAuth(request).user, request.params.id, pageRequest(request.query))
    return { status: 200, body: { posts: page.items, nextCursor: page.nextCursor } }
  },
} satisfies Handlers
