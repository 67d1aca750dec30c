import type { Database } from '../../db/client'
import { Conflict, Invalid, NotFound } from '../../lib/domain-errors'
import { FILTER_LIST_CAP, normalizeDomain, normalizeKeyword } from '../../lib/filter-terms'
import { addFilter, type FilterList, type FilterRow, type FilterTables, listFilter, removeFilter } from './queries'

export type { FilterList, FilterRow, FilterTables }

/** One feature's words for its keyword and domain lists (docs/product.md, "Blocks" and "Mutes"). */
export interface FilterWords {
  /** 409 on an Add of a value the member already has. */
  exists: Record<FilterList, string>
  /** 404 on a removal of a value the member does not have. */
  missing: Record<FilterList, string>
  /** 400 on an Add past FILTER_LIST_CAP. */
  tooMany: (list: FilterList) => string
}

const normalize: Record<FilterList, (raw: string) => string> = { keywords: normalizeKeyword, domains: normalizeDomain }

/**
 * The keyword and domain lists members filter posts by, blocked or muted: the same rules (lib/filter-terms.ts), cap
 * and SQL for both features, which differ only in their tables, their words, and what a change must invalidate.
 */
export class FilterLists {
  constructor(
    private readonly db: Database,
    private readonly tables: FilterTables,
    private readonly words: FilterWords,
    /** Called once a list really changed. */
    private readonly changed: (userId: string) => Promise<void>,
  ) {}

  /** Both lists, alphabetically. */
  async list(userId: string): Promise<Record<FilterList, FilterRow[]>> {
    const [keywords, domains] = await Promise.all([
      listFilter(this.db, this.tables, 'keywords', userId),
      listFilter(this.db, this.tables, 'domains', userId),
    ])
    return { keywords, domains }
  }

  /** The stored row; the value as stored is trimmed (a domain also lowercased). */
  async add(userId: string, list: FilterList, raw: string): Promise<FilterRow> {
    const value = normalize[list](raw)
    const outcome = await this.db.transaction((tx) => addFilter(tx, this.tables, list, userId, value, FILTER_LIST_CAP))
    if (outcome === 'exists') throw new Conflict(this.words.exists[list])
    if (outcome === 'full') throw new Invalid(this.words.tooMany(list))
    await this.changed(userId)
    return outcome
  }

  async remove(userId: string, list: FilterList, raw: string): Promise<void> {
    if (!(await removeFilter(this.db, this.tables, list, userId, normalize[list](raw)))) {
      throw new NotFound(this.words.missing[list])
    }
    await this.changed(userId)
  }
}
