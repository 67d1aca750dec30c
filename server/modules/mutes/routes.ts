import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import type { FieldMessages } from '../../http/validation-messages'
import { keywordMessages } from '../../lib/filter-terms'
import { pageRequest } from '../../lib/cursor'
import { REASON_TOO_LONG } from './service'

/** The product's words for what the yaml refuses before the service sees it (docs/product.md, "Mutes"). */
export const muteMessages: Record<string, FieldMessages> = {
  muteUser: { reason: { maxLength: REASON_TOO_LONG } },
  muteKeyword: keywordMessages,
}

export const muteHandlers = {
  async getMutes(request) {
    const body = await request.server.services.mutes.list(requireAuth(request).user, pageRequest(request.query))
    return { status: 200, body }
  },

  async muteUser(request) {
    const { userId, reason } = request.body
    const mute = await request.server.services.mutes.muteUser(requireAuth(request).user, userId, reason)
    return { status: 201, body: { mute } }
  },

  async unmuteUser(request) {
    await request.server.services.mutes.unmuteUser(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  async muteKeyword(request) {
    const mute = await request.server.services.mutes.muteKeyword(requireAuth(request).user, request.body.keyword)
    return { status: 201, body: { mute } }
  },

  async unmuteKeyword(request) {
    await request.server.services.mutes.unmuteKeyword(requireAuth(request).user, request.params.keyword)
    return { status: 204 }
  },

  async muteDomain(request) {
    const mute = await request.server.services.mutes.muteDomain(requireAuth(request).user, request.body.domain)
    return { status: 201, body: { mute } }
  },

  async unmuteDomain(request) {
    await request.server.services.mutes.unmuteDomain(requireAuth(request).user, request.params.domain)
    return { status: 204 }
  },
} satisfies Handlers
