/**
 * The services registry: built once per app by `createServices`, decorated on it as `app.services` (server/app.ts),
 * reached by handlers as `request.server.services`. Two parts: the shared infrastructure (`ServiceContext`) and one
 * service per module. Each service takes one object of named dependencies (its `Deps` interface) that uses the
 * registry's names, so it is built from the context as it is.
 *
 * Adding a module `<area>`:
 *   1. one folder, server/modules/<area>/: `queries.ts` (SQL), `service.ts` (rules, throwing domain errors from
 *      server/lib/domain-errors.ts; `constructor(deps: <Area>Deps)` naming what it needs from `ServiceContext`),
 *      `routes.ts` (handlers by operationId, reaching `request.server.services.<area>`);
 *   2. one line in `createServices` below: `<area>: new <Area>Service(context),`
 *      (a service that needs another gets it by name: `new <Area>Service({ ...context, posts })`);
 *   3. one line in server/modules/index.ts: `<area>: <area>Handlers,` (and its upload policies, if any).
 * `Services` is inferred from `createServices`: there is no type to update.
 */
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { InvalidationBus } from './cache/invalidation'
import { Invalidations } from './cache/invalidations'
import type { Config } from './config'
import { type Clock, systemClock } from './lib/clock'
import type { Database, DatabaseKind } from './db/client'
import { RateLimiter } from './lib/rate-limiter'
import { WriteLimits } from './lib/write-limits'
import { JobQueue } from './jobs/queue'
import { DraftService } from './modules/drafts/service'
import type { AppMetrics } from './metrics/app-metrics'
import { Mailer } from './mail/mailer'
import { ImageProcessor } from './media/images'
import { bundledFfmpeg, checkFfmpeg, VideoProcessor } from './media/videos'
import { PasswordHasher } from './modules/auth/passwords'
import { AdminService } from './modules/admin/service'
import { AnalyticsService } from './modules/analytics/service'
import { AccountService } from './modules/auth/service'
import { AccountDeletionService } from './modules/account-deletion/service'
import { BlockService } from './modules/blocks/service'
import { BookmarkService } from './modules/bookmarks/service'
import { ExportService } from './modules/exports/service'
import { ListService } from './modules/lists/service'
import type { FetchPolicy } from './modules/link-previews/fetch'
import { LinkPreviewService } from './modules/link-previews/service'
import { PollService } from './modules/polls/service'
import { SessionCache } from './modules/auth/session-cache'
import type { Authenticated } from './lib/authenticated'
import { SessionStore } from './modules/auth/sessions'
import { PostCaches } from './modules/posts/cache/post-caches'
import { NotificationFirstPages } from './modules/notifications/first-pages'
import { NotificationService } from './modules/notifications/service'
import { HashtagService, TRENDS_TTL_MS } from './modules/hashtags/service'
import { IdempotencyService } from './modules/idempotency/service'
import { PostService } from './modules/posts/service'
import { ViewCounter } from './modules/posts/views'
import { MuteService } from './modules/mutes/service'
import { ReportService } from './modules/reports/service'
import { MessageAttachmentService } from './modules/messages/attachments'
import { MessageService } from './modules/messages/service'
import { TrustService } from './modules/trust/service'
import { TwoFactorService } from './modules/two-factor/service'
import { PasswordResetService } from './modules/password-reset/service'
import { EmailService } from './modules/email/service'
import { ProfileFirstPages } from './modules/users/profile-first-pages'
import { MemberSearchCaches } from './modules/users/search-results'
import { UserService } from './modules/users/service'
import { PagesService } from './modules/pages/service'
import { RealtimeEvents } from './realtime/events'
import { DeletionHold } from './storage/deletion-hold'
import { LocalDiskStorage } from './storage/local'
import type { Storage } from './storage/storage'

/** What every service may ask for by name. */
export interface ServiceContext {
  config: Config
  db: Database
  databaseKind: DatabaseKind
  /** "Now" for rules that tests move in time (session expiry); Date.now unless buildApp is given another. */
  clock: Clock
  /** Failures nobody waits for (a file that could not be deleted, a background reload): logged, never thrown. */
  warn: (message: string, err: unknown) => void
  /** Where writes announce what they changed, to this process's caches and (with REDIS_URL) the others'. */
  invalidations: Invalidations
  /** Uploaded media (DATA_DIR/media), served under /media. */
  storage: Storage
  /**
   * Encrypted message attachments (DATA_DIR/attachments): never under the public media folder, served only through
   * the API to the members who may see them (server/modules/messages/attachments.ts).
   */
  attachmentStorage: Storage
  /** Holds both storages' deletions back while a backup copies files (server/backup/control-socket.ts). */
  deletionHold: DeletionHold
  images: ImageProcessor
  /** Strips uploaded videos of their metadata (ffmpeg, a few at a time). */
  videos: VideoProcessor
  passwords: PasswordHasher
  /** Every rate limit, counted in Redis across processes when REDIS_URL is set (server/lib/rate-limiter.ts). */
  rateLimits: RateLimiter
  /** The per-member write limits services count before writing (server/lib/write-limits.ts). */
  writeLimits: WriteLimits
  sessions: SessionStore
  /** Batched view counts; flushed on close (server/http/content.ts). */
  views: ViewCounter
  /** The read caches of posts: cards, authors, per-viewer flags, feed timelines (docs/architecture.md, "Caches"). */
  postCaches: PostCaches
  /** Member search results (users/search-results.ts). */
  memberSearches: MemberSearchCaches
  /** Profiles' first pages (users/profile-first-pages.ts). */
  profilePages: ProfileFirstPages
  /** Members' first notification pages (notifications/first-pages.ts). */
  notificationPages: NotificationFirstPages
  /** Events to members' sockets; silent until attachRealtime plugs socket.io in (server/realtime/events.ts). */
  realtime: RealtimeEvents
  /** Durable background work, run once across processes (server/jobs/queue.ts); the app starts it once ready. */
  jobs: JobQueue
  /** Mail, queued as jobs and sent through SMTP_URL or written to DATA_DIR/outbox (server/mail/mailer.ts). */
  mail: Mailer
}

export interface CacheOptions {
  bus: InvalidationBus
  /** false: every cache holds nothing (the benchmark's cache-miss run). */
  enabled: boolean
}

export interface ServicesOptions {
  config: Config
  db: Database
  databaseKind: DatabaseKind
  log?: FastifyBaseLogger
  cache: CacheOptions
  /** Prefix of the rate limits' Redis keys (tests give each app group its own). */
  rateLimitNamespace?: string
  clock?: Clock
  /** With METRICS on: where rate-limit refusals and realtime events are counted. */
  metrics?: AppMetrics
  /** Tests only: link preview fetching against local servers (BuildAppOptions.linkPreviewFetch). */
  linkPreviewFetch?: Partial<FetchPolicy>
}

function createContext(options: ServicesOptions): ServiceContext {
  const { config, db, databaseKind, log, cache, rateLimitNamespace, clock = systemClock, metrics } = options
  const warn = (message: string, err: unknown) => log?.warn({ err }, message)
  const invalidations = new Invalidations(cache.bus, {
    warn: (message) => log?.warn(message),
    info: (message) => log?.info(message),
  })
  const deletionHold = new DeletionHold(warn)
  const storage = deletionHold.wrap(new LocalDiskStorage(path.join(config.dataDir, 'media')))
  // Every read cache, built here and registered for invalidations here, so none can be left out of either
  // (docs/architecture.md, "Caches"). With `cache.enabled` false each holds nothing.
  const sessionCache = new SessionCache(cache.enabled)
  const postCaches = new PostCaches({ db, storage, enabled: cache.enabled, warn })
  const readCaches = {
    postCaches,
    memberSearches: new MemberSearchCaches(cache.enabled),
    profilePages: new ProfileFirstPages(cache.enabled),
    notificationPages: new NotificationFirstPages(cache.enabled),
  }
  for (const target of [sessionCache, ...Object.values(readCaches)]) invalidations.register(target)
  const rateLimits = new RateLimiter({
    enabled: config.rateLimits,
    redisUrl: config.redisUrl,
    namespace: rateLimitNamespace,
    log: { warn: (message) => log?.warn(message), info: (message) => log?.info(message) },
    onRefused: metrics && ((limit) => metrics.rateLimitRefusals.inc({ limit })),
  })
  const jobs = new JobQueue({ db, clock, warn })
  return {
    config,
    db,
    databaseKind,
    clock,
    warn,
    invalidations,
    storage,
    attachmentStorage: deletionHold.wrap(new LocalDiskStorage(path.join(config.dataDir, 'attachments'))),
    deletionHold,
    images: new ImageProcessor(),
    videos: new VideoProcessor({
      ffmpeg: checkFfmpeg(config.ffmpegPath ?? bundledFfmpeg()),
      log: (message, detail) => log?.info({ detail }, message),
    }),
    passwords: new PasswordHasher(config.hashConcurrency),
    rateLimits,
    writeLimits: new WriteLimits(rateLimits, config),
    sessions: new SessionStore({ db, sessionCache, invalidations, clock, warn }),
    // Flushed views do not evict cards: that would discard every hot card every 2 s (and every fill in flight with
    // it). View counts on cards in lists lag by up to the card TTL; a post's own page reads them fresh.
    views: new ViewCounter(db, (err) => warn('could not save view counts', err)),
    ...readCaches,
    realtime: new RealtimeEvents(metrics && ((event, members) => metrics.realtimeEvents.inc({ event }, members))),
    jobs,
    mail: new Mailer({ config, jobs, info: (message) => log?.info(message) }),
  }
}

export function createServices(options: ServicesOptions) {
  const context = createContext(options)
  const notifications = new NotificationService(context)
  const linkPreviews = new LinkPreviewService({ ...context, fetchPolicy: options.linkPreviewFetch })
  const polls = new PollService({ ...context, notifications })
  const posts = new PostService({ ...context, notifications, linkPreviews, polls })
  const messageAttachments = new MessageAttachmentService(context)
  const twoFactor = new TwoFactorService(context)
  const email = new EmailService(context)
  return {
    ...context,
    // One line per module.
    accounts: new AccountService({ ...context, twoFactor, newAccountMail: email }),
    analytics: new AnalyticsService(context),
    blocks: new BlockService({ ...context, notifications }),
    bookmarks: new BookmarkService(context),
    lists: new ListService({ ...context, posts }),
    mutes: new MuteService({ ...context, notifications }),
    messages: new MessageService({ ...context, messageAttachments }),
    messageAttachments,
    posts,
    drafts: new DraftService({ ...context, posts }),
    linkPreviews,
    polls,
    idempotency: new IdempotencyService(context),
    hashtags: new HashtagService({ db: context.db, ttlMs: options.cache.enabled ? TRENDS_TTL_MS : 0 }),
    notifications,
    users: new UserService({
      ...context,
      posts,
      notifications,
      searchCaches: context.memberSearches,
      profilePages: context.profilePages,
    }),
    reports: new ReportService({ ...context, posts, notifications }),
    admin: new AdminService(context),
    trust: new TrustService(context),
    twoFactor,
    passwordReset: new PasswordResetService({ ...context, twoFactor }),
    email,
    exports: new ExportService({ ...context, notifications }),
    accountDeletion: new AccountDeletionService({ ...context, twoFactor }),
    pages: new PagesService(context),
  }
}

/** Everything handlers need: the context and every module's service. */
export type Services = ReturnType<typeof createServices>

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
  }
  interface FastifyRequest {
    /** Set by the bearer hook on operations whose security asks for a token; null otherwise. */
    auth: Authenticated | null
  }
}
