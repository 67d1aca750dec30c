import type pg from 'pg'

/**
 * The writing features on the seeded posts, so the feed bench measures cards as members now see them
 * (FEATURE_SHARES, in percent): public top-level posts that quote the public post before them, top-level posts with
 * a poll (the newest open, the rest closed, with votes, demo_reader's among them), and top-level posts linking one
 * of a few hundred pages whose preview has been read. Written in SQL
 * after the bulk seed (server/seed knows nothing of these), with every counter the app keeps exact computed from
 * the rows, so the data is as consistent as the app's own writes would leave it.
 *
 * A post is picked by a hash of its id, so the shares hold on any page of any timeline, not only overall.
 */
export const FEATURE_SHARES = { quotes: 25, polls: 10, previews: 20 } as const

/** Distinct linked pages: previews are cached per URL, so many posts share each one, as links do. */
const LINKED_PAGES = 400
/** Members who vote in every poll (besides demo_reader in half of them). */
const VOTERS = 5

export interface FeatureCounts {
  quotes: number
  polls: number
  pollVotes: number
  previews: number
  linkedPages: number
  seconds: number
}

export async function addWritingFeatures(client: pg.Client): Promise<FeatureCounts> {
  const started = Date.now()
  const q = FEATURE_SHARES.quotes
  const p = FEATURE_SHARES.polls
  const l = FEATURE_SHARES.previews
  await client.query('begin')
  try {
    // A bucket 0-99 per top-level post from its id: quotes take the first q (public posts only: a quote may be of
    // any audience, but ours are public so they count in quote_count), polls the next p, links the next l.
    await client.query(`create temporary table feature_posts on commit drop as
      select id, created_at, visibility, abs(hashtext(id::text)) % 100 as bucket
        from posts where reply_to is null`)
    // Each quote quotes the public post just before it: only a public post can be quoted (posts/quotes.ts).
    const quotes = await client.query(
      `update posts set quote_of = f.previous_public
         from (select id, bucket, lag(id) over (order by created_at, id) as previous_public
                 from feature_posts where visibility = 'public') f
        where posts.id = f.id and f.bucket < $1 and f.previous_public is not null`,
      [q],
    )
    // quote_count: public quotes still attached, as posts/quotes.ts keeps it.
    await client.query(`update posts set quote_count = n.count
        from (select quote_of, count(*)::int as count from posts
               where quote_of is not null and visibility = 'public' and quote_detached_at is null
               group by quote_of) n
       where posts.id = n.quote_of`)

    // Polls close a day after posting: the newest are open, the rest closed, as on a live instance.
    const polls = await client.query(
      `insert into polls (post_id, multiple, closes_at)
       select id, bucket % 2 = 0, created_at + interval '1 day' from feature_posts
        where bucket >= $1 and bucket < $2`,
      [q, q + p],
    )
    await client.query(`insert into poll_options (id, post_id, position, text)
      select gen_random_uuid(), pl.post_id, o.position, o.text
        from polls pl
        cross join (values (0, 'Mornings'), (1, 'Evenings'), (2, 'Whenever the kettle is on')) as o(position, text)`)
    const votes = await client.query(
      `insert into poll_votes (post_id, user_id, option_id)
       select pl.post_id, v.id, o.id
         from polls pl
         join lateral (
           (select id from users where username <> 'demo_reader' order by id limit ${VOTERS})
           union all
           (select id from users where username = 'demo_reader' and abs(hashtext(pl.post_id::text)) % 2 = 0)
         ) v on true
         join poll_options o on o.post_id = pl.post_id
          and o.position = abs(hashtext(v.id::text || pl.post_id::text)) % 3`,
    )
    await client.query(`update poll_options set votes_count = n.count
        from (select option_id, count(*)::int as count from poll_votes group by option_id) n
       where poll_options.id = n.option_id`)
    await client.query(`update polls set voters_count = n.count
        from (select post_id, count(distinct user_id)::int as count from poll_votes group by post_id) n
       where polls.post_id = n.post_id`)

    // Links: the URL is already in normalized form (server/modules/link-previews/url.ts), as the app stores it.
    await client.query(
      `insert into link_previews (url, title, description, site_name, image_key, image_width, image_height, fetched_at)
       select 'https://news.example/stories/' || n,
              'Story ' || n || ': what the neighbours built this week',
              'A short account of the week''s work on the allotments, the repair café and the new cycle lane.',
              'News Example',
              case when n % 2 = 0 then 'previews/bench-' || n || '.webp' end,
              case when n % 2 = 0 then 1200 end,
              case when n % 2 = 0 then 630 end,
              now()
         from generate_series(1, $1::int) n
       on conflict (url) do nothing`,
      [LINKED_PAGES],
    )
    const previews = await client.query(
      `update posts set
          content = left(posts.content, 460) || ' https://news.example/stories/' || (1 + abs(hashtext(f.id::text || 'link')) % $3::int),
          link_url = 'https://news.example/stories/' || (1 + abs(hashtext(f.id::text || 'link')) % $3::int)
         from feature_posts f
        where posts.id = f.id and f.bucket >= $1 and f.bucket < $2`,
      [q + p, q + p + l, LINKED_PAGES],
    )
    await client.query('commit')
    await client.query('vacuum (analyze) posts, polls, poll_options, poll_votes, link_previews')
    // Those updates rewrote a third of the posts: flushed now, so the checkpoint does not land in the first
    // measurement.
    await client.query('checkpoint')
    return {
      quotes: quotes.rowCount ?? 0,
      polls: polls.rowCount ?? 0,
      pollVotes: votes.rowCount ?? 0,
      previews: previews.rowCount ?? 0,
      linkedPages: LINKED_PAGES,
      seconds: (Date.now() - started) / 1000,
    }
  } catch (err) {
    await client.query('rollback')
    throw err
  }
}
