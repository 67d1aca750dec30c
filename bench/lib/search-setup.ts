import { sql } from 'drizzle-orm'
import type { Database } from '../../server/db/client'
import { selectRows } from '../../server/db/rows'
import { closers, objects, openers, verbs } from '../../server/seed/words'

/**
 * What the search bench looks for, decided from the seeded data itself (never hard-coded counts): a common word, a
 * rare word, a two-word query and the busiest hashtag; and the notifications of one popular member, made in bulk SQL
 * from the seeded likes, reposts, follows, replies and mentions (the seed's COPY load bypasses the services that
 * write notifications in the same transaction as the like or follow, so a seeded database has none).
 */

export interface SearchWord {
  word: string
  /** Posts whose search_vector matches (exact count). */
  posts: number
  /** Share of all posts. */
  share: number
}

export interface SearchTargets {
  totalPosts: number
  common: SearchWord
  rare: SearchWord
  twoWords: SearchWord
  hashtag: SearchWord
}

/** A real word the seed never writes, appended to a few dozen posts by `ensureRareWord`. */
export const RARE_WORD = 'zeppelin'
export const RARE_POSTS = 40

const count = async (db: Database, query: string): Promise<number> => {
  const [row] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from posts where search_vector @@ websearch_to_tsquery('english'::regconfig, ${query})`,
  )
  return row?.n ?? 0
}

/**
 * The rare word: appended to RARE_POSTS public original posts of public accounts, spread over the 90 days (chosen by
 * a hash of the id, so the same posts on every run). The generated search_vector follows the content. Idempotent: a
 * reused database that has them already is left alone.
 */
export async function ensureRareWord(db: Database): Promise<void> {
  if ((await count(db, RARE_WORD)) >= RARE_POSTS) return
  await db.execute(
    sql`update posts set content = content || ' Saw a ' || ${RARE_WORD} || ' over the harbour today.'
        where id in (
          select p.id from posts p join users u on u.id = p.author_id
          where p.visibility = 'public' and p.reply_to is null and not u.private_account
          order by md5(p.id::text) limit ${RARE_POSTS})`,
  )
}

/**
 * Document frequency of every lexeme in a 2% sample of the posts (ts_stat), then the seed's own vocabulary mapped to
 * its lexemes: the common word is the vocabulary word whose share of posts is closest to 10% within 5-20%, the
 * two-word query that word and the next closest (both must match: websearch_to_tsquery ANDs them).
 */
export async function pickSearchTargets(db: Database): Promise<SearchTargets> {
  const [total] = await selectRows<{ n: number }>(db, sql`select count(*)::int as n from posts`)
  const totalPosts = total?.n ?? 0
  const [sampled] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from posts tablesample system (2) repeatable (7)`,
  )
  const stats = await selectRows<{ word: string; ndoc: number }>(
    db,
    sql`select word, ndoc from ts_stat('select search_vector from posts tablesample system (2) repeatable (7)')`,
  )
  const share = new Map(stats.map((s) => [s.word, s.ndoc / Math.max(1, sampled?.n ?? 1)]))
  const vocabulary = [
    ...new Set(
      [...openers, ...verbs, ...objects, ...closers]
        .join(' ')
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((w) => w.length >= 4),
    ),
  ]
  const lexemes = await selectRows<{ word: string; lexeme: string | null }>(
    db,
    sql`select w as word, (select lexeme from unnest(to_tsvector('english'::regconfig, w)) limit 1) as lexeme
        from unnest(${`{${vocabulary.join(',')}}`}::text[]) w`,
  )
  const seen = new Set<string>()
  const candidates = lexemes
    .map((l) => ({ word: l.word, lexeme: l.lexeme ?? '', share: l.lexeme ? (share.get(l.lexeme) ?? 0) : 0 }))
    .filter((c) => c.share >= 0.05 && c.share <= 0.2)
    .sort((a, b) => Math.abs(a.share - 0.1) - Math.abs(b.share - 0.1) || a.word.localeCompare(b.word))
    // One word per lexeme ('record' and 'recorded' are one stem): two different words for the two-word query.
    .filter((c) => !seen.has(c.lexeme) && seen.add(c.lexeme))
  const [first, second] = candidates
  if (!first || !second) throw new Error('No seed vocabulary word is in 5-20% of posts: was the database seeded?')
  const exact = async (word: string): Promise<SearchWord> => {
    const posts = await count(db, word)
    return { word, posts, share: posts / Math.max(1, totalPosts) }
  }
  const [tag] = await selectRows<{ tag: string; post_count: number }>(
    db,
    sql`select tag, post_count from hashtags order by post_count desc, tag limit 1`,
  )
  if (!tag) throw new Error('No hashtags: was the database seeded?')
  return {
    totalPosts,
    common: await exact(first.word),
    rare: await exact(RARE_WORD),
    twoWords: await exact(`${first.word} ${second.word}`),
    hashtag: { word: `#${tag.tag}`, posts: tag.post_count, share: tag.post_count / Math.max(1, totalPosts) },
  }
}

export interface NotificationSummary {
  items: number
  actors: number
  unread: number
  byKind: Record<string, number>
}

/** Items older than this are marked read (as a member who opens the app now and then has them); newer ones unread. */
const READ_AFTER = '3 days'

/**
 * The recipient's notifications as the services would have made them from the seeded data, in one transaction:
 * one item per liked post (every liker an actor, the latest one shown, the count exact) and per reposted post, one
 * per follower, per reply to their posts and per post mentioning them (not their own doing). Replaces whatever the
 * member had, so a reused database gets the same set. Ids are random UUIDs (the list orders by updated_at, id).
 */
export async function seedNotifications(db: Database, recipientId: string): Promise<NotificationSummary> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from notifications where recipient_id = ${recipientId}`)
    await tx.execute(sql`create temporary table bench_happenings (
        kind text, post_id uuid, group_key text, actor_id uuid, at timestamptz) on commit drop`)
    await tx.execute(sql`insert into bench_happenings
        select 'like', l.post_id, 'like:' || l.post_id, l.user_id, l.created_at
          from likes l join posts p on p.id = l.post_id
          where p.author_id = ${recipientId} and l.user_id <> ${recipientId}
        union all
        select 'repost', r.post_id, 'repost:' || r.post_id, r.user_id, r.created_at
          from reposts r join posts p on p.id = r.post_id
          where p.author_id = ${recipientId} and r.user_id <> ${recipientId}
        union all
        select 'follow', null, 'follow:' || f.follower_id, f.follower_id, f.created_at
          from follows f where f.followee_id = ${recipientId}
        union all
        select 'reply', p.id, 'reply:' || p.id, p.author_id, p.created_at
          from posts p where p.reply_to_author_id = ${recipientId} and p.author_id <> ${recipientId}
        union all
        select 'mention', p.id, 'mention:' || p.id, p.author_id, p.created_at
          from post_mentions m join posts p on p.id = m.post_id
          where m.user_id = ${recipientId} and p.author_id <> ${recipientId}
            and p.reply_to_author_id is distinct from ${recipientId}`)
    await tx.execute(sql`insert into notifications
          (id, recipient_id, kind, post_id, group_key, latest_actor_id, actor_count, updated_at, read_at)
        select gen_random_uuid(), ${recipientId}, kind, post_id, group_key,
          (array_agg(actor_id order by at desc, actor_id desc))[1], count(*), max(at),
          case when max(at) < now() - ${READ_AFTER}::interval then max(at) + interval '1 hour' end
        from bench_happenings group by kind, post_id, group_key`)
    await tx.execute(sql`insert into notification_actors (notification_id, actor_id, created_at)
        select n.id, h.actor_id, max(h.at) from bench_happenings h
        join notifications n on n.recipient_id = ${recipientId} and n.group_key = h.group_key
        group by n.id, h.actor_id`)
  })
  await db.execute(sql`analyze notifications`)
  await db.execute(sql`analyze notification_actors`)
  const kinds = await selectRows<{ kind: string; items: number; actors: number; unread: number }>(
    db,
    sql`select kind, count(*)::int as items, sum(actor_count)::int as actors,
          (count(*) filter (where read_at is null))::int as unread
        from notifications where recipient_id = ${recipientId} group by kind order by kind`,
  )
  return {
    items: kinds.reduce((a, k) => a + k.items, 0),
    actors: kinds.reduce((a, k) => a + k.actors, 0),
    unread: kinds.reduce((a, k) => a + k.unread, 0),
    byKind: Object.fromEntries(kinds.map((k) => [k.kind, k.items])),
  }
}
