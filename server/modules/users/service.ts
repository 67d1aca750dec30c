import { LIMITS } from '../../../src/api/contract/limits'
import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import { Invalid, NotFound } from '../../lib/domain-errors'
import { checkLength } from '../../lib/lengths'
import type { Schemas } from '../../http/handler-types'
import type { UploadedFile } from '../../http/uploads'
import { encodeCursor, type PageRequest } from '../../lib/cursor'
import type { EncodedImage, ImageProcessor } from '../../media/images'
import { newMediaKey } from '../../media/keys'
import { deleteQuietly, type Storage } from '../../storage/storage'
import { isBlockedBetween } from '../blocks/queries'
import type { ProfileTab } from '../posts/profile-queries'
import type { Page, PostService } from '../posts/service'
import {
  findUserById,
  findUserByUsername,
  followPage,
  isFollowing,
  lockPair,
  type ProfileChanges,
  replaceImage,
  setFollow,
  updateUser,
  visiblePostCount,
} from './queries'

export const USER_NOT_FOUND = 'User not found'
export const CANNOT_FOLLOW_SELF = 'You cannot follow yourself'

type FollowEntry = Schemas['FollowEntry']

/** What UserService needs, by the names of the services registry (server/services.ts). */
export interface UserDeps {
  db: Database
  storage: Storage
  images: ImageProcessor
  /** A profile shows the member's posts as the post service presents them. */
  posts: PostService
  invalidations: Invalidations
  /** Failures nobody waits for: an old avatar file that could not be deleted. */
  warn: (message: string, err: unknown) => void
}

/** Profiles, follows and one's own profile settings. */
export class UserService {
  private readonly db: Database
  private readonly storage: Storage
  private readonly images: ImageProcessor
  private readonly posts: PostService
  private readonly invalidations: Invalidations
  private readonly log: UserDeps['warn']

  constructor(deps: UserDeps) {
    this.db = deps.db
    this.storage = deps.storage
    this.images = deps.images
    this.posts = deps.posts
    this.invalidations = deps.invalidations
    this.log = deps.warn
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
    const user = await this.byUsername(viewer, username)
    const own = user.id === viewer.id
    const [following, posts, postCount] = await Promise.all([
      own ? false : isFollowing(this.db, viewer.id, user.id),
      this.posts.profilePosts(viewer, user.id, tab, page),
      visiblePostCount(this.db, user, viewer.id),
    ])
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

  async follows(
    viewer: UserRow,
    username: string,
    direction: 'followers' | 'following',
    page: PageRequest,
  ): Promise<Page<FollowEntry>> {
    const user = await this.byUsername(viewer, username)
    const rows = await followPage(this.db, direction, user.id, viewer.id, page.cursor, page.offset, page.limit + 1)
    const items = rows.slice(0, page.limit)
    const last = items[items.length - 1]
    return {
      items: items.map((r) => ({
        id: r.id,
        username: r.username,
        displayName: r.display_name,
        avatar: r.avatar,
        verified: r.verified,
        isFollowing: r.is_following,
      })),
      nextCursor: rows.length > page.limit && last ? encodeCursor({ at: last.at, id: last.id }) : null,
    }
  }

  /** Idempotent both ways; answers the viewer's new state and the member's followers count. */
  async setFollow(viewer: UserRow, userId: string, follow: boolean): Promise<Schemas['FollowResponse']> {
    if (userId === viewer.id) throw new Invalid(CANNOT_FOLLOW_SELF)
    const target = await findUserById(this.db, userId)
    if (!target) throw new NotFound(USER_NOT_FOUND)
    const followers = await this.db.transaction(async (tx) => {
      // Across a block the member is as good as absent (docs/product.md, "Blocks"); unfollowing is refused too, and
      // there is nothing to unfollow: the block removed the follows both ways. Checked under the pair's lock, so a
      // block made at the same moment is either seen here or waits for this follow and then removes it.
      await lockPair(tx, viewer.id, target.id)
      if (await isBlockedBetween(tx, viewer.id, target.id)) throw new NotFound(USER_NOT_FOUND)
      return setFollow(tx, viewer.id, target.id, follow)
    })
    // The viewer's feed sources and followers-only visibility changed; the target's counters did too.
    await this.invalidations.emit({ kind: 'follows-changed', userId: viewer.id })
    await this.invalidations.emit({ kind: 'member-changed', userId: target.id })
    return { following: follow, followers }
  }

  async updateProfile(viewer: UserRow, changes: ProfileChanges): Promise<UserRow> {
    const displayName = changes.displayName?.trim()
    if (changes.displayName !== undefined && !displayName) throw new Invalid('Display name is required')
    if (displayName) checkLength('displayName', displayName, { max: LIMITS.displayNameMax })
    if (changes.bio !== undefined) checkLength('bio', changes.bio, { max: LIMITS.bioMax })
    const user = await updateUser(this.db, viewer.id, {
      ...changes,
      ...(displayName === undefined ? {} : { displayName }),
    })
    // Cached session rows (privacy settings) and the author summary on every card of theirs.
    await this.invalidations.emit({ kind: 'member-changed', userId: viewer.id })
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
