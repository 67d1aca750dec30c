import type { Cursor } from '../../lib/cursor'
import type { Database } from '../../db/client'
import type { Candidate, SearchCandidateCache } from './cache/search-candidates'
import type { FeedKey } from './feed-queries'
import { freshMatches, RANKED, searchCandidates, searchKeys, stillFound } from './search-queries'
import type { SearchTerms } from './search-terms'

/**
 * One page of a post search through the shared candidate cache (cache/search-candidates.ts). The answer is the one
 * `searchKeys` gives, read more cheaply: which posts match a search and in what order is the same for everyone, so
 * it is read once per SEARCH_TTL_MS and reused; what each request reads is
 *
 * - the matches posted since that list was read (`freshMatches`: a few seconds of posts, newest first), so a new post
 *   is found at once, and
 * - the viewer's rules on just enough candidates for one page (`stillFound`: a few dozen primary-key reads), so a
 *   deleted, edited, blocked, muted or hidden post is never shown, whatever the cache holds.
 *
 * A word search ranks the newest RANKED matches in both paths. A search of filters only (`#tag`, `from:`) is newest
 * first and goes on past them: past the cached list it reads on with `searchKeys`.
 */

/** Candidates checked per round trip: twice a page, so one read fills a page unless most are hidden from the viewer. */
const CHUNK_MIN = 40
/** Posts may commit a little after the time they carry: the fresh read looks this much further back. */
const FRESH_OVERLAP_MICROS = 5_000_000n

/** The keyset order, best first: `at` (a bigint as text) descending, then the id descending. */
function compare(a: Candidate, b: Candidate): number {
  const at = BigInt(b.at) - BigInt(a.at)
  if (at !== 0n) return at > 0n ? 1 : -1
  return a.post_id < b.post_id ? 1 : a.post_id > b.post_id ? -1 : 0
}

export async function cachedSearchKeys(
  db: Database,
  cache: SearchCandidateCache,
  viewerId: string,
  terms: SearchTerms,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<FeedKey[]> {
  const key = JSON.stringify([terms.text, terms.from, terms.tags])
  const set = await cache.get(key, () => searchCandidates(db, terms))
  const since = (BigInt(set.builtAt) - FRESH_OVERLAP_MICROS).toString()
  const afterCursor = (c: Candidate) => !cursor || compare(c, { post_id: cursor.id, at: cursor.at }) > 0
  const fresh = (await freshMatches(db, viewerId, terms, since)).filter(afterCursor)
  const freshIds = new Set(fresh.map((f) => f.post_id))

  const wanted = offset + limit
  const pending = set.items.filter(afterCursor)
  const chunk = Math.max(CHUNK_MIN, wanted * 2)
  const found: Candidate[] = []
  let read = 0
  while (read < pending.length && found.length < wanted) {
    const next = pending.slice(read, read + chunk).filter((c) => !freshIds.has(c.post_id))
    read += chunk
    const ok = await stillFound(db, viewerId, terms, next.map((c) => c.post_id))
    found.push(...next.filter((c) => ok.has(c.post_id)))
  }
  // Candidates after the last one checked are unknown yet, so a fresh match ordered after it waits for a later page.
  const lastChecked = read < pending.length ? pending[read - 1] : undefined
  const keys: FeedKey[] = [...found, ...fresh]
    .filter((c) => !lastChecked || compare(c, lastChecked) <= 0)
    .sort(compare)
    .map((c) => ({ post_id: c.post_id, at: c.at, reposted_by: null }))

  // A search of filters only goes on past the cached newest RANKED, in SQL, after the last of them.
  const oldest = set.items[set.items.length - 1]
  if (terms.text === '' && set.items.length >= RANKED && !lastChecked && keys.length < wanted && oldest) {
    const from = cursor && compare(oldest, { post_id: cursor.id, at: cursor.at }) < 0 ? cursor : { at: oldest.at, id: oldest.post_id }
    keys.push(...(await searchKeys(db, viewerId, terms, from, 0, wanted - keys.length)))
  }
  return keys.slice(offset, offset + limit)
}
