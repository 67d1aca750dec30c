import { sql } from 'drizzle-orm'
import type { Handlers } from '../../http/handler-types'
import { HttpError } from '../../http/errors'
import { appVersion } from '../../version'

export const healthHandlers = {
  async getHealth(request) {
    const { db, databaseKind } = request.server.services
    try {
      await db.execute(sql`select 1`)
    } catch (err) {
      request.log.error({ err }, 'health check: database does not answer')
      throw new HttpError(503, 'Database unavailable')
    }
    return { status: 200, body: { status: 'ok', database: databaseKind, version: appVersion } }
  },

  async getReadiness(request) {
    if (request.server.drain.draining) throw new HttpError(503, 'This server is shutting down')
    return { status: 200, body: { ready: true } }
  },
} satisfies Handlers
