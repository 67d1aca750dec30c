import type { Invalidation } from '../../../cache/invalidation'
import type { InvalidationTarget } from '../../../cache/invalidations'
import type { Database } from '../../../db/client'
import { loadCards, loadUserSummaries, loadViewerFlags, type PostCard, type ViewerFlags } from '../card-queries'
import type { UserSummaryRow } from '../present'
import type { PostViewRow } from '../queries'
import { AuthorCache } from './authors'
import { CardCache } from './cards'
import { FlagCache } from './flags'
import { TimelineCache } from './timelines'

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

  constructor(
    private readonly db: Database,
    enabled = true,
  ) {
    this.cards = new CardCache(enabled)
    this.authors = new AuthorCache(enabled)
    this.flags = new FlagCache(enabled)
    this.timelines = new TimelineCache(enabled)
  }

  apply(message: Invalidation): void {
    switch (message.kind) {
      case 'member-changed':
        this.authors.evict(message.userId)
        return
      case 'follows-changed':
        // Their feed's sources changed, and so did which followers-only replies they may count.
        this.timelines.evictMember(message.userId)
        this.flags.evictViewer(message.userId)
        return
      case 'author-activity':
        this.timelines.sourceChanged(message.authorId)
        return
      case 'posts-changed':
        this.cards.evict(message.postIds)
        return
      case 'posts-deleted':
        this.cards.evict(message.postIds)
        this.flags.evictPosts(message.postIds)
        this.timelines.postsDeleted(message.postIds)
        return
      case 'restricted-replies-changed':
        this.flags.evictPosts(message.postIds)
        return
      case 'reactions-changed':
        this.flags.evictViewer(message.userId)
        return
      case 'sessions-ended':
        return
    }
  }

  /** Member summaries by id, loading the missing ones in one query. */
  async summaries(ids: readonly string[]): Promise<Map<string, UserSummaryRow>> {
    const { found, missing } = this.authors.lookup(ids)
    if (missing.length > 0) {
      const generation = this.authors.generation
      const rows = await loadUserSummaries(this.db, missing)
      this.authors.storeIfFresh(rows, generation)
      for (const row of rows) found.set(row.id, row)
    }
    return found
  }

  /**
   * What hydratePosts returns, for ids the caller has already checked the viewer may see: cards and flags from
   * memory, the missing ones in one query each. Ids that no longer exist are simply absent. Ids in `fresh` are read
   * from the database whatever is cached (a post's own page shows its counts as stored, including views counted
   * by other processes), and the cache is refreshed with them.
   */
  async postViews(
    viewerId: string,
    ids: readonly string[],
    fresh: ReadonlySet<string> = new Set(),
  ): Promise<Map<string, PostViewRow>> {
    const unique = [...new Set(ids)]
    if (unique.length === 0) return new Map()
    const [cards, flags] = await Promise.all([this.cardsFor(unique, fresh), this.flagsFor(viewerId, unique, fresh)])
    const authors = await this.summaries([...cards.values()].map((c) => c.author_id))
    const out = new Map<string, PostViewRow>()
    for (const id of unique) {
      const card = cards.get(id)
      const author = card && authors.get(card.author_id)
      const mine = flags.get(id)
      // A card without flags (or author) was deleted between the reads: absent, like a post that does not exist.
      if (!card || !author || !mine) continue
      out.set(id, {
        ...card,
        username: author.username,
        display_name: author.display_name,
        avatar: author.avatar,
        verified: author.verified,
        reply_count: card.reply_count + mine.hidden_replies,
        liked: mine.liked,
        reposted: mine.reposted,
      })
    }
    return out
  }

  private async cardsFor(ids: readonly string[], fresh: ReadonlySet<string>): Promise<Map<string, PostCard>> {
    const { found, missing } = this.cards.lookup(ids.filter((id) => !fresh.has(id)))
    missing.push(...ids.filter((id) => fresh.has(id)))
    if (missing.length === 0) return found
    const cardGeneration = this.cards.generation
    const authorGeneration = this.authors.generation
    const rows = await loadCards(this.db, missing)
    const cards: PostCard[] = []
    const authors: UserSummaryRow[] = []
    for (const { username, display_name, avatar, verified, ...card } of rows) {
      cards.push(card)
      authors.push({ id: card.author_id, username, display_name, avatar, verified })
      found.set(card.id, card)
    }
    this.cards.storeIfFresh(cards, cardGeneration)
    this.authors.storeIfFresh(authors, authorGeneration)
    return found
  }

  private async flagsFor(
    viewerId: string,
    ids: readonly string[],
    fresh: ReadonlySet<string>,
  ): Promise<Map<string, ViewerFlags>> {
    const { found, missing } = this.flags.lookup(
      viewerId,
      ids.filter((id) => !fresh.has(id)),
    )
    missing.push(...ids.filter((id) => fresh.has(id)))
    if (missing.length === 0) return found
    const generation = this.flags.generation
    const rows = await loadViewerFlags(this.db, viewerId, missing)
    const loaded = new Map<string, ViewerFlags>()
    for (const { id, ...f } of rows) {
      loaded.set(id, f)
      found.set(id, f)
    }
    this.flags.storeIfFresh(viewerId, loaded, generation)
    return found
  }
}
