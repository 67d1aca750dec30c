import type { Database } from '../../db/client'
import type { Schemas } from '../../http/handler-types'
import { SingleFlight } from '../../cache/single-flight'
import { Invalid } from '../../lib/domain-errors'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { likeLiteral } from '../../lib/like'
import { hashtagsStartingWith, trendingTags } from './queries'

type Trend = Schemas['Trend']

export const HASHTAG_REQUIRED = 'Search query is required'
export const TRENDS_SHOWN = 10
/** Trends are the same for every member and move slowly: one read per half minute serves them all. */
export const TRENDS_TTL_MS = 30_000

export interface HashtagDeps {
  db: Database
  /** 0 reads them fresh every time (caches off, tests). */
  ttlMs: number
  now?: () => number
}

/** Trending hashtags, and hashtags by prefix for the Search screen's Hashtags tab. */
export class HashtagService {
  private readonly db: Database
  private readonly ttlMs: number
  private readonly now: () => number
  private held: { at: number; trends: Trend[] } | null = null
  private readonly loads: SingleFlight<'trends', Trend[]>

  constructor(deps: HashtagDeps) {
    this.db = deps.db
    this.ttlMs = deps.ttlMs
    this.now = deps.now ?? Date.now
    this.loads = new SingleFlight(deps.ttlMs > 0)
  }

  async trending(): Promise<Trend[]> {
    const held = this.held
    if (held && this.now() - held.at < this.ttlMs) return held.trends
    return this.loads.run('trends', async () => {
      const rows = await trendingTags(this.db, TRENDS_SHOWN)
      const trends = rows.map((r) => ({ hashtag: r.tag, count: r.posts }))
      if (this.ttlMs > 0) this.held = { at: this.now(), trends }
      return trends
    })
  }

  /** Hashtags starting with `q` ('#' and case ignored, as hashtags are stored), most used first. */
  async search(q: string, page: PageRequest): Promise<Schemas['HashtagsPage']> {
    const prefix = q.trim().replace(/^#/, '').normalize('NFC').toLowerCase()
    if (prefix === '') throw new Invalid(HASHTAG_REQUIRED)
    const rows = await hashtagsStartingWith(this.db, likeLiteral(prefix), page.cursor, page.offset, page.limit + 1)
    const { items, nextCursor } = keysetPage(rows, page.limit, (r) => ({ hashtag: r.tag, count: r.post_count }))
    return { hashtags: items, nextCursor }
  }
}
