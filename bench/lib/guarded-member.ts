import { sql } from 'drizzle-orm'
import type { Database } from '../../server/db/client'
import { hashtags } from '../../server/seed/words'

/**
 * The guarded member the benchmark carries: one who follows 2,000 accounts (a seeded "heavy" member other
 * than demo_reader) and has 200 blocked members, 100 muted keywords and 20 blocked domains, all made through the
 * real API so every cache is invalidated the way a member's clicks would.
 *
 * - Blocks: members who neither follow them nor are followed by them, so the 2,000 follows (and the comparison with
 *   demo_reader) stay as they were; the wall still enters every visibility check of their feed.
 * - Muted keywords: 30 hashtags from the tail of the seed's vocabulary (they do match seeded posts, so the feed has
 *   to skip some) and 70 words no post contains (the common case: the check runs and finds nothing).
 * - Blocked domains: 20 made-up domains.
 *
 * Idempotent, so `--reuse-db` can run it again: a block is 201 again, an existing keyword or domain is 409.
 */

export const GUARDED = { blocks: 200, mutedKeywords: 100, blockedDomains: 20 } as const

export function mutedKeywordsFor(): string[] {
  const matching = hashtags.slice(-30).map((tag) => tag.toLowerCase())
  const unmatched = Array.from({ length: GUARDED.mutedKeywords - matching.length }, (_, i) => `quietword${i}`)
  return [...matching, ...unmatched]
}

export function blockedDomainsFor(): string[] {
  return Array.from({ length: GUARDED.blockedDomains }, (_, i) => `spam${i}.example`)
}

/** A seeded member following exactly 2,000 accounts who is not demo_reader. */
export async function findGuardedMember(db: Database): Promise<string> {
  const rows = (await db.execute(sql`
    select username from users where following_count = 2000 and username <> 'demo_reader'
    order by username limit 1`)) as unknown as { rows: Array<{ username: string }> }
  const row = rows.rows[0]
  if (!row) throw new Error('no second member following 2,000 accounts in the seeded database (too few members?)')
  return row.username
}

async function strangersOf(db: Database, userId: string, count: number): Promise<string[]> {
  const rows = (await db.execute(sql`
    select u.id from users u
    where u.id <> ${userId}
      and not exists (select 1 from follows f where f.follower_id = ${userId} and f.followee_id = u.id)
      and not exists (select 1 from follows f where f.follower_id = u.id and f.followee_id = ${userId})
    order by u.id limit ${count}`)) as unknown as { rows: Array<{ id: string }> }
  return rows.rows.map((r) => r.id)
}

/** Makes the guards through the API of the app listening at `base`; throws on any unexpected answer. */
export async function guardMember(db: Database, base: string, token: string, userId: string): Promise<void> {
  const call = async (method: string, url: string, body?: unknown, ok: number[] = [200, 201]) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    if (!ok.includes(res.status)) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`)
  }
  for (const id of await strangersOf(db, userId, GUARDED.blocks)) await call('POST', `/api/blocks/user/${id}`)
  for (const keyword of mutedKeywordsFor()) await call('POST', '/api/mutes/keyword', { keyword }, [201, 409])
  for (const domain of blockedDomainsFor()) await call('POST', '/api/blocks/domain', { domain }, [201, 409])
}
