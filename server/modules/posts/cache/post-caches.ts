import type { Invalidation } from '../../../cache/invalidation'
import type { InvalidationTarget } from '../../../cache/invalidations'
import { bypassing, CacheLoads, readThrough } from '../../../cache/read-through'
import type { Database } from '../../../db/client'
import type { Schemas } from '../../../http/handler-types'
import type { Storage } from '../../../storage/storage'
import { loadCards, loadUserSummaries, loadViewerFlags, type ViewerFlags } from '../card-queries'
import { type PostBase, toPost, toPostBase, toQuotedPost, toUserSummary } from '../present'
import { AuthorCache } from './authors'
import { CardCache } from './cards'
import { FlagCache } from './flags'
import { SearchCandidateCache } from './search-candidates'
import { TimelineCache } from './timelines'

/** Cached list timelines at most (each is one list read by one member). */
export const LIST_TIMELINE_MAX = 5_000

/** A list timeline's cache key: the list, then its reader. */
export const listTimelineKey = (listId: string, readerId: string) => `${listId}:${readerId}`
const listOf = (key: string) => key.slice(0, key.indexOf(':'))
const readerOf = (key: string) => key.slice(key.indexOf(':') + 1)

type Post = Schemas['Post']
type UserSummary = Schemas['UserSummary']

/**
 * The read side of posts, served from memory when it can be: cards, authors, per-viewer flags and the first feed
 * page of keys. `apply` is where every invalidation lands (docs/posts-and-feed.md, "Caches", says what may be stale
 * and for how long). With `enabled` false every cache holds nothing, so each read takes the database path (the
 * benchmark's cache-miss run).
 */
export class PostCaches implements InvalidationTarget {
  readonly cards: CardCache
  readonly authors: AuthorCache
  readonly flags: FlagCache
  readonly timelines: TimelineCache
  /**
   * The first keys of list timelines, per list and reader (`listTimelineKey`), indexed by the list's members: the
   * same cache as the home feed's, with the list's members as each entry's sources.
   */
  readonly listTimelines: TimelineCache
  /**
   * Every use checks its candidates against the database (search-results.ts), so nothing it holds is shown wrongly;
   * only an edit, whose new words its sets cannot know, drops them all (`post-edited`).
   */
  readonly searches: SearchCandidateCache
  /** False: every cache holds nothing (the benchmark's cache-miss run). */
  readonly enabled: boolean
  // Keyed by the exact ids (and viewer) missing: concurrent requests for the same page share one query.
  private readonly cardLoads: CacheLoads<PostBase[]>
  private readonly flagLoads: CacheLoads<Map<string, ViewerFlags>>
  private readonly summaryLoads: CacheLoads<UserSummary[]>

  private readonly db: Database
  private readonly storage: Storage
  private readonly warn: (err: unknown) => void

  constructor(deps: { db: Database; storage: Storage; enabled: boolean; warn?: (message: string, err: unknown) => void }) {
    const { enabled } = deps
    this.enabled = enabled
    this.db = deps.db
    this.storage = deps.storage
    // A failed reload behind an answer costs nothing but the stale entry staying a little longer.
    this.warn = (err) => deps.warn?.('could not reload a cached post, author or flag', err)
    this.cards = new CardCache(enabled)
    this.authors = new AuthorCache(enabled)
    this.flags = new FlagCache(enabled)
    this.timelines = new TimelineCache(enabled)
    this.listTimelines = new TimelineCache(enabled, LIST_TIMELINE_MAX)
    this.searches = new SearchCandidateCache(enabled)
    this.cardLoads = new CacheLoads(this.cards, enabled)
    this.flagLoads = new CacheLoads(this.flags, enabled)
    this.summaryLoads = new CacheLoads(this.authors, enabled)
  }

  apply(message: Invalidation): void {
    switch (message.kind) {
      case 'member-changed':
        this.authors.evict(message.userId)
        return
      case 'follows-changed':
        // Their feed's sources changed, and so did which followers-only replies they may count.
        this.timelines.evictMember(message.userId)
        this.listTimelines.evictWhere((key) => readerOf(key) === message.userId)
        this.flags.evictViewer(message.userId)
        return
      case 'audience-changed':
        this.timelines.clear()
        this.listTimelines.clear()
        this.flags.clear()
        return
      case 'author-activity':
        // A new item at the top keeps the timelines it is in (their top is read again when next served); anything
        // else a source does to them (an un-repost can move or remove an item anywhere) drops them.
        for (const cache of [this.timelines, this.listTimelines]) {
          if (message.added) cache.sourceAdded(message.authorId)
          else cache.sourceChanged(message.authorId)
        }
        return
      case 'posts-changed':
        this.cards.evict(message.postIds)
        return
      case 'post-edited':
        // Its words may now match other searches, and its author's readers' muted keywords differently: the
        // timelines of the author's readers are read again, and those listing it go (a narrower audience).
        this.cards.evict([message.postId])
        this.searches.clear()
        for (const cache of [this.timelines, this.listTimelines]) {
          cache.sourceChanged(message.authorId)
          cache.postsDeleted([message.postId])
        }
        if (message.audienceChanged) this.flags.evictPosts([message.postId])
        return
      case 'posts-deleted':
        this.cards.evict(message.postIds)
        this.flags.evictPosts(message.postIds)
        this.timelines.postsDeleted(message.postIds)
        this.listTimelines.postsDeleted(message.postIds)
        return
      case 'restricted-replies-changed':
        this.flags.evictPosts(message.postIds)
        return
      case 'reactions-changed':
        this.flags.evictViewer(message.userId)
        return
      case 'lists-changed': {
        const lists = new Set(message.listIds)
        this.listTimelines.evictWhere((key) => lists.has(listOf(key)))
        return
      }
      case 'everything-changed':
        for (const cache of [this.cards, this.authors, this.flags, this.timelines, this.listTimelines, this.searches]) cache.clear()
        return
      case 'sessions-ended':
        return
    }
  }

  /** Member summaries by id, loading the missing ones in one query. */
  summaries(ids: readonly string[]): Promise<Map<string, UserSummary>> {
    return readThrough(this.authors.lookup(ids), async (missing) => (await this.loadSummaries(missing)).map((row) => [row.id, row] as const), this.warn)
  }

  private loadSummaries(ids: string[]): Promise<UserSummary[]> {
    return this.summaryLoads.run(ids.join(), async (generation) => {
      const rows = (await loadUserSummaries(this.db, ids)).map(toUserSummary)
      this.authors.storeIfFresh(rows, generation)
      return rows
    })
  }

  /**
   * Posts as the viewer sees them, for ids the caller has already checked the viewer may see: cards and flags from
   * memory, the missing ones in one query each. Ids that no longer exist are simply absent. Ids in `fresh` are read
   * from the database whatever is cached (a post's own page shows its counts as stored, including views counted
   * by other processes), and the cache is refreshed with them.
   */
  async posts(viewerId: string, ids: readonly string[], fresh?: ReadonlySet<string>): Promise<Map<string, Post>> {
    const unique = [...new Set(ids)]
    if (unique.length === 0) return new Map()
    const [cards, flags] = await Promise.all([this.cardsFor(unique, fresh), this.flagsFor(viewerId, unique, fresh)])
    // Quoted posts the viewer may see: their own cards, read from the same cache in a second step.
    const quotedIds: string[] = []
    for (const card of cards.values()) {
      if (card.quoteOf !== null && flags.get(card.id)?.quote_visible) quotedIds.push(card.quoteOf)
    }
    const quoted = quotedIds.length === 0 ? new Map<string, PostBase>() : await this.cardsFor(quotedIds, undefined)
    const authorIds: string[] = []
    for (const card of cards.values()) authorIds.push(card.authorId)
    for (const card of quoted.values()) authorIds.push(card.authorId)
    const authors = await this.summaries(authorIds)
    const quoteOf = (card: PostBase, mine: ViewerFlags): Schemas['PostQuote'] | null => {
      if (!card.quotes) return null
      const inner = card.quoteOf !== null && mine.quote_visible ? quoted.get(card.quoteOf) : undefined
      const innerAuthor = inner && authors.get(inner.authorId)
      return { post: inner && innerAuthor ? toQuotedPost(inner, innerAuthor) : null }
    }
    const out = new Map<string, Post>()
    for (const id of unique) {
      const card = cards.get(id)
      const author = card && authors.get(card.authorId)
      const mine = flags.get(id)
      // A card without flags (or author) was deleted between the reads: absent, like a post that does not exist.
      if (!card || !author || !mine) continue
      out.set(
        id,
        toPost(card, {
          author,
          liked: mine.liked,
          reposted: mine.reposted,
          bookmarked: mine.bookmarked,
          hiddenReplies: mine.hidden_replies,
          quote: quoteOf(card, mine),
          pollChoices: mine.poll_choices,
        }),
      )
    }
    return out
  }

  private cardsFor(ids: readonly string[], fresh: ReadonlySet<string> | undefined): Promise<Map<string, PostBase>> {
    const hit = bypassing((keys) => this.cards.lookup(keys), ids, fresh)
    return readThrough(hit, async (missing) => (await this.loadCards(missing)).map((card) => [card.id, card] as const), this.warn)
  }

  private loadCards(ids: string[]): Promise<PostBase[]> {
    return this.cardLoads.run(ids.join(), async (cardGeneration) => {
      // Cards carry their authors: stored too, unless the author cache changed meanwhile.
      const authorGeneration = this.authors.generation
      const rows = await loadCards(this.db, ids)
      const cards = rows.map((row) => toPostBase(row, this.storage))
      this.cards.storeIfFresh(cards, cardGeneration)
      this.authors.storeIfFresh(
        rows.map((row) => toUserSummary({ ...row, id: row.author_id })),
        authorGeneration,
      )
      return cards
    })
  }

  private flagsFor(viewerId: string, ids: readonly string[], fresh: ReadonlySet<string> | undefined): Promise<Map<string, ViewerFlags>> {
    const hit = bypassing((keys) => this.flags.lookup(viewerId, keys), ids, fresh)
    return readThrough(hit, (missing) => this.loadFlags(viewerId, missing), this.warn)
  }

  private loadFlags(viewerId: string, ids: string[]): Promise<Map<string, ViewerFlags>> {
    return this.flagLoads.run(`${viewerId}:${ids.join()}`, async (generation) => {
      const loaded = new Map<string, ViewerFlags>()
      for (const row of await loadViewerFlags(this.db, viewerId, ids)) {
        loaded.set(row.id, {
          liked: row.liked,
          reposted: row.reposted,
          bookmarked: row.bookmarked,
          hidden_replies: row.hidden_replies,
          quote_visible: row.quote_visible,
          poll_choices: row.poll_choices,
        })
      }
      this.flags.storeIfFresh(viewerId, loaded, generation)
      return loaded
    })
  }
}
