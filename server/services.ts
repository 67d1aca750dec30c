import type { Config } from './config'
import type { Database, DatabaseKind } from './db/client'
import { RateLimiter } from './http/rate-limit'
import { PasswordHasher } from './modules/auth/passwords'
import { AccountService } from './modules/auth/service'
import { type Authenticated, SessionStore } from './modules/auth/sessions'

/** Everything handlers need, built once per app and reached as `request.server.services`. */
export interface Services {
  config: Config
  db: Database
  databaseKind: DatabaseKind
  rateLimits: RateLimiter
  sessions: SessionStore
  accounts: AccountService
}

export function createServices(config: Config, db: Database, databaseKind: DatabaseKind): Services {
  const sessions = new SessionStore(db)
  return {
    config,
    db,
    databaseKind,
    rateLimits: new RateLimiter(config.rateLimits),
    sessions,
    accounts: new AccountService(db, new PasswordHasher(config.hashConcurrency), sessions),
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
  }
  interface FastifyRequest {
    /** Set by the bearer hook on operations whose security asks for a token; null otherwise. */
    auth: Authenticated | null
  }
}
