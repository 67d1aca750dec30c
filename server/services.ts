import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config'
import type { Database, DatabaseKind } from './db/client'
import { RateLimiter } from './http/rate-limit'
import { ImageProcessor } from './media/images'
import { PasswordHasher } from './modules/auth/passwords'
import { AccountService } from './modules/auth/service'
import { type Authenticated, SessionStore } from './modules/auth/sessions'
import { PostService } from './modules/posts/service'
import { ViewCounter } from './modules/posts/views'
import { UserService } from './modules/users/service'
import { LocalDiskStorage } from './storage/local'
import type { Storage } from './storage/storage'

/** Everything handlers need, built once per app and reached as `request.server.services`. */
export interface Services {
  config: Config
  db: Database
  databaseKind: DatabaseKind
  rateLimits: RateLimiter
  sessions: SessionStore
  accounts: AccountService
  /** Uploaded media (DATA_DIR/media), served under /media. */
  storage: Storage
  /** Batched view counts; flushed on close (server/http/content.ts). */
  views: ViewCounter
  posts: PostService
  users: UserService
}

export function createServices(
  config: Config,
  db: Database,
  databaseKind: DatabaseKind,
  log?: FastifyBaseLogger,
): Services {
  const sessions = new SessionStore(db)
  const warn = (message: string, err: unknown) => log?.warn({ err }, message)
  const storage = new LocalDiskStorage(path.join(config.dataDir, 'media'))
  const images = new ImageProcessor()
  const views = new ViewCounter(db, (err) => warn('could not save view counts', err))
  const posts = new PostService(db, storage, images, views, warn)
  return {
    config,
    db,
    databaseKind,
    rateLimits: new RateLimiter(config.rateLimits),
    sessions,
    accounts: new AccountService(db, new PasswordHasher(config.hashConcurrency), sessions),
    storage,
    views,
    posts,
    users: new UserService(db, storage, images, posts, warn),
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
