import { LIMITS } from '../../../src/api/contract/limits'
import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { WriteLimits } from '../../lib/write-limits'
import type { UserRow } from '../../db/schema'
import { Invalid, NotFound } from '../../lib/domain-errors'
import { checkLength } from '../../lib/lengths'
import type { Schemas } from '../../http/handler-types'
import type { UploadedFile } from '../../http/uploads'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import type { EncodedImage, ImageProcessor } from '../../media/images'
import { newMediaKey } from '../../media/keys'
import { deleteQuietly, type Storage } from '../../storage/storage'
import { isBlockedBetween } from '../blocks/queries'
import type { ProfileTab } from '../posts/profile-queries'
import type { Page, PostService } from '../posts/service'
import {
  addFollowRequest,
  approveAllFollowRequests,
  findUserById,
  followersCount,
  followRequestPage,
  hasFollowRequest,
  isPrivateAccount,
  removeFollowRequest,
  findProfileHead,
  findUserByUsername,
  followPage,
  isFollowing,
  lockPair,
  type ProfileChanges,
  replaceImage,
  setFollow,
  updateUser,
  type ProfileHead,
  visiblePostCountOf,
} from './queries'
import { type ProfileFirstPage, ProfileFirstPages } from './profile-first-pages'
import { searchUserPage, suggestedUsers, type UserSearchRow } from './search-queries'
import type { NotificationService } from '../notifications/service'
import type { MemberSearchCaches } from './search-results'

export const USER_NOT_FOUND = 'User not found'
export const CANNOT_FOLLOW_SELF = 'You cannot follow yourself'
export const REQUEST_NOT_FOUND = 'Follow request not found'

type FollowEntry = Schemas['FollowEntry']
type FollowRequest = Schemas['FollowRequest']
type UserSearchResult = Schemas['UserSearchResult']

export const SEARCH_TOO_SHORT = 'q must be at least 2 characters'
export const SUGGESTIONS = 5

const toSearchResult = (row: UserSearchRow): UserSearchResult => ({
  id: row.id,
  username: row.username,
  displayName: row.display_name,
  avatar: row.avatar,
  verified: row.verified,
  bio: row.bio,
  isFollowing: row.is_following,
})

/**
 * A private account shows its header only, to anyone but its owner and approved followers (docs/product.md, "Private
 * accounts and follow requests"); the visibility predicate hides the posts themselves everywhere.
 */
const isRestricted = (head: ProfileHead, viewerId: string) =>
  head.user.privateAccount && head.user.id !== viewerId && !head.following

/** What a search matches: trimmed, lower case, without the '@' people type before a username. */
export const searchNeedle = (q: string) => q.trim().replace(/^@/, '').toLowerCase()

/** What UserService needs, by the names of the services registry (server/services.ts). */
export interface UserDeps {
  db: Database
  /** Counted before each write (server/lib/write-limits.ts). */
  writeLimits: WriteLimits
  storage: Storage
  images: ImageProcessor
  /** A profile shows the member's posts as the post service presents them. */
  posts: PostService
  invalidations: Invalidations
  /** Follows, follow requests and accepted requests notify (in the same transaction). */
  notifications: NotificationService
  /** Failures nobody waits for: an old avatar file that could not be deleted. */
  warn: (message: string, err: unknown) => void
  /** Shared reads of member searches and suggestions (search-results.ts); disabled with the other caches. */
  searchCaches: MemberSearchCaches
  /** Profile heads and first keys per viewer (profile-first-pages.ts); disabled with the other caches. */
  profilePages: ProfileFirstPages
}

/** Profiles, follows and one's own profile settings. */
export class UserService {
  private readonly db: Database
  private readonly writeLimits: WriteLimits
  private readonly storage: Storage
  private readonly images: ImageProcessor
  private readonly posts: PostService
  private readonly invalidations: Invalidations
  private readonly notifications: NotificationService
  private readonly log: UserDeps['warn']
  private readonly searchCaches: MemberSearchCaches
  private readonly profilePages: ProfileFirstPages

  constructor(deps: UserDeps) {
    this.db = deps.db
    this.writeLimits = deps.writeLimits
    this.storage = deps.storage
    this.images = deps.images
    this.posts = deps.posts
    this.invalidations = deps.invalidations
    this.notifications = deps.notifications
    this.log = deps.warn
    this.searchCaches = deps.searchCaches
    this.profilePages = deps.profilePages
  }

  /**
   * Members matching `q` (username or display name), one page, and on the first page up to five suggestions of whom
   * to follow; without `q` only the suggestions (the Search screen's "Who to Follow").
   */
  async search(viewer: UserRow, q: string | undefined, page: PageRequest): Promise<Schemas['UserSearchResponse']> {
    const first = page.cursor === undefined && page.offset === 0
    if (q !== undefined && searchNeedle(q).length < LIMITS.userSearchMin) throw new Invalid(SEARCH_TOO_SHORT)
    if (!first) return this.searchPage(viewer, q, page, false)
    const variant = `${q === undefined ? '' : `q:${searchNeedle(q)}`}\n${page.limit}`
    return this.searchCaches.firstPages.get(viewer.id, variant, () => this.searchPage(viewer, q, page, true))
  }

  private async searchPage(
    viewer: UserRow,
    q: string | undefined,
    page: PageRequest,
    first: boolean,
  ): Promise<Schemas['UserSearchResponse']> {
    const cached = this.searchCaches.enabled
    const suggestions = first
      ? (cached
          ? await this.searchCaches.suggested(this.db, viewer.id, SUGGESTIONS)
          : await suggestedUsers(this.db, viewer.id, SUGGESTIONS)
        ).map(toSearchResult)
      : []
    if (q === undefined) return { users: [], suggestions, nextCursor: null }
    const needle = searchNeedle(q)
    const rows = cached
      ? await this.searchCaches.page(this.db, viewer.id, needle, page.cursor, page.offset, page.limit + 1)
      : await searchUserPage(this.db, viewer.id, needle, page.cursor, page.offset, page.limit + 1)
    const { items, nextCursor } = keysetPage(rows, page.limit, toSearchResult)
    return { users: items, suggestions, nextCursor }
  }

  /** The member, unless missing or behind a block either way with the viewer (then 404, as if absent). */
  private async byUsername(viewer: UserRow, username: string): Promise<UserRow> {
    const user = await findUserByUsername(this.db, username)
    if (!user || (user.id !== viewer.id && (await isBlockedBetween(this.db, viewer.id, user.id)))) {
      throw new NotFound(USER_NOT_FOUND)
    }
    return user
  }

  async profile(
    viewer: UserRow,
    username: string,
    tab: ProfileTab,
    page: PageRequest,
  ): Promise<{ user: Schemas['UserProfile'] } & Page<Schemas['FeedPost']>> {
    // The first page's head and keys come from memory when this viewer opened it lately (profile-first-pages.ts).
    const first = page.cursor === undefined && page.offset === 0
    const { head, keys } = first
      ? await this.profilePages.get(viewer.id, `${username.toLowerCase()}\n${tab}\n${page.limit}`, () =>
          this.profileRead(viewer, username, tab, page),
        )
      : await this.profileRead(viewer, username, tab, page)
    const own = head.user.id === viewer.id
    const user = head.user
    const [following, requested, muted] = own ? [false, false, false] : [head.following, head.requested, head.muted]
    const restricted = isRestricted(head, viewer.id)
    const posts = restricted
      ? ({ items: [], nextCursor: null } satisfies Page<Schemas['FeedPost']>)
      : await this.posts.profilePage(viewer, keys, page)
    const postCount = visiblePostCountOf(head, viewer.id)
    const profile: Schemas['UserProfile'] = {
      id: user.id,
      username: user.username,
      displayName: user.displayName,
      avatar: user.avatar,
      banner: user.banner,
      bio: user.bio,
      verified: user.verified,
      privateAccount: user.privateAccount,
      isAdmin: user.isAdmin,
      createdAt: user.createdAt.toISOString(),
      isFollowing: following,
      requested: requested && !following,
      muted,
      restricted,
      stats: { following: user.followingCount, followers: user.followersCount, posts: postCount },
      ...(own
        ? {
            contentSettings: {
              showSensitiveContent: user.showSensitiveContent,
              allowDMs: user.allowDms,
              allowMentions: user.allowMentions,
            },
          }
        : {}),
    }
    return { user: profile, ...posts }
  }

  /**
   * The member, the block check, the viewer's relation to them and the posts count in one statement, then the page's
   * keys; absent or behind a block either way: 404, as if absent (byUsername).
   */
  private async profileRead(viewer: UserRow, username: string, tab: ProfileTab, page: PageRequest): Promise<ProfileFirstPage> {
    const head = await findProfileHead(this.db, viewer.id, username)
    if (!head || (head.user.id !== viewer.id && head.blocked)) throw new NotFound(USER_NOT_FOUND)
    const keys = isRestricted(head, viewer.id) ? [] : await this.posts.profileKeys(viewer, head.user.id, tab, page)
    return { head, keys }
  }

  async follows(
    viewer: UserRow,
    username: string,
    direction: 'followers' | 'following',
    page: PageRequest,
  ): Promise<Page<FollowEntry> & { restricted?: true }> {
    const user = await this.byUsername(viewer, username)
    if (user.privateAccount && user.id !== viewer.id && !(await isFollowing(this.db, viewer.id, user.id))) {
      return { items: [], nextCursor: null, restricted: true }
    }
    const rows = await followPage(this.db, direction, user.id, viewer.id, page.cursor, page.offset, page.limit + 1)
    return keysetPage(rows, page.limit, (r) => ({
      id: r.id,
      username: r.username,
      displayName: r.display_name,
      avatar: r.avatar,
      verified: r.verified,
      privateAccount: r.private_account,
      isFollowing: r.is_following,
      requested: r.requested && !r.is_following,
    }))
  }

  /**
   * Idempotent both ways; answers the viewer's new state and the member's followers count. Following a private
   * account makes a pending request instead; unfollowing cancels one (docs/product.md, "Private accounts and follow
   * requests").
   */
  async setFollow(viewer: UserRow, userId: string, follow: boolean): Promise<Schemas['FollowResponse']> {
    if (userId === viewer.id) throw new Invalid(CANNOT_FOLLOW_SELF)
    const target = await findUserById(this.db, userId)
    if (!target) throw new NotFound(USER_NOT_FOUND)
    // Following is limited, unfollowing never: leaving must always work.
    if (follow) await this.writeLimits.count('follows', viewer.id)
    const answer = await this.db.transaction(async (tx) => {
      // Across a block the member is as good as absent (docs/product.md, "Blocks"); unfollowing is refused too, and
      // there is nothing to unfollow: the block removed the follows both ways. Checked under the pair's lock, so a
      // block made at the same moment is either seen here or waits for this follow and then removes it. The same
      // lock orders a request against the member turning their account public (approveAllFollowRequests).
      await lockPair(tx, viewer.id, target.id)
      if (await isBlockedBetween(tx, viewer.id, target.id)) throw new NotFound(USER_NOT_FOUND)
      const of = (kind: 'follow' | 'follow_request') => ({ kind, recipientId: target.id, actorId: viewer.id, postId: null })
      if (!follow) {
        const cancelled = await removeFollowRequest(tx, viewer.id, target.id)
        const followers = await setFollow(tx, viewer.id, target.id, false)
        const told = await this.notifications.withdraw(tx, [of('follow'), of('follow_request')])
        return { following: false, requested: false, followers, changed: !cancelled, requestChanged: cancelled, told }
      }
      const already = await isFollowing(tx, viewer.id, target.id)
      if (!already && (await isPrivateAccount(tx, target.id))) {
        const asked = await hasFollowRequest(tx, viewer.id, target.id)
        await addFollowRequest(tx, viewer.id, target.id)
        const told = asked ? [] : await this.notifications.record(tx, [of('follow_request')])
        const followers = await followersCount(tx, target.id)
        return { following: false, requested: true, followers, changed: false, requestChanged: !asked, told }
      }
      const followers = await setFollow(tx, viewer.id, target.id, true)
      const told = already ? [] : await this.notifications.record(tx, [of('follow')])
      return { following: true, requested: false, followers, changed: true, requestChanged: false, told }
    })
    await this.notifications.announce(answer.told)
    if (answer.changed) {
      // The viewer's feed sources and followers-only visibility changed; the target's counters did too.
      await this.invalidations.emit({ kind: 'follows-changed', userId: viewer.id })
      await this.invalidations.emit({ kind: 'member-changed', userId: target.id })
    } else if (answer.requestChanged) {
      // A request made or withdrawn: whom the viewer is suggested to follow (their cached search pages) changed.
      await this.invalidations.emit({ kind: 'follows-changed', userId: viewer.id })
    }
    return { following: answer.following, requested: answer.requested, followers: answer.followers }
  }

  /** The viewer's pending incoming follow requests, most recent first. */
  async followRequests(viewer: UserRow, page: PageRequest): Promise<Page<FollowRequest>> {
    const rows = await followRequestPage(this.db, viewer.id, page.cursor, page.offset, page.limit + 1)
    return keysetPage(rows, page.limit, (r) => ({
      id: r.id,
      username: r.username,
      displayName: r.display_name,
      avatar: r.avatar,
      verified: r.verified,
      requestedAt: new Date(r.created_at).toISOString(),
    }))
  }

  /**
   * The requester now follows the viewer. Idempotent: a request already approved (the requester follows) answers the
   * same; no pending request from that member is 404, and so is an unknown member or one behind a block.
   */
  async approveFollowRequest(viewer: UserRow, requesterId: string): Promise<Schemas['FollowRequestApproved']> {
    const requester = await findUserById(this.db, requesterId)
    if (!requester || requester.id === viewer.id) throw new NotFound(REQUEST_NOT_FOUND)
    const followers = await this.db.transaction(async (tx) => {
      await lockPair(tx, requester.id, viewer.id)
      if (!(await removeFollowRequest(tx, requester.id, viewer.id))) {
        if (await isFollowing(tx, requester.id, viewer.id)) return null
        throw new NotFound(REQUEST_NOT_FOUND)
      }
      await this.requestsAccepted(tx, viewer.id, [requester.id])
      return setFollow(tx, requester.id, viewer.id, true)
    })
    if (followers === null) return { following: true, followers: await followersCount(this.db, viewer.id) }
    await this.notifications.announce([requester.id, viewer.id])
    await this.invalidations.emit({ kind: 'follows-changed', userId: requester.id })
    await this.invalidations.emit({ kind: 'member-changed', userId: viewer.id })
    return { following: true, followers }
  }

  /** Deletes the request, leaving no trace the requester can see. Idempotent; an unknown member is 404. */
  async declineFollowRequest(viewer: UserRow, requesterId: string): Promise<void> {
    const requester = await findUserById(this.db, requesterId)
    if (!requester) throw new NotFound(USER_NOT_FOUND)
    await this.db.transaction(async (tx) => {
      await removeFollowRequest(tx, requester.id, viewer.id)
      await this.notifications.withdraw(tx, [
        { kind: 'follow_request', recipientId: viewer.id, actorId: requester.id, postId: null },
      ])
    })
    await this.notifications.announce([viewer.id])
    // The requester may be suggested the member again.
    await this.invalidations.emit({ kind: 'follows-changed', userId: requester.id })
  }

  /** Approved requests: the request leaves the member's notifications and each requester hears it was accepted. */
  private async requestsAccepted(tx: Database, memberId: string, requesterIds: readonly string[]): Promise<void> {
    await this.notifications.withdraw(
      tx,
      requesterIds.map((id) => ({ kind: 'follow_request' as const, recipientId: memberId, actorId: id, postId: null })),
    )
    await this.notifications.record(
      tx,
      requesterIds.map((id) => ({ kind: 'follow_accepted' as const, recipientId: id, actorId: memberId, postId: null })),
    )
  }

  async updateProfile(viewer: UserRow, changes: ProfileChanges): Promise<UserRow> {
    const displayName = changes.displayName?.trim()
    if (changes.displayName !== undefined && !displayName) throw new Invalid('Display name is required')
    if (displayName) checkLength('displayName', displayName, { max: LIMITS.displayNameMax })
    if (changes.bio !== undefined) checkLength('bio', changes.bio, { max: LIMITS.bioMax })
    const update = { ...changes, ...(displayName === undefined ? {} : { displayName }) }
    // Turning the account public approves every pending request in the same transaction (docs/product.md, "Private
    // accounts and follow requests"); the locks are taken before the row is updated, in id order.
    const { user, approved } =
      changes.privateAccount === false
        ? await this.db.transaction(async (tx) => {
            const approved = await approveAllFollowRequests(tx, viewer.id)
            await this.requestsAccepted(tx, viewer.id, approved)
            return { user: await updateUser(tx, viewer.id, update), approved }
          })
        : { user: await updateUser(this.db, viewer.id, update), approved: [] }
    // Cached session rows (privacy settings) and the author summary on every card of theirs.
    await this.invalidations.emit({ kind: 'member-changed', userId: viewer.id })
    for (const requester of approved) await this.invalidations.emit({ kind: 'follows-changed', userId: requester })
    if (approved.length > 0) await this.notifications.announce([...approved, viewer.id])
    // Who may see the member's posts changed: feeds where they arrived through reposts too.
    if (changes.privateAccount !== undefined && changes.privateAccount !== viewer.privateAccount) {
      await this.invalidations.emit({ kind: 'audience-changed', authorId: viewer.id })
    }
    return user
  }

  async replaceAvatar(viewer: UserRow, file: UploadedFile): Promise<UserRow> {
    return this.replaceImage(viewer, 'avatar', await this.images.avatar(file.path, file.sniffed))
  }

  async replaceBanner(viewer: UserRow, file: UploadedFile): Promise<UserRow> {
    return this.replaceImage(viewer, 'banner', await this.images.banner(file.path, file.sniffed))
  }

  /** New file first, then the row; the old file goes once the row points elsewhere (and the new one if that fails). */
  private async replaceImage(viewer: UserRow, column: 'avatar' | 'banner', image: EncodedImage): Promise<UserRow> {
    const key = newMediaKey(column === 'avatar' ? 'avatars' : 'banners', '', 'webp')
    await this.storage.put(key, image.data, 'image/webp')
    let replaced: Awaited<ReturnType<typeof replaceImage>>
    try {
      replaced = await replaceImage(this.db, viewer.id, column, this.storage.url(key))
    } catch (err) {
      await deleteQuietly(this.storage, [key])
      throw err
    }
    await this.invalidations.emit({ kind: 'member-changed', userId: viewer.id })
    const previous = this.storage.keyOf(replaced.previous)
    if (previous) await deleteQuietly(this.storage, [previous], (k, err) => this.log(`could not delete ${k}`, err))
    return replaced.user
  }
}
