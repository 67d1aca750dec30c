import type { Database } from '../../server/db/client'
import { findUserByUsername, isFollowing, hasFollowRequest, visiblePostCount } from '../../server/modules/users/queries'
import { isBlockedBetween } from '../../server/modules/blocks/queries'
import { isMuting } from '../../server/modules/mutes/queries'
import { profileKeys } from '../../server/modules/posts/profile-queries'
import {
  findMentionable,
  findVisiblePost,
  hydratePosts,
  insertPost,
  mutedNotices,
  replyKeys,
} from '../../server/modules/posts/queries'
import { writeReactionBatch } from '../../server/modules/posts/reactions'
import { recordHappenings } from '../../server/modules/notifications/queries'
import { parseText } from '../../server/modules/posts/text'
import { uuidv7 } from '../../server/db/ids'
import { decodeCursor } from '../../server/lib/cursor'
import { openSqlFeed, type Viewer } from './sql-feed'

/**
 * The SQL of each request kind of the mixed bench without HTTP: the server modules' own query functions (never a
 * copy of their SQL), called in the order their services call them, on a plain `pg` pool with the app's session
 * settings (bench/lib/sql-feed.ts). Writes include their notifications (recorded in the same transaction) and a post
 * its answer (the new post read back). What none of them includes: the session lookup every request makes, the view
 * counting and the caches' invalidations.
 */

const PAGE = 20

export interface SqlMixed {
  db: Database
  feedFirst: (viewer: Viewer) => Promise<number>
  feedNext: (viewer: Viewer, cursor: string) => Promise<number>
  /** PostService.detail: the post if visible, a page of replies, the cards, the mute notices. */
  postPage: (viewer: Viewer, postId: string) => Promise<number>
  /** UserService.profile, tab `posts`: the member, the block wall, follow/request/mute flags, keys, cards, count. */
  profile: (viewer: Viewer, username: string) => Promise<number>
  /** PostService.toggle as a batch of one: the like row if the post is visible, its counter, its day's row, the
   * author's notification item. */
  like: (viewer: Viewer, postId: string) => Promise<number>
  /** PostService.create, text only: the mentionable members, then the post, its hashtags, the author's counter and
   * the mentions' notifications, then the post read back. */
  post: (viewer: Viewer, content: string) => Promise<number>
  close: () => Promise<void>
}

export function openSqlMixed(url: string, connections: number): SqlMixed {
  const feed = openSqlFeed(url, connections)
  const db = feed.db
  return {
    db,
    feedFirst: (viewer) => feed.page(viewer),
    feedNext: (viewer, cursor) => feed.page(viewer, decodeCursor(cursor)),
    postPage: async (viewer, postId) => {
      const target = await findVisiblePost(db, viewer.id, postId)
      if (!target) return 0
      const keys = await replyKeys(db, viewer.id, target.id, undefined, 0, PAGE + 1)
      const ids = [target.id, ...keys.slice(0, PAGE).map((k) => k.post_id)]
      const [cards] = await Promise.all([hydratePosts(db, viewer.id, ids), mutedNotices(db, viewer.id, ids)])
      return cards.size
    },
    profile: async (viewer, username) => {
      const user = await findUserByUsername(db, username)
      if (!user || (user.id !== viewer.id && (await isBlockedBetween(db, viewer.id, user.id)))) return 0
      if (user.id !== viewer.id) {
        await Promise.all([
          isFollowing(db, viewer.id, user.id),
          hasFollowRequest(db, viewer.id, user.id),
          isMuting(db, viewer.id, user.id),
        ])
      }
      const [cards] = await Promise.all([
        (async () => {
          const keys = await profileKeys(db, 'posts', user.id, viewer.id, undefined, 0, PAGE + 1)
          return hydratePosts(db, viewer.id, keys.slice(0, PAGE).map((k) => k.post_id))
        })(),
        visiblePostCount(db, user, viewer.id),
      ])
      return cards.size
    },
    like: (viewer, postId) =>
      db.transaction(async (tx) => {
        const written = await writeReactionBatch(tx, [{ viewerId: viewer.id, postId, reaction: 'likes' }])
        return written.counts.get(postId)?.likes ?? 0
      }),
    post: async (viewer, content) => {
      const parsed = parseText(content)
      const mentionIds = await findMentionable(db, viewer.id, parsed.mentions)
      const id = uuidv7()
      await db.transaction(async (tx) => {
        await insertPost(
          tx,
          { id, authorId: viewer.id, content, visibility: 'public', sensitive: false, sensitiveReason: null, replyTo: null },
          [],
          mentionIds,
          parsed.hashtags,
        )
        await recordHappenings(tx, mentionIds.map((recipientId) => ({ kind: 'mention', recipientId, actorId: viewer.id, postId: id })))
      })
      // The answer is the new post as its author sees it.
      await hydratePosts(db, viewer.id, [id])
      return 1
    },
    close: () => feed.close(),
  }
}
