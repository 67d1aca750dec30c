import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import type { FieldMessages } from '../../http/validation-messages'
import { pageRequest } from '../../lib/cursor'
import { keywordMessages } from '../../lib/filter-terms'

/** The product's words for what the yaml refuses before the service sees it (docs/product.md, "Blocks"). */
export const blockMessages: Record<string, FieldMessages> = { blockKeyword: keywordMessages }

export const blockHandlers = {
  async getBlocks(request) {
    const body = await request.server.services.blocks.list(requireAuth(request).user, pageRequest(request.query))
    return { status: 200, body }
  },

  async blockUser(request) {
    const block = await request.server.services.blocks.blockUser(requireAuth(request).user, request.params.userId)
    return { status: 201, body: { block } }
  },

  async unblockUser(request) {
    await request.server.services.blocks.unblockUser(requireAuth(request).user, request.params.userId)
    return { status: 204 }
  },

  async blockKeyword(request) {
    const keyword = await request.server.services.blocks.blockKeyword(requireAuth(request).user, request.body.keyword)
    return { status: 201, body: { keyword } }
  },

  async unblockKeyword(request) {
    await request.server.services.blocks.unblockKeyword(requireAuth(request).user, request.params.keyword)
    return { status: 204 }
  },

  async blockDomain(request) {
    const domain = await request.server.services.blocks.blockDomain(requireAuth(request).user, request.body.domain)
    return { status: 201, body: { domain } }
  },

  async unblockDomain(request) {
    await request.server.services.blocks.unblockDomain(requireAuth(request).user, request.params.domain)
    return { status: 204 }
  },
} satisfies Handlers
