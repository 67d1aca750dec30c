import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectRows, type SqlExecutor } from '../../db/rows'

// SQL of link previews (schema-link-previews.ts). Times come from the caller's clock.

export interface PreviewState {
  fetched_at: Date | string | null
  failed_at: Date | string | null
  image_key: string | null
}

/** The link a post's card previews (null: none, or the post is gone). */
export async function findPostLink(db: SqlExecutor, postId: string): Promise<string | null> {
  const [row] = await selectRows<{ link_url: string | null }>(db, sql`select link_url from posts where id = ${postId}`)
  return row?.link_url ?? null
}

export async function findPreviewState(db: SqlExecutor, url: string): Promise<PreviewState | undefined> {
  const [row] = await selectRows<PreviewState>(
    db,
    sql`select fetched_at, failed_at, image_key from link_previews where url = ${url}`,
  )
  return row
}

export interface StoredPreview {
  url: string
  title: string
  description: string | null
  siteName: string | null
  image: { key: string; width: number; height: number } | null
  fetchedAt: Date
}

/**
 * Writes a successful read, replacing the previous one; answers the image key it replaced (to delete once no card
 * can still show it). Row-locked, so two posts of one link read at once leave one row and lose no image key.
 */
export async function storePreview(db: Database, preview: StoredPreview): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [old] = await selectRows<{ image_key: string | null }>(
      tx,
      sql`select image_key from link_previews where url = ${preview.url} for update`,
    )
    await tx.execute(
      sql`insert into link_previews (url, title, description, site_name, image_key, image_width, image_height, fetched_at, failed_at)
          values (${preview.url}, ${preview.title}, ${preview.description}, ${preview.siteName}, ${preview.image?.key ?? null},
                  ${preview.image?.width ?? null}, ${preview.image?.height ?? null}, ${preview.fetchedAt.toISOString()}::timestamptz, null)
          on conflict (url) do update set title = excluded.title, description = excluded.description,
            site_name = excluded.site_name, image_key = excluded.image_key, image_width = excluded.image_width,
            image_height = excluded.image_height, fetched_at = excluded.fetched_at, failed_at = null`,
    )
    const replaced = old?.image_key ?? null
    return replaced !== preview.image?.key ? replaced : null
  })
}

/** Remembers a failed read; an earlier successful one stays shown. */
export async function recordFailure(db: SqlExecutor, url: string, at: Date): Promise<void> {
  await db.execute(
    sql`insert into link_previews (url, failed_at) values (${url}, ${at.toISOString()}::timestamptz)
        on conflict (url) do update set failed_at = excluded.failed_at`,
  )
}
