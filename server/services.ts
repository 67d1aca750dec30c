import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { InvalidationBus } from './cache/invalidation'
import { Invalidations } from './cache/invalidations'
import type { Config } from './config'
import type { Database, DatabaseKind } from './db/client'
import { RateLimiter } from './http/rate-limit'
import { ImageProcessor } from './media/images'
import { PasswordHasher } from './modules/auth/passwords'
import { AccountService } from './modules/auth/service'
import { SessionCache } from './modules/auth/session-cache'
import { type Authenticated, SessionStore } from './modules/auth/sessions'
import { PostCaches } from './modules/posts/cache/post-caches'
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
  /** Where writes announce what they changed, to this process's caches and (with REDIS_URL) the others'. */
  invalidations: Invalidations
  postCaches: PostCaches
}

export interface CacheOptions {
  bus: InvalidationBus
  /** false: every cache holds nothing (the benchmark's cache-miss run). */
  enabled: boolean
}

export function createServices(
  config: Config,
  db: Database,
  databaseKind: DatabaseKind,
  log: FastifyBaseLogger | undefined,
  cache: CacheOptions,
): Services {
  const warn = (message: string, err: unknown) => log?.warn({ err }, message)
  const invalidations = new Invalidations(cache.bus, (err) => warn('could not publish a cache invalidation', err))
  const sessionCache = new SessionCache(cache.enabled)
  const storage = new LocalDiskStorage(path.join(config.dataDir, 'media'))
  const postCaches = new PostCaches(db, storage, cache.enabled)
  invalidations.register(sessionCache)
  invalidations.register(postCaches)
  const sessions = new SessionStore(db, sessionCache, invalidations)
  const images = new ImageProcessor()
  // Flushed views do not evict cards: that would discard every hot card every 2 s (and every fill in flight with
  // it). View counts on cards in lists lag by up to the card TTL; a post's own page reads them fresh.
  const views = new ViewCounter(db, (err) => warn('could not save view counts', err))
  const posts = new PostService(db, storage, images, views, postCaches, invalidations, warn)
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
    users: new UserService(db, storage, images, posts, invalidations, warn),
    invalidations,
    postCaches,
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
