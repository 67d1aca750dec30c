/**
 * EXPLAIN ANALYZE of the home feed at scale (docs/posts-and-feed.md): builds 1M posts, 50k members, 500k follows and
 * ~90k reposts in a throwaway schema of a PostgreSQL database, runs the feed statements for a member following 2,000
 * accounts and one following 20, prints timings and plans, then drops the schema.
 *
 *   npx tsx docs/tools/feed-explain.ts [--url postgres://...] [--plans] [--keep] [--reuse] [--only-scan]
 *
 * --keep leaves the schema for another run with --reuse (generation takes a minute or two).
 */
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PgDialect } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { openDatabase } from '../../server/db/client'
import { feedKeys, feedStatement, type FeedPlan } from '../../server/modules/posts/feed-queries'
import { hydratePosts } from '../../server/modules/posts/queries'

const urlFlag = process.argv.indexOf('--url')
const url = (urlFlag > 0 ? process.argv[urlFlag + 1] : undefined) ?? 'postgres://postgres@127.0.0.1:5432/test'
const schema = 'feedexplain_posts'
const keep = process.argv.includes('--keep')
const reuse = process.argv.includes('--reuse')
const admin = new pg.Client({ connectionString: url })
await admin.connect()
if (!reuse) await admin.query(`drop schema if exists ${schema} cascade`)
const handle = await openDatabase({ url, dataDir: await mkdtemp(path.join(os.tmpdir(), 'fx-')), schema })
const db = handle.db
const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` })
await client.connect()

const V2000 = '00000000-0000-7000-8000-00000000a000'
const V20 = '00000000-0000-7000-8000-00000000b000'

if (!reuse) {
  console.time('generate')
  await client.query(`
    insert into users (id, username, email, display_name, password_hash)
    select gen_random_uuid(), 'u' || g, 'u' || g || '@x.test', 'User ' || g, 'x' from generate_series(1, 50000) g;
    insert into users (id, username, email, display_name, password_hash) values
      ('${V2000}', 'viewer2000', 'v2000@x.test', 'Viewer 2000', 'x'), ('${V20}', 'viewer20', 'v20@x.test', 'Viewer 20', 'x');
    create temp table uidx as select row_number() over (order by id) as n, id from users where username like 'u%';
    create unique index on uidx(n);
    -- 1M posts, authors power-law distributed (a few members write most), spread over a year.
    insert into posts (id, author_id, content, visibility, created_at)
    select gen_random_uuid(), (select id from uidx where n = x.a), 'post ' || x.g || ' #tag' || (x.g % 100), x.vis,
           now() - random() * interval '365 days'
    from (select g, floor(50000 * power(random(), 3))::int + 1 as a,
                 case when random() < 0.9 then 'public' when random() < 0.5 then 'followers' else 'mentioned' end as vis
          from generate_series(1, 1000000) g) x;
  `)
  // 15% of posts become replies to another post.
  await client.query(`
    with pairs as (
      select c.id as child, p.id as parent, p.author_id as parent_author
      from (select id, row_number() over () rn from posts tablesample system (15)) c
      join (select id, author_id, row_number() over () rn from posts tablesample system (15)) p on p.rn = c.rn + 1
      where c.id <> p.id)
    update posts set reply_to = pairs.parent, reply_to_author_id = pairs.parent_author from pairs where posts.id = pairs.child;
  `)
  await client.query(`
    insert into follows (follower_id, followee_id)
    select '${V2000}', id from uidx where n in (select distinct floor(50000 * power(random(), 2))::int + 1 from generate_series(1, 5000)) limit 2000;
    insert into follows (follower_id, followee_id)
    select '${V20}', id from uidx where n in (select floor(50000 * random())::int + 1 from generate_series(1, 20)) limit 20;
    insert into follows (follower_id, followee_id)
    select a.id, b.id from (select floor(50000 * random())::int + 1 x, floor(50000 * power(random(), 3))::int + 1 y from generate_series(1, 500000)) r
    join uidx a on a.n = r.x join uidx b on b.n = r.y where a.id <> b.id on conflict do nothing;
    insert into reposts (user_id, post_id, created_at)
    select u.id, p.id, p.created_at + random() * interval '2 days'
    from (select id, created_at, row_number() over () rn from posts tablesample system (10) where visibility = 'public' limit 100000) p
    join uidx u on u.n = (p.rn % 50000) + 1 on conflict do nothing;
    insert into likes (user_id, post_id)
    select u.id, p.id from (select id, row_number() over () rn from posts tablesample system (20) limit 200000) p
    join uidx u on u.n = (p.rn * 7 % 50000) + 1 on conflict do nothing;
    insert into post_mentions (post_id, user_id)
    select p.id, '${V2000}' from posts p where p.visibility = 'mentioned' and random() < 0.01;
    update users u set following_count = c.n from (select follower_id, count(*) n from follows group by 1) c where u.id = c.follower_id;
  `)
  await client.query('vacuum analyze')
  console.timeEnd('generate')
}
const counts = await client.query(
  `select (select count(*) from posts) posts, (select count(*) from follows where follower_id = '${V2000}') f2000,
          (select count(*) from reposts) reposts, pg_size_pretty(pg_total_relation_size('posts')) posts_size`,
)
console.log(counts.rows[0])

const dialect = new PgDialect()
async function explain(label: string, viewer: string, plan: FeedPlan, cursor?: { at: string; id: string }) {
  const query = dialect.sqlToQuery(feedStatement(viewer, cursor, 21, plan))
  // The app runs it as a named prepared statement: after a few executions PostgreSQL plans it once (generic plan).
  const name = `x_${label.replace(/\W/g, '_')}`
  const typed = query.params.map(() => 'unknown').join(', ')
  await client.query(`prepare ${name}(${typed}) as ${query.sql}`)
  const values = query.params.map((p) => (typeof p === 'string' ? `'${p}'` : String(p))).join(', ')
  let last = ''
  const times: number[] = []
  for (let i = 0; i < 12; i += 1) {
    const res = await client.query(`explain (analyze, buffers) execute ${name}(${values})`)
    last = res.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')
    const exec = /Execution Time: ([\d.]+)/.exec(last)
    const planning = /Planning Time: ([\d.]+)/.exec(last)
    times.push(Number(exec?.[1]) + Number(planning?.[1] ?? 0))
  }
  times.sort((a, b) => a - b)
  console.log(`\n=== ${label}: plan+execute over 12 runs: min ${times[0]?.toFixed(2)} ms, median ${times[6]?.toFixed(2)} ms, max ${times[11]?.toFixed(2)} ms`)
  if (process.argv.includes('--plans')) console.log(last)
  else console.log(last.split('\n').filter((l) => /Time:|One-Time|Limit  \(|Index (Only )?Scan/.test(l)).slice(0, 40).join('\n'))
  await client.query(`deallocate ${name}`)
}

await explain('viewer following 2000, scan plan, first page', V2000, 'scan')
if (!process.argv.includes('--only-scan')) await explain('viewer following 2000, per-source plan, first page', V2000, 'per-source')
if (!process.argv.includes('--only-scan')) await explain('viewer following 20, per-source plan, first page', V20, 'per-source')
if (!process.argv.includes('--only-scan')) await explain('viewer following 20, scan plan (fallback), first page', V20, 'scan')
const first = await feedKeys(db, V2000, undefined, 21, 'scan')
const last = first[19]
if (last) await explain('viewer following 2000, scan plan, second page', V2000, 'scan', { at: last.at, id: last.post_id })

// End to end through the app's code (keys + hydration), as a request would run it, on one connection after warm-up.
for (const [label, viewer, plan] of [['2000', V2000, 'scan'], ['20', V20, 'per-source']] as const) {
  const times: number[] = []
  for (let i = 0; i < 60; i += 1) {
    const started = performance.now()
    const keys = await feedKeys(db, viewer, undefined, 21, plan)
    await hydratePosts(db, viewer, keys.slice(0, 20).map((k) => k.post_id))
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  console.log(`keys+hydrate through drizzle/pg, viewer following ${label}: median ${times[30]?.toFixed(2)} ms, p90 ${times[54]?.toFixed(2)} ms`)
}

await client.end()
await handle.close()
if (!keep) await admin.query(`drop schema if exists ${schema} cascade`)
await admin.end()
