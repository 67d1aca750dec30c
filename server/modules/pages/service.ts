import { pageBodyProblem } from '../../../src/api/contract/instance-pages'
import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import type { InstancePageSlug } from '../../db/schema-pages'
import type { Schemas } from '../../http/handler-types'
import { Forbidden, Invalid } from '../../lib/domain-errors'
import { recordAudit } from '../admin/queries'
import { ADMINS_ONLY } from '../admin/service'
import { DEFAULT_PAGES, PAGE_TITLES } from './defaults'
import { findPage, type PageRow, upsertPage } from './queries'

export interface PagesDeps {
  db: Database
}

/**
 * The instance's own pages, /terms and /privacy (docs/product.md, "Instance pages"): anyone reads them, admins
 * write them. Stored as markdown exactly as written; the web app renders it without raw HTML.
 */
export class PagesService {
  private readonly db: Database

  constructor(deps: PagesDeps) {
    this.db = deps.db
  }

  async page(slug: InstancePageSlug): Promise<Schemas['InstancePage']> {
    return answer(slug, await findPage(this.db, slug))
  }

  /** Saved and written to the audit log in one transaction. */
  async save(viewer: UserRow, slug: InstancePageSlug, body: string): Promise<Schemas['InstancePage']> {
    if (!viewer.isAdmin) throw new Forbidden(ADMINS_ONLY)
    const problem = pageBodyProblem(body)
    if (problem) throw new Invalid(problem)
    const row = await this.db.transaction(async (tx) => {
      const saved = await upsertPage(tx, slug, body, viewer.id)
      await recordAudit(tx, viewer, 'edit-page', `Edited the ${PAGE_TITLES[slug]}`, { slug })
      return saved
    })
    return answer(slug, row)
  }
}

function answer(slug: InstancePageSlug, row: PageRow | undefined): Schemas['InstancePage'] {
  if (!row) return { slug, title: PAGE_TITLES[slug], body: DEFAULT_PAGES[slug], updatedAt: null, isDefault: true }
  return {
    slug,
    title: PAGE_TITLES[slug],
    body: row.body,
    updatedAt: new Date(row.updated_at as string | Date).toISOString(),
    isDefault: false,
  }
}
