import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'

export const exportHandlers = {
  async createExport(request) {
    const created = await request.server.services.exports.request(requireAuth(request).user)
    return { status: 202, body: { export: created } }
  },

  async getExports(request) {
    const exports = await request.server.services.exports.list(requireAuth(request).user)
    return { status: 200, body: { exports } }
  },

  async downloadExport(request, reply) {
    const { user } = requireAuth(request)
    const { stream, size, createdAt } = await request.server.services.exports.download(user, request.params.id)
    const day = createdAt.toISOString().slice(0, 10)
    // The member's own data: never cached anywhere, always saved as a file (never rendered as a page of the app).
    reply.headers({
      'content-type': 'application/zip',
      'content-length': String(size),
      'cache-control': 'private, no-store',
      'content-disposition': `attachment; filename="${user.username}-${day}.zip"`,
    })
    return { status: 200, body: stream }
  },
} satisfies Handlers
