import { Readable } from 'node:stream'
import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import type { RateLimit } from '../../config'
import { pageRequest } from '../../lib/cursor'
import { HttpError } from '../../http/errors'
import { ATTACHMENT_BLOB_OVERHEAD } from '../../../src/api/contract/encryption'

const MB = 1024 * 1024
export const LENGTH_REQUIRED = 'Send the attachment with a Content-Length'

// Per member (server/lib/rate-limiter.ts): edits share the sending budget, an edit being a new ciphertext relayed to
// the other member as a message is.
const messageCharge = (userId: string, limit: RateLimit) => ({ key: `messages:send:${userId}`, limit, what: 'messages' })

export const messageHandlers = {
  async getConversations(request) {
    const { archived = false, ...paging } = request.query
    const body = await request.server.services.messages.list(requireAuth(request).user, archived, pageRequest(paging))
    return { status: 200, body }
  },

  async createConversation(request) {
    const viewer = requireAuth(request).user
    const { rateLimits, config, messages } = request.server.services
    // Only a new conversation counts (checked under the members' locks); reopening an existing one always works.
    const admitNew = () =>
      rateLimits.take({ key: `messages:start:${viewer.id}`, limit: config.conversationLimitPerMember, what: 'new conversations' })
    const { conversation, created } = await messages.start(viewer, request.body.recipientId, admitNew)
    return created ? { status: 201, body: { conversation } } : { status: 200, body: { conversation } }
  },

  async getConversation(request) {
    const conversation = await request.server.services.messages.one(requireAuth(request).user, request.params.id)
    return { status: 200, body: { conversation } }
  },

  async deleteConversation(request) {
    await request.server.services.messages.deleteForMe(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  async getMessages(request) {
    const viewer = requireAuth(request).user
    const body = await request.server.services.messages.history(viewer, request.params.id, pageRequest(request.query))
    return { status: 200, body }
  },

  async sendMessage(request) {
    const viewer = requireAuth(request).user
    const { rateLimits, config, messages } = request.server.services
    await rateLimits.take(messageCharge(viewer.id, config.messageLimitPerMember))
    const message = await messages.send(viewer, request.params.id, request.body.content, request.body.attachmentIds)
    return { status: 201, body: { message } }
  },

  async markConversationRead(request) {
    await request.server.services.messages.markRead(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  async archiveConversation(request) {
    const viewer = requireAuth(request).user
    // The body is optional (no body archives); the handler types only model required bodies.
    const body = request.body as { archived?: boolean } | undefined
    const wanted = body?.archived ?? true
    const archived = await request.server.services.messages.setArchived(viewer, request.params.id, wanted)
    return { status: 200, body: { archived } }
  },

  async muteConversation(request) {
    const viewer = requireAuth(request).user
    const muted = await request.server.services.messages.setMuted(viewer, request.params.id, request.body.muted)
    return { status: 200, body: { muted } }
  },

  async editMessage(request) {
    const viewer = requireAuth(request).user
    const { rateLimits, config, messages } = request.server.services
    await rateLimits.take(messageCharge(viewer.id, config.messageLimitPerMember))
    const message = await messages.edit(viewer, request.params.id, request.body.content, request.body.attachmentIds)
    return { status: 200, body: { message } }
  },

  async uploadMessageAttachment(request) {
    const viewer = requireAuth(request).user
    const { config, messageAttachments } = request.server.services
    // The parser hands the body over unread (server/http/content.ts): its size is known from Content-Length before
    // anything is stored. A browser's fetch of a Blob or bytes always sends one.
    const declared = request.headers['content-length']
    if (declared === undefined || !/^\d{1,12}$/.test(declared)) throw new HttpError(411, LENGTH_REQUIRED)
    const size = Number(declared)
    const max = config.maxVideoMb * MB + ATTACHMENT_BLOB_OVERHEAD
    if (size > max) throw new HttpError(413, `Attachments must be at most ${config.maxVideoMb} MB`)
    const body = request.body
    if (!(body instanceof Readable)) throw new HttpError(415, 'Send the attachment as application/octet-stream')
    const attachment = await messageAttachments.upload(viewer, request.params.id, body, size)
    return { status: 201, body: { attachment } }
  },

  async getMessageAttachment(request, reply) {
    const { stream, size } = await request.server.services.messageAttachments.download(
      requireAuth(request).user,
      request.params.id,
    )
    // Ciphertext for one member's browser: never cached anywhere, never rendered (it is not a page of the app).
    reply.headers({
      'content-type': 'application/octet-stream',
      'content-length': String(size),
      'cache-control': 'private, no-store',
      'content-disposition': 'attachment',
    })
    return { status: 200, body: stream }
  },

  async deleteMessage(request) {
    await request.server.services.messages.remove(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  // Message keys: who can be written to, and the admin's migration.
  async getPublicKey(request) {
    const body = await request.server.services.messages.publicKeyOf(requireAuth(request).user, request.params.id)
    return { status: 200, body }
  },

  async migrateKeys(request) {
    const viewer = requireAuth(request).user
    const body = await request.server.services.messages.migrateKeys(viewer)
    await request.server.services.admin.audit(
      viewer,
      'migrate-keys',
      `Asked ${body.migrated} ${body.migrated === 1 ? 'member' : 'members'} without message keys to make them`,
      body,
    )
    return { status: 200, body }
  },
} satisfies Handlers
