import pg from 'pg'
import { uuidv7 } from '../../server/db/ids'
import { newToken } from '../../server/modules/auth/tokens'
import type { FreshnessAuthor, MixedMember } from './mixed-protocol'
import { seededRandom, shuffled } from './zipf'

/**
 * The mixed bench's members, made in seconds on a seeded database (bench/lib/seeded.ts):
 *
 * - one session per member, by SQL as bench/lib/msg-setup.ts does (token from the auth module's `newToken()`, only its
 *   SHA-256 stored, as a login does): signing 20,000 members in through argon2id would take minutes;
 * - the readers in Zipf-rank order (a seeded shuffle: rank 0 is the most active), without the cold members;
 * - the cold members: those following the most accounts (the seed's 2,000-follow members first), kept out of every
 *   other phase so the app has never seen them when their first page is asked;
 * - the burst account: the member whose followers count is closest above `burstFollowers`; if none has that many,
 *   the most followed one gets follows by SQL up to it (counters fixed as the seed's verification expects);
 * - the freshness authors: followees of several of the most drawn readers, with those readers as the followers whose
 *   feeds are polled.
 *
 * Idempotent on a reused database: the previous run's bench sessions are deleted first; follows added before stay.
 */

export const SESSION_AGENT = 'wren-bench-mixed'

export interface MixedSetup {
  /** Readers first (members[0 .. readers - 1], by Zipf rank), then the cold members. */
  members: MixedMember[]
  followingCount: number[]
  readers: number
  cold: number[]
  burst: { author: number; followers: number[]; addedFollows: number }
  freshness: FreshnessAuthor[]
  /** demo_reader and demo_casual, for the feed bench's warm rows (undefined on a seed without them). */
  demoReader: number | undefined
  demoCasual: number | undefined
  seconds: number
}

interface UserRowLite {
  id: string
  username: string
  following_count: number
  followers_count: number
}

export async function makeMixedSetup(
  url: string,
  options: { coldMembers: number; burstFollowers: number; freshnessAuthors: number; seed: number },
): Promise<MixedSetup> {
  const started = performance.now()
  const random = seededRandom(options.seed)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const all = (
      await client.query<UserRowLite>('select id, username, following_count, followers_count from users order by id')
    ).rows
    const demo = new Set(['demo_reader', 'demo_casual'])
    const coldRows = all
      .filter((u) => u.following_count >= 1000 && !demo.has(u.username))
      .sort((a, b) => b.following_count - a.following_count || a.username.localeCompare(b.username))
      .slice(0, options.coldMembers)
    const coldIds = new Set(coldRows.map((u) => u.id))
    const readerRows = shuffled(
      all.filter((u) => !coldIds.has(u.id)),
      random,
    )
    const ordered = [...readerRows, ...coldRows]
    const index = new Map(ordered.map((u, i) => [u.id, i]))

    // Sessions.
    await client.query('delete from sessions where user_agent = $1', [SESSION_AGENT])
    const tokens = ordered.map(() => newToken())
    await client.query(
      `insert into sessions (id, user_id, token_hash, user_agent, remember, expires_at)
       select s, u, h, $4, true, now() + interval '90 days' from unnest($1::uuid[], $2::uuid[], $3::text[]) as t(s, u, h)`,
      [ordered.map(() => uuidv7()), ordered.map((u) => u.id), tokens.map((t) => t.tokenHash), SESSION_AGENT],
    )

    // The burst account.
    const target = Math.min(options.burstFollowers, all.length - 1)
    const candidates = readerRows.filter((u) => !demo.has(u.username))
    const above = candidates.filter((u) => u.followers_count >= target).sort((a, b) => a.followers_count - b.followers_count)
    const burstRow = above[0] ?? [...candidates].sort((a, b) => b.followers_count - a.followers_count)[0]
    if (!burstRow) throw new Error('no member to be the burst account')
    let addedFollows = 0
    if (burstRow.followers_count < target) {
      await client.query('begin')
      const added = await client.query(
        `with picked as (
           select u.id from users u
           where u.id <> $1 and not exists (select 1 from follows f where f.follower_id = u.id and f.followee_id = $1)
           order by md5(u.id::text) limit $2),
         inserted as (insert into follows (follower_id, followee_id) select id, $1 from picked returning follower_id)
         update users set following_count = following_count + 1 where id in (select follower_id from inserted)`,
        [burstRow.id, target - burstRow.followers_count],
      )
      addedFollows = added.rowCount ?? 0
      await client.query(
        'update users set followers_count = (select count(*) from follows where followee_id = $1) where id = $1',
        [burstRow.id],
      )
      await client.query('commit')
    }
    const burstFollowers = (
      await client.query<{ follower_id: string }>('select follower_id from follows where followee_id = $1', [burstRow.id])
    ).rows.flatMap((r) => {
      const i = index.get(r.follower_id)
      return i === undefined || coldIds.has(r.follower_id) ? [] : [i]
    })

    // Freshness: followees of the most drawn readers (the first 200 ranks), each with its three hottest followers.
    const hot = readerRows.slice(0, 200).map((u) => u.id)
    const special = [burstRow.id, ...coldIds]
    const followed = await client.query<{ followee_id: string; followers: string[] }>(
      `select followee_id, array_agg(follower_id) as followers from follows
       where follower_id = any($1::uuid[]) and followee_id <> all($2::uuid[])
       group by followee_id having count(*) >= 3
       order by md5(followee_id::text) limit $3`,
      [hot, special, options.freshnessAuthors],
    )
    const freshness: FreshnessAuthor[] = followed.rows.map((r) => ({
      author: index.get(r.followee_id) ?? 0,
      followers: r.followers
        .map((id) => index.get(id) ?? 0)
        .sort((a, b) => a - b)
        .slice(0, 3),
    }))
    await client.query('vacuum analyze sessions, follows, users')

    const members: MixedMember[] = ordered.map((u, i) => ({ id: u.id, username: u.username, token: tokens[i]?.token ?? '' }))
    const at = (username: string) => {
      const i = ordered.findIndex((u) => u.username === username)
      return i < 0 ? undefined : i
    }
    return {
      members,
      followingCount: ordered.map((u) => u.following_count),
      readers: readerRows.length,
      cold: coldRows.map((u) => index.get(u.id) ?? 0),
      burst: { author: index.get(burstRow.id) ?? 0, followers: burstFollowers, addedFollows },
      freshness,
      demoReader: at('demo_reader'),
      demoCasual: at('demo_casual'),
      seconds: (performance.now() - started) / 1000,
    }
  } finally {
    await client.end()
  }
}
