import type { LoadResult } from './load'
import { feedPage } from './app-http'
import type { FeedBody } from './no-db-app'
import { fromHttp, type Scenario } from './report'

/**
 * The feed bench's warm rows (bench/feed.ts), shared with the mixed bench so both measure them the same way: for each
 * member, one page to check the feed answers, then autocannon on GET /api/posts/feed with that member's token (the
 * same member on every connection: their entries stay warm in the app's caches), and optionally the same at one
 * connection (the service time without queueing).
 */

export interface WarmMember {
  label: string
  username: string
  token: string
}

export type FeedLoad = (url: string, headers?: Record<string, string>, connections?: number) => Promise<LoadResult>

export async function measureWarmFeeds(
  base: string,
  members: readonly WarmMember[],
  load: FeedLoad,
  log: (line: string) => void,
  options: { singleConnection: boolean },
): Promise<{ scenarios: Scenario[]; firstBody: FeedBody | undefined; bodies: Map<string, FeedBody>; pending: string[] }> {
  const scenarios: Scenario[] = []
  const pending: string[] = []
  let firstBody: FeedBody | undefined
  // Each member's page 1 as measured, by label: what its cards carry explains its numbers.
  const bodies = new Map<string, FeedBody>()
  for (const m of members) {
    const first = await feedPage(base, m.token)
    if (first.status !== 200) {
      pending.push(`GET /api/posts/feed answers ${first.status} (feed not implemented yet?): HTTP feed not measured`)
      break
    }
    firstBody ??= first.body
    if (first.body) bodies.set(m.label, first.body)
    log(`HTTP feed, ${m.label} (${m.username}, ${first.body?.posts.length} posts on page 1)...`)
    const r = await load(`${base}/api/posts/feed`, { authorization: `Bearer ${m.token}` })
    scenarios.push(fromHttp(`HTTP feed, ${m.label}`, r))
    if (options.singleConnection) {
      // One connection: the service time of a request without queueing behind 49 others.
      const single = await load(`${base}/api/posts/feed`, { authorization: `Bearer ${m.token}` }, 1)
      scenarios.push(fromHttp(`HTTP feed, ${m.label}, 1 connection`, single))
    }
  }
  return { scenarios, firstBody, bodies, pending }
}
