import { PAGE_BODY_REQUIRED, PAGE_BODY_TOO_LONG } from '../../../src/api/contract/instance-pages'
import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import type { FieldMessages } from '../../http/validation-messages'

/** The product's words for what the yaml refuses before the service sees it (docs/product.md, "Instance pages"). */
export const pageMessages: Record<string, FieldMessages> = {
  saveInstancePage: { body: { minLength: PAGE_BODY_REQUIRED, pattern: PAGE_BODY_REQUIRED, maxLength: PAGE_BODY_TOO_LONG } },
}

export const pageHandlers = {
  async getInstancePage(request) {
    const body = await request.server.services.pages.page(request.params.slug)
    return { status: 200, body }
  },

  async saveInstancePage(request) {
    const body = await request.server.services.pages.save(requireAuth(request).user, request.params.slug, request.body.body)
    return { status: 200, body }
  },
} satisfies Handlers
