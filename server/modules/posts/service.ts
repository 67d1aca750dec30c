import { LIMITS } from '../../../src/api/contract/limits'
import { CONFIRM_EMAIL_TO_POST } from '../../../src/api/contract/email'
import type { Config } from '../../config'
import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { WriteLimits } from '../../lib/write-limits'
import { uuidv7 } from '../../db/ids'
import type { UserRow } from '../../db/schema'
import type { NewPostMedia, Visibility } from '../../db/schema-posts'
import { Forbidden, Invalid, NotFound } from '../../lib/domain-errors'
import type { Schemas } from '../../http/handler-types'
import type { UploadedFile } from '../../http/uploads'
import { encodeCursor, keysetPage, type PageRequest } from '../../lib/cursor'
import { toDate } from '../../db/rows'
import { codePointLength } from '../../lib/lengths'
import type { ImageProcessor } from '../../media/images'
import type { VideoProcessor } from '../../media/videos'
import { deleteQuietly, type Storage } from '../../storage/storage'
import type { Happening } from '../notifications/queries'
import type { NotificationService } from '../notifications/service'
import type { LinkPreviewService } from '../link-previews/service'
import { type NewPoll, type PollFields, pollFromForm } from '../polls/input'
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
  insertPostRows,
  isPostId,
  type KeyRow,
  type PostRef,
} from './queries'
import type { Reaction } from './reaction-queries'
import { Reactions, type ReactionState } from './reactions'
import { findQuoteToDetach, markDetached, quoteKeys } from './quote-queries'
import { checkDetach, quotablePost } from './quotes'
import { type ParsedText, parseText } from './text'
import { audienceChanged, CONTENT_REQUIRED, editedState, NOT_YOUR_POST_TO_EDIT, sameState, toVersion, type UpdatePostInput } from './edits'
import { alreadyToldOfMention, lockParent, readEditedPost, versionPage, writeEdit } from './edit-queries'
import type { ViewCounter } from './views'
import { POST_NOT_FOUND } from '../visibility/visibility'

export { CONTENT_REQUIRED } from './edits'
export { ONLY_PUBLIC_REPOSTS } from './reactions'
export { NOT_A_QUOTE, ONLY_PUBLIC_QUOTES, ONLY_QUOTED_AUTHOR_DETACHES } from './quotes'
export const NOT_YOUR_POST = 'You can only delete your own posts'
export const SEARCH_REQUIRED = 'Search query is required'

/**
 * Who a new post notifies, each member once: the parent's author of a reply, else the quoted post's author of a quote,
 * and each other member it mentions.
 */
function postHappenings(
  authorId: string,
  postId: string,
  parentAuthorId: string | null,
  quotedAuthorId: string | null,
  mentionIds: readonly string[],
): Happening[] {
  const reply: Happening[] = parentAuthorId ? [{ kind: 'reply', recipientId: parentAuthorId, actorId: authorId, postId }] : []
  const quote: Happening[] =
    quotedAuthorId && quotedAuthorId !== parentAuthorId ? [{ kind: 'quote', recipientId: quotedAuthorId, actorId: authorId, postId }] : []
  const mentions = mentionIds
    .filter((id) => id !== parentAuthorId && id !== quotedAuthorId)
    .map((id): Happening => ({ kind: 'mention', recipientId: id, actorId: authorId, postId }))
  return [...reply, ...quote, ...mentions]
}

/** What a post is made of: its fields and media, and how to give back what writing it counted if it fails. */
interface PostContent {
  fields: PostFields
  media: NewPostMedia[]
  refund?: () => Promise<void>
}

/**
 * A post whose text names nobody and links nowhere (no notification, no preview job): with no parent, quote or
 * poll, its rows are all it writes, in one statement.
 */
const standsAlone = (parsed: ParsedText) => parsed.mentions.length === 0 && parsed.firstLink === null

/** A post's own fields, as `checkPostRules` checks them. */
export interface PostFields {
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitiveReason: string | null
}

/** What a saved draft publishes: its fields and its already stored files (post_media rows without the post id). */
export interface SavedPost {
  fields: PostFields
  media: Omit<NewPostMedia, 'postId'>[]
}

export const DRAFT_GONE = 'Draft not found'

/**
 * The rules every new post meets, typed now or saved earlier. Posts and replies alike: confirming the address is what
 * the instance asked of who may write. The contract's maxLength counts code points too; checked again because the
 * rule must not depend on it.
 */
export function checkPostRules(author: UserRow, fields: PostFields, mediaCount: number, requireVerifiedEmail: boolean): void {
  if (requireVerifiedEmail && author.emailVerifiedAt === null) throw new Forbidden(CONFIRM_EMAIL_TO_POST)
  if (codePointLength(fields.content) > LIMITS.postLength) {
    throw new Invalid(`Content must be at most ${LIMITS.postLength} characters`)
  }
  if (fields.content.trim() === '' && mediaCount === 0) throw new Invalid(CONTENT_REQUIRED)
  if (fields.sensitiveReason && codePointLength(fields.sensitiveReason) > LIMITS.sensitiveReasonLength) {
    throw new Invalid(`sensitiveReason must be at most ${LIMITS.sensitiveReasonLength} characters`)
  }
}

/** The text fields of the multipart form, as the contract validated them. */
export interface CreatePostInput extends PollFields {
  content?: string
  visibility?: Visibility
  sensitive?: 'true' | 'false'
  sensitiveReason?: string
  replyTo?: string
  quoteOf?: string
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
    const alts = (input.alt ?? []).map((a) => blankToNull(a))
    if (alts.length > files.length) throw new Invalid('Each alt text must describe an attached media file')
    const poll = pollFromForm(input, files.length)

    const sensitive = input.sensitive === 'true'
    const fields: PostFields = {
      content: input.content ?? '',
      visibility: input.visibility ?? 'public',
      sensitive,
      sensitiveReason: sensitive ? blankToNull(input.sensitiveReason) : null,
    }
    checkPostRules(author, fields, files.length, this.requireVerifiedEmail)
    const parent = input.replyTo ? ((await findVisiblePost(this.db, author.id, input.replyTo)) ?? null) : null
    if (input.replyTo && !parent) throw new NotFound(POST_NOT_FOUND)
    const quoted = input.quoteOf ? await quotablePost(this.db, author.id, input.quoteOf) : null

    const postId = uuidv7()
    const counted = await this.writeLimits.count('posts', author.id, files.map((f) => f.size))
    // Files first, rows second: if the transaction fails the files are deleted; if the files fail no row exists.
    // Either way nothing was posted, so nothing counts against the limits.
    const processors = { images: this.images, videos: this.videos }
    const stored = await storePostMedia(postId, files, alts, processors, this.storage).catch(async (err: unknown) => {
      await counted.refund()
      throw err
    })
    try {
      return await this.insert(author, postId, parent, quoted, poll, { fields, media: stored.rows })
    } catch (err) {
      await deleteQuietly(this.storage, stored.keys, (key, e) => this.log(`could not delete ${key}`, e))
      await counted.refund()
      throw err
    }
  }

  /**
   * Publishes what was saved before (a draft, server/modules/drafts/): `take` reads it under lock and removes it in
   * the post's own transaction, so it is published at most once however many try at once, and only as it is at that
   * moment. Its files are already stored and become the post's; if anything fails they stay with the draft. The post
   * meets create's rules and limits and notifies and previews like any other; `take` answering null is 404.
   */
  async publishSaved(author: UserRow, take: (tx: Database) => Promise<SavedPost | null>): Promise<Post> {
    const postId = uuidv7()
    return this.insert(author, postId, null, null, null, async (tx) => {
      const saved = await take(tx)
      if (!saved) throw new NotFound(DRAFT_GONE)
      checkPostRules(author, saved.fields, saved.media.length, this.requireVerifiedEmail)
      const counted = await this.writeLimits.count('posts', author.id, saved.media.map((m) => m.sizeBytes))
      return { fields: saved.fields, media: saved.media.map((m) => ({ ...m, postId })), refund: counted.refund }
    })
  }

  /**
   * The post's writes: its rows alone in one statement when it stands alone (`standsAlone`), else a transaction with
   * its row, media, mentions, hashtags, preview job and notifications; then the caches and sockets. `content` is the
   * post when create knows it already, or reads it inside the transaction (a draft, under its lock).
   */
  private async insert(
    author: UserRow,
    postId: string,
    parent: PostRef | null,
    quoted: PostRef | null,
    poll: NewPoll | null,
    content: PostContent | ((tx: Database) => Promise<PostContent>),
  ): Promise<Post> {
    let visibility: Visibility = 'public'
    let refund: (() => Promise<void>) | undefined
    let told: string[]
    try {
      // Known content is parsed once, here; a draft's only once it is read under its lock.
      const known = typeof content === 'function' ? null : { ...content, parsed: parseText(content.fields.content) }
      if (known && !parent && !quoted && !poll && standsAlone(known.parsed)) {
        // Nothing to lock, notify or schedule: the rows are one statement, without a transaction's two round trips.
        visibility = known.fields.visibility
        const post = { id: postId, authorId: author.id, ...known.fields, replyTo: null }
        await insertPostRows(this.db, post, known.media, [], known.parsed.hashtags)
        told = []
      } else told = await this.db.transaction(async (tx) => {
        const { fields, media, refund: undo } = typeof content === 'function' ? await content(tx) : content
        visibility = fields.visibility
        refund = undo
        const parsed = known?.parsed ?? parseText(fields.content)
        const linkUrl = parsed.firstLink === null ? null : normalizeLinkUrl(parsed.firstLink)
        const mentionIds = await findMentionable(tx, author.id, parsed.mentions)
        const outcome = await insertPost(
          tx,
          { id: postId, authorId: author.id, ...fields, replyTo: parent, quoteOf: quoted, linkUrl },
          media,
          mentionIds,
          parsed.hashtags,
        )
        // Thrown inside, so whatever insertPost wrote rolls back with it.
        if (outcome === 'parent-gone' || outcome === 'quoted-gone') throw new NotFound(POST_NOT_FOUND)
        if (linkUrl !== null) await this.linkPreviews.schedule(tx, postId)
        if (poll) await this.polls.create(tx, postId, poll)
        return this.notifications.record(tx, postHappenings(author.id, postId, parent?.authorId ?? null, quoted?.authorId ?? null, mentionIds))
      })
    } catch (err) {
      await refund?.()
      throw err
    }
    // Committed: the author's followers' cached feeds gain an item at the top, and the parent's card changes.
    await this.invalidations.emit({ kind: 'author-activity', authorId: author.id, added: true })
    if (parent) await this.replyChanged(parent.id, visibility)
    // A public quote is counted on the quoted post's card.
    if (quoted && visibility === 'public') await this.invalidations.emit({ kind: 'posts-changed', postIds: [quoted.id] })
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
    if (deleted.quotedIds.length > 0) await this.invalidations.emit({ kind: 'posts-changed', postIds: deleted.quotedIds })
    if (root?.replyTo) await this.replyChanged(root.replyTo, root.visibility)
    await deleteQuietly(this.storage, deleted.storageKeys, (key, err) => this.log(`could not delete ${key}`, err))
  }

  /**
   * The quoted post's author detaches it from a quote (quotes.ts): the quote shows it unavailable to everyone from
   * then on. Detaching a detached quote changes nothing.
   */
  async detach(viewer: UserRow, quoteId: string): Promise<void> {
    if (!isPostId(quoteId)) throw new NotFound(POST_NOT_FOUND)
    const quote = await this.db.transaction(async (tx) => {
      const found = checkDetach(viewer.id, await findQuoteToDetach(tx, viewer.id, quoteId))
      if (!found.detached) await markDetached(tx, found)
      return found
    })
    if (quote.detached) return
    const changed = quote.quote_of !== null && quote.visibility === 'public' ? [quote.id, quote.quote_of] : [quote.id]
    await this.invalidations.emit({ kind: 'posts-changed', postIds: changed })
  }

  /**
   * The author edits a post (edits.ts has the rules, edit-queries.ts the writes). Checked once before counting the
   * write, so a refused edit costs nothing, and again on the locked row, which a concurrent edit may have changed.
   */
  async edit(viewer: UserRow, postId: string, input: UpdatePostInput): Promise<Post> {
    const visible = await findVisiblePost(this.db, viewer.id, postId)
    if (!visible) throw new NotFound(POST_NOT_FOUND)
    if (visible.authorId !== viewer.id) throw new Forbidden(NOT_YOUR_POST_TO_EDIT)
    const current = await readEditedPost(this.db, visible.id)
    if (!current) throw new NotFound(POST_NOT_FOUND)
    if (sameState(current, editedState(current, input))) return this.presentOne(viewer.id, visible.id)
    await this.writeLimits.count('posts', viewer.id)
    const leavesPublicReplies =
      current.replyTo !== null && current.visibility === 'public' && input.visibility !== undefined && input.visibility !== 'public'
    const outcome = await this.db.transaction(async (tx) => {
      // A public reply narrowed changes its parent's count: the parent's row is locked first, as a new reply and a
      // deletion of the thread take parent before child, so the two orders never cross.
      if (leavesPublicReplies && current.replyTo) await lockParent(tx, current.replyTo)
      const locked = await findVisiblePost(tx, viewer.id, postId, 'update')
      const before = locked && (await readEditedPost(tx, locked.id))
      if (!before) throw new NotFound(POST_NOT_FOUND)
      const after = editedState(before, input)
      if (sameState(before, after)) return null
      const parsed = parseText(after.content)
      const linkUrl = parsed.firstLink === null ? null : normalizeLinkUrl(parsed.firstLink)
      const mentionIds = await findMentionable(tx, viewer.id, parsed.mentions)
      await writeEdit(tx, { before, after, linkUrl, mentionIds, hashtags: parsed.hashtags })
      if (linkUrl !== null && linkUrl !== before.linkUrl) await this.linkPreviews.schedule(tx, before.id)
      // Told once: a member newly named who was never told of this post's mention (its parent's author hears of the
      // reply instead, as on a new post).
      const added = mentionIds.filter((id) => !before.mentionIds.includes(id) && id !== before.replyToAuthorId)
      const told = await alreadyToldOfMention(tx, before.id, added)
      const happenings = added
        .filter((id) => !told.has(id))
        .map((id): Happening => ({ kind: 'mention', recipientId: id, actorId: viewer.id, postId: before.id }))
      return {
        before,
        after,
        audienceChanged: audienceChanged(before, after, mentionIds),
        recipients: await this.notifications.record(tx, happenings),
      }
    })
    if (outcome) {
      const { before, after } = outcome
      await this.invalidations.emit({
        kind: 'post-edited',
        postId: before.id,
        authorId: viewer.id,
        audienceChanged: outcome.audienceChanged,
      })
      if (before.replyTo && outcome.audienceChanged) {
        // A public reply narrowed leaves its parent's public count; a restricted one changes who may count it.
        if (before.visibility === 'public') await this.replyChanged(before.replyTo, 'public')
        await this.replyChanged(before.replyTo, after.visibility)
      }
      await this.notifications.announce(outcome.recipients)
    }
    return this.presentOne(viewer.id, visible.id)
  }

  /** A post's versions, newest first, to anyone who may see the post; a post never edited has itself as its one. */
  async history(viewer: UserRow, postId: string, page: PageRequest): Promise<Schemas['PostHistoryPage']> {
    const post = await findVisiblePost(this.db, viewer.id, postId)
    if (!post) throw new NotFound(POST_NOT_FOUND)
    const rows = await versionPage(this.db, post.id, page.cursor, page.offset, page.limit + 1)
    if (rows.length === 0 && !page.cursor && page.offset === 0) {
      const current = await readEditedPost(this.db, post.id)
      if (!current) throw new NotFound(POST_NOT_FOUND)
      const { content, visibility, sensitive, sensitiveReason, alts } = current
      const createdAt = toDate(current.createdAt).toISOString()
      return { versions: [{ id: current.id, content, visibility, sensitive, sensitiveReason, alts, createdAt }], nextCursor: null }
    }
    const { items, nextCursor } = keysetPage(rows, page.limit, toVersion)
    return { versions: items, nextCursor }
  }

  /** Like/unlike or repost/un-repost: the new state and count, exact under any number of concurrent clicks. */
  async toggle(viewer: UserRow, postId: string, reaction: Reaction): Promise<ReactionState> {
    await this.writeLimits.count('reactions', viewer.id)
    return this.reactions.toggle(viewer.id, postId, reaction)
  }

  // ---- reading --------------------------------------------------------------------------------------------------

  /** One post read fresh for the viewer (after a write of theirs). */
  private async presentOne(viewerId: string, postId: string): Promise<Post> {
    const [post] = await this.present(viewerId, [postId], new Set([postId]))
    if (!post) throw new NotFound(POST_NOT_FOUND)
    return post
  }

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

  /** The quotes of a post the viewer may see (quote-queries.ts), newest first, one page. */
  async quotes(viewer: UserRow, postId: string, page: PageRequest): Promise<Page<Post>> {
    if (!(await findVisiblePost(this.db, viewer.id, postId))) throw new NotFound(POST_NOT_FOUND)
    const keys = await quoteKeys(this.db, viewer.id, postId, page.cursor, page.offset, page.limit + 1)
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
