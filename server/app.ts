import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { type InvalidationBus, LocalBus } from './cache/invalidation'
import { RedisBus } from './cache/redis-bus'
import { type Config, parseConfig, type TrustProxy } from './config'
import { type DatabaseHandle, openDatabase } from './db/client'
import type { Clock } from './lib/clock'
import { registerApiRoutes } from './http/api-routes'
import { registerContent } from './http/content'
import { addDrain } from './http/drain'
import { handleErrors } from './http/error-handler'
import { listenControlSocket } from './backup/control-socket'
import { loadSpecification, type OpenApiDocument } from './http/openapi'
import { processWideCompilers } from './http/schema-compilers'
import { addSecurityHeaders } from './http/security-headers'
import { defaultDistDir, serveWebApp } from './http/spa'
import { validationError } from './http/validation-messages'
import { type AppLoggerOptions, loggerOptions } from './logging/logger-options'
import { requestIds } from './logging/request-ids'
import { logRequests, OneLinePerRequest } from './logging/requests'
import { AppMetrics, JOB_COUNT_CAP } from './metrics/app-metrics'
import { cacheStats } from './metrics/caches'
import { observeRequests, serveMetrics } from './metrics/http'
import { moduleHandlers, uploadPolicies, validationMessages } from './modules'
import type { FetchPolicy } from './modules/link-previews/fetch'
import { createServices } from './services'
import { appVersion } from './version'

/** Fastify's typings take no hop count; proxy-addr's meaning of one is "trust the nearest N hops". */
function trustProxyOption(value: TrustProxy) {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value
}

export interface BuildAppOptions {
  /** Settings over the documented defaults (server/config.ts); entry points pass the parsed environment. */
  config?: Partial<Config>
  /** An open database (tests); the caller keeps ownership. Without it the app opens (and closes) its own. */
  database?: DatabaseHandle
  /** Where the built web app is; defaults to `dist/` at the repository root. */
  distDir?: string
  /** Defaults to openapi.yaml at the repository root. */
  specification?: OpenApiDocument
  /**
   * false: no logging at all. Otherwise merged over the options LOG_LEVEL and LOG_FORMAT give (tests pass a `stream`
   * to read the lines); the request id of every line stays either way.
   */
  logger?: false | Partial<AppLoggerOptions>
  /** Whether standard output is a terminal, for LOG_FORMAT=auto; defaults to `process.stdout.isTTY`. */
  stdoutIsTty?: boolean
  /** Called on the bare instance before any route exists (the contract test attaches an onRoute hook here). */
  beforeRoutes?: (app: FastifyInstance) => void
  /**
   * How this process hears other processes' cache invalidations. Defaults to Redis pub/sub when REDIS_URL is set,
   * else none (one process). The app closes it.
   */
  invalidationBus?: InvalidationBus
  /** false turns every read cache off (sessions, cards, flags, timelines): the benchmark's cache-miss run. */
  caches?: boolean
  /** Prefix of the rate limits' Redis keys: apps given the same one share their counts (tests keep theirs apart). */
  rateLimitNamespace?: string
  /** "Now" for session expiry; tests pass one they can move (server/lib/clock.ts). */
  clock?: Clock
  /**
   * On the embedded database: listen on DATA_DIR/control.sock for `npm run backup` (server/backup/control-socket.ts).
   * The server process turns it on; apps built by tests only when they test backups.
   */
  controlSocket?: boolean
  /**
   * Tests only, and deliberately not a setting: no environment variable reaches it. Loosens link preview fetching so
   * tests can serve pages from loopback (`allowLoopbackFor`), answer DNS themselves (`lookup`) or shorten the
   * deadline (`timeoutMs`); server/modules/link-previews/fetch.ts keeps every other rule.
   */
  linkPreviewFetch?: Partial<FetchPolicy>
}

/**
 * Builds the whole HTTP app, not listening: main.ts listens, tests call `inject()`. Order matters: hooks and the error
 * handler go on the root before any plugin so every route, the static files and the 404 handler inherit them.
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const config: Config = { ...parseConfig({}), ...options.config }
  const database =
    options.database ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }))
  try {
    return await assembleApp(config, database, options)
  } catch (err) {
    // A failed build must not leave a database it opened (and PGlite's directory lock) held.
    if (!options.database) await database.close().catch(() => undefined)
    throw err
  }
}

function appLogger(config: Config, options: BuildAppOptions): FastifyServerOptions['logger'] {
  if (options.logger === false) return false
  const chosen = loggerOptions({
    level: config.logLevel,
    format: config.logFormat,
    stdoutIsTty: options.stdoutIsTty ?? process.stdout.isTTY === true,
  })
  return { ...chosen.options, ...options.logger }
}

async function assembleApp(config: Config, database: DatabaseHandle, options: BuildAppOptions) {
  const app = Fastify({
    logger: appLogger(config, options),
    logController: new OneLinePerRequest(),
    genReqId: requestIds(config.trustProxy),
    trustProxy: trustProxyOption(config.trustProxy),
    ajv: {
      customOptions: {
        // Architecture decision: unknown body fields are refused (400 "Unknown field: isAdmin"), never stripped.
        removeAdditional: false,
        // Every problem in `details`, not only the first. Inputs are bounded by bodyLimit and the yaml's maxLength.
        allErrors: true,
        // Query and path parameters arrive as text; "limit=20" must validate as an integer. Fastify applies this to
        // bodies too, which multipart text fields need; a JSON body sending 42 for a text field is accepted as "42".
        coerceTypes: 'array',
        // OpenAPI 3.1 nullable fields are written `type: [string, 'null']`.
        allowUnionTypes: true,
        // OpenAPI annotations that are not JSON Schema keywords (ajv's strict mode would refuse the schema).
        keywords: ['example', 'xml', 'externalDocs'],
      },
    },
    schemaErrorFormatter: validationError,
    schemaController: { compilersFactory: processWideCompilers },
  })

  const metrics = config.metrics
    ? new AppMetrics({
        version: appVersion,
        database: database.kind,
        onScrapeError: (what, err) => app.log.warn({ err }, `metrics: could not read ${what}`),
      })
    : undefined
  app.decorate('metrics', metrics)

  const bus =
    options.invalidationBus ??
    (config.redisUrl
      ? await RedisBus.connect(config.redisUrl)
      : new LocalBus())
  app.decorate(
    'services',
    createServices({
      config,
      db: database.db,
      databaseKind: database.kind,
      log: app.log,
      cache: { bus, enabled: options.caches ?? true },
      rateLimitNamespace: options.rateLimitNamespace,
      clock: options.clock,
      metrics,
      linkPreviewFetch: options.linkPreviewFetch,
    }),
  )
  if (metrics) {
    const { services } = app
    metrics.sources.caches = () => cacheStats(services)
    metrics.sources.pool = database.poolStats
    metrics.sources.jobs = () => services.jobs.depth(JOB_COUNT_CAP)
    metrics.collectNodeMetrics()
    // The handle may be shared with other apps (tests) and outlive this one: the subscription ends with the app.
    const stopTiming = database.timing.observe((seconds) => metrics.statementDuration.observe(seconds))
    app.addHook('onClose', async () => stopTiming())
  }
  app.decorateRequest('auth', null)
  let closeControlSocket: (() => Promise<void>) | undefined
  app.addHook('onReady', async () => {
    app.services.sessions.startSweeping()
    app.services.mail.announce()
    app.services.jobs.start()
    if (options.controlSocket && database.snapshot) {
      try {
        closeControlSocket = await listenControlSocket({
          dataDir: config.dataDir,
          db: database.db,
          snapshot: database.snapshot,
          deletionHold: app.services.deletionHold,
          log: { info: (message) => app.log.info(message), warn: (message, err) => app.log.warn({ err }, message) },
        })
      } catch (err) {
        // Serving matters more than the channel: without it a backup needs the server stopped, and says so.
        app.log.warn({ err }, 'backup channel (DATA_DIR/control.sock) unavailable; backups need the server stopped')
      }
    }
  })
  app.addHook('onClose', async () => {
    await closeControlSocket?.()
    await app.services.jobs.close()
    await app.services.posts.close()
    await app.services.notifications.close()
    app.services.mail.close()
    await app.services.sessions.close()
    await app.services.rateLimits.close()
    await app.services.invalidations.close()
    if (!options.database) await database.close()
  })

  options.beforeRoutes?.(app)
  logRequests(app, { slowRequestMs: config.slowRequestMs })
  if (metrics) observeRequests(app, metrics)
  addSecurityHeaders(app)
  addDrain(app)
  handleErrors(app)
  // Upload hooks attach as the API routes are added, so this comes first.
  await registerContent(app, uploadPolicies)
  await registerApiRoutes(app, {
    specification: options.specification ?? loadSpecification(),
    modules: moduleHandlers,
    messages: validationMessages,
  })
  serveMetrics(app, metrics)
  await serveWebApp(app, options.distDir ?? defaultDistDir)
  return app
}
