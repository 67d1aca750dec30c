import { sql } from 'drizzle-orm'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { InstancePageSlug } from '../../db/schema-pages'

export interface PageRow {
  body: string
  updated_at: unknown
}

export async function findPage(db: SqlExecutor, slug: InstancePageSlug): Promise<PageRow | undefined> {
  const [row] = await selectRows<PageRow>(db, sql`select body, updated_at from instance_pages where slug = ${slug}`)
  return row
}

/** One statement: the first save creates the row, later ones replace it (two admins at once: the last one wins). */
export async function upsertPage(
  db: SqlExecutor,
  slug: InstancePageSlug,
  body: string,
  updatedBy: string,
): Promise<PageRow> {
  const [row] = await selectRows<PageRow>(
    db,
    sql`insert into instance_pages (slug, body, updated_by, updated_at) values (${slug}, ${body}, ${updatedBy}, now())
        on conflict (slug) do update set body = excluded.body, updated_by = excluded.updated_by, updated_at = now()
        returning body, updated_at`,
  )
  return row!
}
