import { LIMITS } from '../../../src/api/contract/limits'
import { CONFIRM_EMAIL_TO_POST } from '../../../src/api/contract/email'
import type { Config } from '../../config'
import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { WriteLimits } from '../../lib/write-limits'
import { uuidv7 } from '../../db/ids'
import type { UserRow } from '../../db/schema'
import type { Visibility } from '../../db/schema-posts'
import { Forbidden, Invalid, NotFound } from '../../lib/domain-errors'
import type { Schemas } from '../../http/handler-types'
import type { UploadedFile } from '../../http/uploads'
import { encodeCursor, type PageRequest } from '../../lib/cursor'
import { codePointLength } from '../../lib/lengths'
import type { ImageProcessor } from '../../media/images'
import type { VideoProcessor } from '../../media/videos'
import { deleteQuietly, type Storage } from '../../storage/storage'
import type { Happening } from '../notifications/queries'
import type { NotificationService } from '../notifications/service'
import type { LinkPreviewService } from '../link-previews/service'
import { type PollFields, pollFromForm } from '../polls/input'
import type { PollService } from '../polls/service'
import { normalizeLinkUrl } from '../link-previews/url'
import type { PostCaches } from './cache/post-caches'
import { toFeedPost } from './present'
import { FeedTimelines } from './cache/feed-timelines'
import { exploreKeys } from './explore-queries'
import { feedKeys, feedPlanFor, type FeedKey } from './feed-queries'
import { storePostMedia } from './post-media'
import { profileKeys, type ProfileTab } from './profile-queries'
import { searchKeys } from './search-queries'
import { cachedSearchKeys } from './search-results'
import { isEmptySearch, parseSearch } from './search-terms'
import {
  deleteThread,
  findMentionable,
  findPostPage,
  findVisiblePost,
  insertPost,
  type KeyRow,
  type PostRef,
} from './queries'
import type { Reaction } from './reaction-queries'
import { Reactions, type ReactionState } from './reactions'
import { parseText } from './text'
import type { ViewCounter } from './views'
import { POST_NOT_FOUND } from '../visibility/visibility'

export const CONTENT_REQUIRED = 'Content is required when no media is attached'
export { ONLY_PUBLIC_REPOSTS } from './reactions'
export const NOT_YOUR_POST = 'You can only delete your own posts'
export const SEARCH_REQUIRED = 'Search query is required'

/** Who a new post notifies: the parent's author of a reply, and each member it mentions (the parent's author once). */
function postHappenings(authorId: string, postId: string, parentAuthorId: string | null, mentionIds: readonly string[]): Happening[] {
  const reply: Happening[] = parentAuthorId ? [{ kind: 'reply', recipientId: parentAuthorId, actorId: authorId, postId }] : []
  const mentions = mentionIds
    .filter((id) => id !== parentAuthorId)
    .map((id): Happening => ({ kind: 'mention', recipientId: id, actorId: authorId, postId }))
  return [...reply, ...mentions]
}

/** The text fields of the multipart form, as the contract validated them. */
export interface CreatePostInput extends PollFields {
  content?: string
  visibility?: Visibility
  sensitive?: 'true' | 'false'
  sensitiveReason?: string
  replyTo?: string
  alt?: string[]
}

export interface Page<T> {
  items: T[]
  nextCursor: string | null
}

type Post = Schemas['Post']
type FeedPost = Schemas['FeedPost']

const blankToNull = (text: string | undefined) => {
  const trimmed = text?.trim()
  return trimmed ? trimmed : null
}

/** What PostService needs, by the names of the services registry (server/services.ts). */
export interface PostDeps {
  db: Database
  /** Counted before each write (server/lib/write-limits.ts). */
  writeLimits: WriteLimits
  storage: Storage
  images: ImageProcessor
  videos: VideoProcessor
  views: ViewCounter
  postCaches: PostCaches
  invalidations: Invalidations
  /** Replies, mentions, likes and reposts notify (in the same transaction). */
  notifications: NotificationService
  /** A post with a link has its preview read after it is created (queued in the same transaction). */
  linkPreviews: LinkPreviewService
  /** A post's poll is made in the post's transaction. */
  polls: PollService
  /** Failures nobody waits for: a file that could not be deleted, a timeline reload behind a request. */
  warn: (message: string, err: unknown) => void
  /** REQUIRE_VERIFIED_EMAIL: unconfirmed members may not post. */
  config: Pick<Config, 'requireVerifiedEmail'>
}

/** Posting, reading, deleting and reacting; every read applies the viewer's visibility (visibility/visibility.ts). */
export class PostService {
  private readonly db: Database
  private readonly writeLimits: WriteLimits
  private readonly storage: Storage
  private readonly images: ImageProcessor
  private readonly videos: VideoProcessor
  private readonly views: ViewCounter
  private readonly caches: PostCaches
  private readonly invalidations: Invalidations
  private readonly notifications: NotificationService
  private readonly linkPreviews: LinkPreviewService
  private readonly polls: PollService
  private readonly log: PostDeps['warn']
  /** The first keys of home and list feeds, from memory when they are cached. */
  private readonly timelines: FeedTimelines
  private readonly requireVerifiedEmail: boolean
  /** Likes and reposts, written in batches (reactions.ts). */
  private readonly reactions: Reactions

  constructor(deps: PostDeps) {
    this.db = deps.db
    this.writeLimits = deps.writeLimits
    this.storage = deps.storage
    this.images = deps.images
    this.videos = deps.videos
    this.views = deps.views
    this.caches = deps.postCaches
    this.timelines = new FeedTimelines({ db: deps.db, caches: deps.postCaches, enabled: deps.postCaches.enabled, warn: deps.warn })
    this.invalidations = deps.invalidations
    this.notifications = deps.notifications
    this.linkPreviews = deps.linkPreviews
    this.polls = deps.polls
    this.log = deps.warn
    this.requireVerifiedEmail = deps.config.requireVerifiedEmail
    this.reactions = new Reactions(deps)
  }

  /** On shutdown, before the database closes: the likes and reposts being written are stored and answered. */
  close(): Promise<void> {
    return this.reactions.close()
  }

  /** A reply changes its parent's card (public replies are counted on it) or viewers' counts of hidden ones. */
  private async replyChanged(parentId: string, visibility: Visibility): Promise<void> {
    await this.invalidations.emit(
      visibility === 'public'
        ? { kind: 'posts-changed', postIds: [parentId] }
        : { kind: 'restricted-replies-changed', postIds: [parentId] },
    )
  }

  // ---- writing --------------------------------------------------------------------------------------------------

  async create(author: UserRow, input: CreatePostInput, files: readonly UploadedFile[]): Promise<Post> {
    // Posts and replies alike: confirming the address is what the instance asked of who may write.
    if (this.requireVerifiedEmail && author.emailVerifiedAt === null) throw new Forbidden(CONFIRM_EMAIL_TO_POST)
    const content = input.content ?? ''
    // The contract's maxLength counts code points too; checked again because the rule must not depend on it.
    if (codePointLength(content) > LIMITS.postLength) {
      throw new Invalid(`Content must be at most ${LIMITS.postLength} characters`)
    }
    if (content.trim() === '' && files.length === 0) throw new Invalid(CONTENT_REQUIRED)
    const alts = (input.alt ?? []).map((a) => blankToNull(a))
    if (alts.length > files.length) throw new Invalid('Each alt text must describe an attached media file')
    const poll = pollFromForm(input, files.length)

    const sensitive = input.sensitive === 'true'
    const reason = sensitive ? blankToNull(input.sensitiveReason) : null
    if (reason && codePointLength(reason) > LIMITS.sensitiveReasonLength) {
      throw new Invalid(`sensitiveReason must be at most ${LIMITS.sensitiveReasonLength} characters`)
    }
    const parent = input.replyTo ? ((await findVisiblePost(this.db, author.id, input.replyTo)) ?? null) : null
    if (input.replyTo && !parent) throw new NotFound(POST_NOT_FOUND)

    const parsed = parseText(content)
    const linkUrl = parsed.firstLink === null ? null : normalizeLinkUrl(parsed.firstLink)
    const mentionIds = await findMentionable(this.db, author.id, parsed.mentions)
    const postId = uuidv7()
    const counted = await this.writeLimits.count('posts', author.id, files.map((f) => f.size))
    // Files first, rows second: if the transaction fails the files are deleted; if the files fail no row exists.
    // Either way nothing was posted, so nothing counts against the limits.
    const processors = { images: this.images, videos: this.videos }
    const stored = await storePostMedia(postId, files, alts, processors, this.storage).catch(async (err: unknown) => {
      await counted.refund()
      throw err
    })
    let told: string[] = []
    try {
      told = await this.db.transaction(async (tx) => {
        const outcome = await insertPost(
          tx,
          {
            id: postId,
            authorId: author.id,
            content,
            visibility: input.visibility ?? 'public',
            sensitive,
            sensitiveReason: reason,
            replyTo: parent,
            linkUrl,
          },
          stored.rows,
          mentionIds,
          parsed.hashtags,
        )
        // Thrown inside, so whatever insertPost wrote rolls back with it.
        if (outcome === 'parent-gone') throw new NotFound(POST_NOT_FOUND)
        if (linkUrl !== null) await this.linkPreviews.schedule(tx, postId)
        if (poll) await this.polls.create(tx, postId, poll)
        return this.notifications.record(tx, postHappenings(author.id, postId, parent?.authorId ?? null, mentionIds))
      })
    } catch (err) {
      await deleteQuietly(this.storage, stored.keys, (key, e) => this.log(`could not delete ${key}`, e))
      await counted.refund()
      throw err
    }
    // Committed: the author's followers' cached feeds gain an item at the top, and the parent's card changes.
    await this.invalidations.emit({ kind: 'author-activity', authorId: author.id, added: true })
    if (parent) await this.replyChanged(parent.id, input.visibility ?? 'public')
    await this.notifications.announce(told)
    const [post] = await this.present(author.id, [postId])
    if (!post) throw new Error(`post ${postId} vanished right after it was created`)
    return post
  }

  /** The author (or an admin, per the contract) deletes a post and the thread beneath it; files go after commit. */
  async delete(viewer: UserRow, postId: string): Promise<void> {
    let root: PostRef | undefined
    const deleted = await this.db.transaction(async (tx) => {
      const post = await findVisiblePost(tx, viewer.id, postId, 'update')
      if (!post) throw new NotFound(POST_NOT_FOUND)
      if (post.authorId !== viewer.id && !viewer.isAdmin) throw new Forbidden(NOT_YOUR_POST)
      root = post
      return deleteThread(tx, post)
    })
    // Before answering: once the client hears 204, no cache here may still serve the post.
    await this.invalidations.emit({ kind: 'posts-deleted', postIds: deleted.postIds })
    if (root?.replyTo) await this.replyChanged(root.replyTo, root.visibility)
    await deleteQuietly(this.storage, deleted.storageKeys, (key, err) => this.log(`could not delete ${key}`, err))
  }

  /** Like/unlike or repost/un-repost: the new state and count, exact under any number of concurrent clicks. */
  async toggle(viewer: UserRow, postId: string, reaction: Reaction): Promise<ReactionState> {
    await this.writeLimits.count('reactions', viewer.id)
    return this.reactions.toggle(viewer.id, postId, reaction)
  }

  // ---- reading --------------------------------------------------------------------------------------------------

  /** Posts by id as the viewer sees them, in the order given; counts a view of each. */
  private async present(viewerId: string, ids: readonly string[], fresh?: ReadonlySet<string>): Promise<Post[]> {
    const found = await this.caches.posts(viewerId, ids, fresh)
    const shown: Post[] = []
    for (const id of ids) {
      const post = found.get(id)
      if (post) shown.push(post)
    }
    this.views.record(
      viewerId,
      shown.map((p) => ({ id: p.id, authorId: p.author.id })),
    )
    return shown
  }

  private async presentFeed(viewerId: string, keys: readonly FeedKey[]): Promise<FeedPost[]> {
    const reposterIds = [...new Set(keys.flatMap((k) => (k.reposted_by ? [k.reposted_by] : [])))]
    const [posts, reposters] = await Promise.all([
      this.present(viewerId, keys.map((k) => k.post_id)),
      this.userSummaries(reposterIds),
    ])
    const byId = new Map(posts.map((p) => [p.id, p]))
    return keys.flatMap((key) => {
      const post = byId.get(key.post_id)
      if (!post) return []
      const repostedBy = key.reposted_by ? reposters.get(key.reposted_by) : undefined
      return [toFeedPost(post, repostedBy ?? null)]
    })
  }

  private async userSummaries(ids: readonly string[]): Promise<Map<string, Schemas['UserSummary']>> {
    if (ids.length === 0) return new Map()
    return this.caches.summaries(ids)
  }

  /** Slices one page out of keys fetched with one extra, and makes the cursor of its last item. */
  private paginate<K extends KeyRow>(keys: readonly K[], page: PageRequest): { keys: K[]; nextCursor: string | null } {
    const items = keys.slice(0, page.limit)
    const last = items[items.length - 1]
    const more = keys.length > page.limit
    return { keys: items, nextCursor: more && last ? encodeCursor({ at: last.at, id: last.post_id }) : null }
  }

  async feed(viewer: UserRow, page: PageRequest): Promise<Page<FeedPost>> {
    const wanted = page.offset + page.limit + 1
    const keys =
      (await this.timelines.homePage(viewer, page.cursor, wanted)) ??
      (await feedKeys(this.db, viewer.id, page.cursor, wanted, feedPlanFor(viewer.followingCount)))
    const { keys: pageKeys, nextCursor } = this.paginate(keys.slice(page.offset), page)
    return { items: await this.presentFeed(viewer.id, pageKeys), nextCursor }
  }

  /**
   * Explore, the community timeline (explore-queries.ts): public top-level posts of public accounts, with the viewer's
   * filters, newest first. Its keys are read fresh on every request (why: explore-queries.ts); the cards are cached.
   */
  async explore(viewer: UserRow, page: PageRequest): Promise<Page<FeedPost>> {
    const keys = await exploreKeys(this.db, viewer.id, page.cursor, page.offset, page.limit + 1)
    const { keys: pageKeys, nextCursor } = this.paginate(keys, page)
    return { items: await this.presentFeed(viewer.id, pageKeys), nextCursor }
  }

  /**
   * A list's timeline (the caller checked the viewer may read the list): the home feed's statement with the list's
   * members as its circle (feed-queries.ts), so visibility, blocks, mutes, reposts, replies and the keyset are the
   * home feed's own. Its first keys are cached per list and reader like the home feed's (cache/feed-timelines.ts).
   */
  async listTimeline(viewer: UserRow, listId: string, memberCount: number, page: PageRequest): Promise<Page<FeedPost>> {
    const wanted = page.offset + page.limit + 1
    const keys =
      (await this.timelines.listPage(viewer, listId, memberCount, page.cursor, wanted)) ??
      (await feedKeys(this.db, viewer.id, page.cursor, wanted, feedPlanFor(memberCount), { kind: 'list', listId }))
    const { keys: pageKeys, nextCursor } = this.paginate(keys.slice(page.offset), page)
    return { items: await this.presentFeed(viewer.id, pageKeys), nextCursor }
  }

  async profilePosts(viewer: UserRow, authorId: string, tab: ProfileTab, page: PageRequest): Promise<Page<FeedPost>> {
    return this.profilePage(viewer, await this.profileKeys(viewer, authorId, tab, page), page)
  }

  /** The keys of one page of a profile tab, and one more (to know whether another page exists). */
  profileKeys(viewer: UserRow, authorId: string, tab: ProfileTab, page: PageRequest): Promise<FeedKey[]> {
    return profileKeys(this.db, tab, authorId, viewer.id, page.cursor, page.offset, page.limit + 1)
  }

  /** `profileKeys` as the page the viewer sees (cards and flags from the caches). */
  async profilePage(viewer: UserRow, keys: readonly FeedKey[], page: PageRequest): Promise<Page<FeedPost>> {
    const { keys: pageKeys, nextCursor } = this.paginate(keys, page)
    return { items: await this.presentFeed(viewer.id, pageKeys), nextCursor }
  }

  /** Posts matching a search (search-terms.ts, search-queries.ts): best match first, one page. */
  async search(viewer: UserRow, q: string, page: PageRequest): Promise<Page<Post>> {
    const terms = parseSearch(q)
    if (isEmptySearch(terms)) throw new Invalid(SEARCH_REQUIRED)
    const keys = this.caches.searches.enabled
      ? await cachedSearchKeys(this.db, this.caches.searches, viewer.id, terms, page.cursor, page.offset, page.limit + 1)
      : await searchKeys(this.db, viewer.id, terms, page.cursor, page.offset, page.limit + 1)
    const { keys: pageKeys, nextCursor } = this.paginate(keys, page)
    return { items: await this.present(viewer.id, pageKeys.map((k) => k.post_id)), nextCursor }
  }

  /**
   * A post and one page of its direct replies, oldest first. The post page shows what the viewer muted behind a
   * notice instead of leaving it out (docs/product.md, "Mutes"): `muted` on the post and on its replies, read for this
   * viewer with them (`findPostPage`: the post, the reply keys and the notices in one statement). Only here: feeds
   * leave such posts out, and cards are shared by every viewer, so the posts are copied, not mutated.
   */
  async detail(viewer: UserRow, postId: string, page: PageRequest): Promise<{ post: Post } & Page<Post>> {
    const found = await findPostPage(this.db, viewer.id, postId, page.cursor, page.offset, page.limit + 1)
    if (!found) throw new NotFound(POST_NOT_FOUND)
    const target = found.post
    const { keys: pageKeys, nextCursor } = this.paginate(found.replies, page)
    // The post itself is read fresh: its page is where its exact stored counts are looked at (cached cards may
    // lag behind views flushed by other processes); its replies come from the caches like any list.
    const [post, ...replies] = await this.present(
      viewer.id,
      [target.id, ...pageKeys.map((k) => k.post_id)],
      new Set([target.id]),
    )
    // Deleted between the two reads: answer as if it never existed.
    if (!post || post.id !== target.id) throw new NotFound(POST_NOT_FOUND)
    const notices = new Map<string, string>()
    for (const key of [{ post_id: target.id, muted: found.muted }, ...pageKeys]) {
      if (key.muted !== null) notices.set(key.post_id, key.muted)
    }
    if (notices.size === 0) return { post, items: replies, nextCursor }
    const mark = (p: Post): Post => {
      const muted = notices.get(p.id)
      return muted === undefined ? p : { ...p, muted }
    }
    return { post: mark(post), items: replies.map(mark), nextCursor }
  }
}
