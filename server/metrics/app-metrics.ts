import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { LruStats } from '../cache/lru'
import type { PoolStats } from '../db/statement-timing'
import type { JobState } from '../jobs/queries'

/**
 * Every metric of one app, in a registry of its own (never prom-client's global one: tests build many apps in one
 * process, and two apps must not count into, or collide in, the same registry). docs/operations.md, "Metrics", says
 * what each one means.
 *
 * What the request path touches is a counter increment or a histogram observation. What can be read when Prometheus
 * asks (cache counters, pool, sockets, the job queue) is read then, in `collect` callbacks, from `sources`.
 */

/** What the scrape reads at its own time; each is set by whoever owns the thing (app.ts, attachRealtime). */
export interface MetricSources {
  caches?: () => Record<string, LruStats>
  pool?: () => PoolStats
  sockets?: () => number
  jobs?: () => Promise<Record<JobState, number>>
}

/** Jobs counted per state per scrape, at most (server/jobs/queries.ts `countJobStates`). */
export const JOB_COUNT_CAP = 10_000

const requestBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const statementBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

export class AppMetrics {
  readonly registry = new Registry()
  readonly sources: MetricSources = {}

  readonly httpRequests: Counter<'method' | 'route' | 'status_class'>
  readonly httpDuration: Histogram<'method' | 'route'>
  readonly httpServerErrors: Counter<'method' | 'route'>
  readonly statementDuration: Histogram
  readonly realtimeEvents: Counter<'event'>
  readonly rateLimitRefusals: Counter<'limit'>

  constructor(options: { version: string; database: string; onScrapeError?: (what: string, err: unknown) => void }) {
    const registers = [this.registry]
    const sources = this.sources

    new Gauge({
      name: 'wren_app_info',
      help: 'Always 1; the labels say which version of Wren runs on which database',
      labelNames: ['version', 'database'],
      registers,
    }).set({ version: options.version, database: options.database }, 1)

    this.httpRequests = new Counter({
      name: 'wren_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status class (2xx, 3xx, 4xx, 5xx)',
      labelNames: ['method', 'route', 'status_class'],
      registers,
    })
    this.httpDuration = new Histogram({
      name: 'wren_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: requestBuckets,
      registers,
    })
    this.httpServerErrors = new Counter({
      name: 'wren_http_server_errors_total',
      help: 'Requests answered with a 5xx status, by method and route pattern',
      labelNames: ['method', 'route'],
      registers,
    })

    this.statementDuration = new Histogram({
      name: 'wren_db_statement_duration_seconds',
      help: 'Time of each database statement, from sending it to its complete answer (queueing for a connection excluded)',
      buckets: statementBuckets,
      registers,
    })
    new Gauge({
      name: 'wren_db_pool_connections',
      help: 'PostgreSQL pool connections by state (in_use, idle); absent on the embedded PGlite, which has no pool',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources.pool?.()
        if (!pool) return
        this.set({ state: 'in_use' }, pool.total - pool.idle)
        this.set({ state: 'idle' }, pool.idle)
      },
    })
    new Gauge({
      name: 'wren_db_pool_waiting',
      help: 'Statements waiting for a free PostgreSQL pool connection; absent on PGlite',
      registers,
      collect() {
        const pool = sources.pool?.()
        if (pool) this.set(pool.waiting)
      },
    })

    const cacheCounter = (field: keyof LruStats, name: string, help: string) =>
      new Counter({
        name,
        help,
        labelNames: ['cache'],
        registers,
        collect() {
          // The caches keep their own totals (server/cache/lru.ts); copied here only when Prometheus asks.
          this.reset()
          for (const [cache, stats] of Object.entries(sources.caches?.() ?? {})) this.inc({ cache }, stats[field])
        },
      })
    cacheCounter('hits', 'wren_cache_hits_total', 'Lookups a read cache answered, by cache')
    cacheCounter('misses', 'wren_cache_misses_total', 'Lookups a read cache could not answer (absent or expired), by cache')
    cacheCounter('stored', 'wren_cache_stored_total', 'Loaded values a read cache stored, by cache')
    cacheCounter(
      'refused',
      'wren_cache_refused_total',
      'Loaded values a read cache refused because a write invalidated them while they loaded, by cache',
    )

    new Gauge({
      name: 'wren_realtime_sockets',
      help: 'Realtime sockets connected to this process',
      registers,
      collect() {
        this.set(sources.sockets?.() ?? 0)
      },
    })
    this.realtimeEvents = new Counter({
      name: 'wren_realtime_events_total',
      help: 'Realtime events sent, counted once per member addressed (each reaches all of that member\'s sockets), by event',
      labelNames: ['event'],
      registers,
    })

    new Gauge({
      name: 'wren_jobs',
      help: `Background jobs by state (due, scheduled, running, failed), read when scraped; each count stops at ${JOB_COUNT_CAP}`,
      labelNames: ['state'],
      registers,
      async collect() {
        if (!sources.jobs) return
        try {
          for (const [state, count] of Object.entries(await sources.jobs())) this.set({ state }, count)
        } catch (err) {
          // The rest of the scrape is still worth having when the database does not answer.
          this.reset()
          options.onScrapeError?.('job counts', err)
        }
      },
    })

    this.rateLimitRefusals = new Counter({
      name: 'wren_rate_limit_refusals_total',
      help: 'Charges refused because their limit was reached, by limit (the first two parts of its key: writes:posts)',
      labelNames: ['limit'],
      registers,
    })
  }

  /** Node's own metrics (CPU, memory, event loop lag, GC, handles) in this registry, under their usual names. */
  collectNodeMetrics(): void {
    collectDefaultMetrics({ register: this.registry })
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics with METRICS on (server/metrics/); undefined with it off. */
    metrics: AppMetrics | undefined
  }
}
