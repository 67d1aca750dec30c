import { Lru, type LruStats } from './lru'
import { Versions } from './versions'
import { SingleFlight } from './single-flight'

export interface OwnedPagesOptions<V> {
  enabled: boolean
  maxEntries: number
  /** After this a page is gone. */
  ttlMs: number
  /** After this a page is served once more while one background load replaces it. */
  refreshMs: number
  /** Other members a page shows (an item's actor): `dropTag(id)` drops every page that shows them. */
  tagsOf?: (page: V) => Iterable<string>
}

/**
 * Answers kept per member ("owner": the reader they were made for) and per variant of the request (a filter, a
 * query, a page size), dropped by owner, by tag or all at once. The shape of the first-page caches of notifications
 * and member search: the common read is a member's first page, and what changes it is known by whom it concerns.
 *
 * Exact like the other caches (docs/posts-and-feed.md, "Caches"): pages are dropped, never patched; a load that
 * began before a drop is not stored (`Lru.setIfFresh`), and concurrent misses share one load only within one
 * generation, so a request that arrives after a drop never joins a load that started before it.
 */
export class OwnedPages<V> {
  private readonly pages: Lru<string, { owner: string; page: V }>
  /** Page keys, owners (`ownerKey`) and tags (`tagKey`) on one clock: a drop refuses the fills in flight it concerns. */
  private readonly versions = new Versions<string>()
  private readonly loads: SingleFlight<string, V>
  private readonly byOwner = new Map<string, Set<string>>()
  private readonly byTag = new Map<string, Set<string>>()

  constructor(private readonly options: OwnedPagesOptions<V>) {
    this.pages = new Lru({
      maxEntries: options.enabled ? options.maxEntries : 0,
      ttlMs: options.ttlMs,
      refreshMs: options.refreshMs,
      versions: this.versions,
      onRemove: (key, held) => this.unindex(key, held.owner, held.page),
    })
    this.loads = new SingleFlight(options.enabled)
  }

  /** What the cache did since it was made (metrics read it at scrape time). */
  get stats(): LruStats {
    return this.pages.stats
  }

  /** The owner's page for `variant`, from memory or from `load` (stored unless something was dropped meanwhile). */
  async get(owner: string, variant: string, load: () => Promise<V>): Promise<V> {
    const key = `${owner}\n${variant}`
    const held = this.pages.lookup(key)
    if (held && !held.stale) return held.value.page
    const generation = this.pages.generation
    const loading = this.loads.run(`${generation}\n${key}`, async () => {
      const page = await load()
      if (this.fresh(owner, page, generation) && this.pages.setIfFresh(key, { owner, page }, generation)) {
        // Indexed only while held: storing may evict, and in theory the new page itself.
        if (this.pages.has(key)) this.index(key, owner, page)
      }
      return page
    })
    if (held) {
      // Past its reload age: this request gets the held page; the load replaces it for the next ones.
      loading.catch(() => undefined)
      return held.value.page
    }
    return loading
  }

  dropOwner(owner: string): void {
    this.versions.changed(ownerKey(owner))
    this.drop(this.byOwner.get(owner))
  }

  dropTag(tag: string): void {
    this.versions.changed(tagKey(tag))
    this.drop(this.byTag.get(tag))
  }

  /** Neither the owner nor anyone the page shows was dropped since `generation`: a fill in flight is not indexed. */
  private fresh(owner: string, page: V, generation: number): boolean {
    if (!this.versions.unchangedSince(ownerKey(owner), generation)) return false
    for (const tag of this.options.tagsOf?.(page) ?? []) {
      if (!this.versions.unchangedSince(tagKey(tag), generation)) return false
    }
    return true
  }

  clear(): void {
    this.pages.clear()
  }

  private drop(keys: Set<string> | undefined): void {
    if (!keys) return
    for (const key of [...keys]) this.pages.invalidate(key)
  }

  private index(key: string, owner: string, page: V): void {
    add(this.byOwner, owner, key)
    for (const tag of this.options.tagsOf?.(page) ?? []) add(this.byTag, tag, key)
  }

  private unindex(key: string, owner: string, page: V): void {
    remove(this.byOwner, owner, key)
    for (const tag of this.options.tagsOf?.(page) ?? []) remove(this.byTag, tag, key)
  }
}

function add(index: Map<string, Set<string>>, id: string, key: string): void {
  const keys = index.get(id)
  if (keys) keys.add(key)
  else index.set(id, new Set([key]))
}

function remove(index: Map<string, Set<string>>, id: string, key: string): void {
  const keys = index.get(id)
  if (!keys) return
  keys.delete(key)
  if (keys.size === 0) index.delete(id)
}

// Owners' and tags' keys in the record of changes, apart from the pages' own keys (`owner\nvariant`).
const ownerKey = (owner: string) => `\u0001owner:${owner}`
const tagKey = (tag: string) => `\u0001tag:${tag}`
