import { Lru, type LruStats } from '../../../cache/lru'
import { SingleFlight } from '../../../cache/single-flight'

/** One search's matches in result order, as the cursor sees them: `at` is the rank, or the time for filter searches. */
export interface Candidate {
  post_id: string
  at: string
}

export interface CandidateSet {
  /** Best first (at desc, post_id desc), at most RANKED (search-queries.ts). */
  items: Candidate[]
  /** When the matches were read, in database microseconds: posts from then on are read fresh on every request. */
  builtAt: string
}

/** How long a search's matches are reused. New posts never wait for it (they are read fresh); see search-results.ts. */
export const SEARCH_TTL_MS = 15_000
const SEARCH_MAX = 500
/** Total candidates held over every search (a word search holds up to 1,000 ids): about 20 MB at most. */
const SEARCH_MAX_WEIGHT = 200_000

/**
 * The matches of recent searches, the same for every member: which posts match and in what order does not depend
 * on who asks. Who may see them does, so each request still checks its page's candidates against the viewer's rules
 * (search-results.ts); nothing a viewer may not see can come out of here. With `enabled` false it holds nothing.
 */
export class SearchCandidateCache {
  private readonly lru: Lru<string, CandidateSet>
  private readonly loads: SingleFlight<string, CandidateSet>

  constructor(readonly enabled: boolean) {
    this.lru = new Lru({
      maxEntries: enabled ? SEARCH_MAX : 0,
      ttlMs: SEARCH_TTL_MS,
      maxWeight: SEARCH_MAX_WEIGHT,
      weigh: (set) => Math.max(1, set.items.length),
    })
    this.loads = new SingleFlight(enabled)
  }

  clear(): void {
    this.lru.clear()
  }

  /** What the cache did since it was made (metrics read it at scrape time). */
  get stats(): LruStats {
    return this.lru.stats
  }

  /** The matches of `key`, read by `load` when missing or expired; concurrent misses share one read. */
  async get(key: string, load: () => Promise<CandidateSet>): Promise<CandidateSet> {
    const held = this.lru.get(key)
    if (held) return held
    return this.loads.run(key, async () => {
      const generation = this.lru.generation
      const set = await load()
      this.lru.setIfFresh(key, set, generation)
      return set
    })
  }
}
