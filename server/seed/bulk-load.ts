import type pg from 'pg'
import { bulkTables, resetTables } from './tables'

/**
 * PostgreSQL bulk load, all in one transaction so a failure leaves the database exactly as it was (DDL is
 * transactional in PostgreSQL: dropped indexes and constraints come back on rollback):
 *
 * 1. TRUNCATE the seeded tables. They are empty or `--reset` was given; truncating inside the transaction is also
 *    what allows COPY FREEZE, which writes rows already frozen and visible (no hint-bit rewrite or anti-wraparound
 *    vacuum of a million fresh rows later, and index-only scans work at once).
 * 2. Optionally drop the big tables' indexes, primary keys and foreign keys, exactly as the catalog defines them
 *    (whatever migrations made them), and rebuild them after the load: one sort per index and one join per foreign
 *    key instead of a B-tree insert and a lookup per row. Measured in bench/README.md.
 * 3. Analytics' post_daily_stats rebuilt from the loaded rows in one statement, before the keys come back (one
 *    foreign-key join instead of a check per row).
 * 4. The row triggers of post_hashtags (hashtags.post_count and public_post_count, migrations 0009 and 0018) off
 *    during the load and the counts made once after, in one statement. Fired per row they made 558,653 updates of ~110 `hashtags` rows in one
 *    transaction, each walking a row's ever longer chain of versions that the open transaction cannot prune: the
 *    COPY of post_hashtags alone ran for more than 8 minutes on the 2-core machine before it was stopped.
 */

/**
 * The counts the post_hashtags triggers keep, computed from the loaded rows (TRUNCATE fires no row trigger either):
 * every post, and the posts anyone may see (public posts of public accounts, `visibleToAnyone`).
 */
async function recountHashtags(client: pg.Client): Promise<void> {
  await client.query(
    'update hashtags set post_count = 0, public_post_count = 0 where post_count <> 0 or public_post_count <> 0',
  )
  await client.query(
    `insert into hashtags (tag, post_count, public_post_count)
     select ph.tag, count(*)::int, (count(*) filter (where p.visibility = 'public' and not u.private_account))::int
       from post_hashtags ph join posts p on p.id = ph.post_id join users u on u.id = p.author_id
      group by ph.tag
     on conflict (tag) do update set post_count = excluded.post_count, public_post_count = excluded.public_post_count`,
  )
}

interface SavedDefinition {
  kind: 'index' | 'constraint'
  /** Statement that recreates it. */
  create: string
}

export interface BulkLoadOptions {
  dropIndexes: boolean
  log: (line: string) => void
}

/** Constraints first (foreign keys before the keys they reference), then the remaining plain indexes. */
async function dropIndexesAndConstraints(client: pg.Client): Promise<SavedDefinition[]> {
  const tables = bulkTables.map((t) => `"${t}"`)
  const regclasses = `array[${tables.map((t) => `'${t}'::regclass`).join(', ')}]`
  const { rows: constraints } = await client.query<{ tbl: string; name: string; def: string; contype: string }>(
    `select c.conrelid::regclass::text as tbl, c.conname as name, pg_get_constraintdef(c.oid) as def, c.contype
       from pg_constraint c
      where c.contype in ('p', 'u', 'f')
        and (c.conrelid = any(${regclasses}) or (c.contype = 'f' and c.confrelid = any(${regclasses})))
      order by case c.contype when 'f' then 0 else 1 end`,
  )
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i
      where i.indrelid = any(${regclasses})
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
  )
  const saved: SavedDefinition[] = []
  for (const c of constraints) {
    await client.query(`alter table ${c.tbl} drop constraint "${c.name}"`)
    saved.push({ kind: 'constraint', create: `alter table ${c.tbl} add constraint "${c.name}" ${c.def}` })
  }
  for (const i of indexes) {
    await client.query(`drop index ${i.name}`)
    saved.push({ kind: 'index', create: i.def })
  }
  return saved
}

/** Keys and indexes before foreign keys (a foreign key needs the referenced key's unique index). */
async function restore(client: pg.Client, saved: SavedDefinition[], log: (line: string) => void): Promise<void> {
  const isForeignKey = (s: SavedDefinition) => s.kind === 'constraint' && / FOREIGN KEY /i.test(s.create)
  const order = [...saved.filter((s) => !isForeignKey(s)), ...saved.filter(isForeignKey)]
  const started = Date.now()
  for (const s of order) await client.query(s.create)
  log(`  rebuilt ${order.length} indexes and constraints in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

export async function inBulkLoadTransaction<T>(
  client: pg.Client,
  options: BulkLoadOptions,
  load: () => Promise<T>,
): Promise<T> {
  await client.query('begin')
  try {
    await client.query(`truncate ${resetTables.map((t) => `"${t}"`).join(', ')} cascade`)
    // Index builds sort in memory up to this; the default 64 MB spills a million-row sort to disk.
    await client.query(`set local maintenance_work_mem = '256MB'`)
    const saved = options.dropIndexes ? await dropIndexesAndConstraints(client) : []
    await client.query('alter table post_hashtags disable trigger user')
    const result = await load()
    await recountHashtags(client)
    // Analytics' per-day counters (migration `analytics`), made once from the loaded rows while the keys are off: the
    // app keeps them as members act, a bulk load writes likes, reposts and replies without the app.
    await client.query('select rebuild_post_daily_stats()')
    await client.query('alter table post_hashtags enable trigger user')
    await restore(client, saved, options.log)
    await client.query('commit')
    return result
  } catch (err) {
    await client.query('rollback').catch(() => undefined)
    throw err
  }
}
