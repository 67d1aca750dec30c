import type { Config } from '../../config'
import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { JobQueue } from '../../jobs/queue'
import type { Clock } from '../../lib/clock'
import { Conflict, Invalid } from '../../lib/domain-errors'
import { deleteAllDrafts } from '../drafts/queries'
import type { RateLimiter } from '../../lib/rate-limiter'
import { deleteQuietly, type Storage } from '../../storage/storage'
import { lockAdmins, recordAudit } from '../admin/queries'
import type { PasswordHasher } from '../auth/passwords'
import { proveCurrentPassword } from '../auth/current-password'
import type { Authenticated } from '../../lib/authenticated'
import type { SessionStore } from '../auth/sessions'
import { SignInLimits } from '../auth/sign-in-limits'
import type { TwoFactorService } from '../two-factor/service'
import {
  attachmentKeysOf,
  conversationsOf,
  deleteAllSessions,
  deleteConversation,
  deleteOwnPost,
  deleteUserRow,
  followsOf,
  holdUsername,
  HOLD_USERNAME_MS,
  imagesOf,
  listsHolding,
  markDeleted,
  postsOf,
  reactedPosts,
  releaseHeldUsernames,
  removeAsActor,
  removeFollow,
  withdrawReaction,
} from './queries'

// The product's words (docs/product.md, "Deleting an account").
export const CONFIRM_USERNAME = 'Type your username to confirm'
export const LAST_ADMIN_CANNOT_DELETE =
  'You are the last admin: promote another member to admin before deleting your account'
export const TWO_FACTOR_CODE_REQUIRED = 'Enter a code from your authenticator app'
export const ALREADY_DELETING = 'This account is already being deleted'

export const DELETE_JOB = 'account.delete'
export const RELEASE_JOB = 'account.release-usernames'

export interface DeletionRequest {
  currentAuthSecret?: string
  currentPassword?: string
  twoFactorCode?: string
  /** The member's username, typed. */
  confirm: string
}

interface DeleteJob {
  userId: string
}

export interface AccountDeletionDeps {
  config: Config
  db: Database
  clock: Clock
  passwords: PasswordHasher
  sessions: SessionStore
  rateLimits: RateLimiter
  invalidations: Invalidations
  storage: Storage
  attachmentStorage: Storage
  jobs: JobQueue
  twoFactor: TwoFactorService
  warn: (message: string, err: unknown) => void
}

/** "@Ann " and "ann" both confirm the account @ann: what matters is that the member typed their own name. */
const confirms = (typed: string, username: string) =>
  typed.trim().replace(/^@/, '').toLowerCase() === username.toLowerCase()

/**
 * Deleting an account (docs/product.md, "Deleting an account"). The request proves the password (and a second factor
 * when it is on), marks the member deleted, which hides them everywhere at once (visibility/visibility.ts lists
 * deleted members among every viewer's hidden authors), signs them out everywhere, holds the username and queues the
 * `account.delete` job; the job removes everything in pages, each page its own transaction, fixing every counter on
 * others as the matching undo would (unlike, unfollow, deleting a post), and finally the users row.
 */
export class AccountDeletionService {
  private readonly deps: AccountDeletionDeps
  private readonly signIn: SignInLimits

  constructor(deps: AccountDeletionDeps) {
    this.deps = deps
    this.signIn = new SignInLimits(deps.rateLimits, deps.config)
    deps.jobs.register<DeleteJob>(DELETE_JOB, {
      run: async ({ payload, extendLease }) => this.purge(payload.userId, extendLease),
    })
    deps.jobs.register<Record<string, never>>(RELEASE_JOB, {
      run: async () => {
        await releaseHeldUsernames(this.deps.db, new Date(this.deps.clock.now()))
      },
    })
  }

  async request(auth: Authenticated, input: DeletionRequest): Promise<void> {
    const user = auth.user
    await proveCurrentPassword({ passwords: this.deps.passwords, signIn: this.signIn }, user, input)
    if (!confirms(input.confirm, user.username)) throw new Invalid(CONFIRM_USERNAME)
    if (user.isAdmin) await this.refuseLastAdmin()
    if (user.twoFactorEnabled) {
      if (!input.twoFactorCode?.trim()) throw new Invalid(TWO_FACTOR_CODE_REQUIRED)
      await this.deps.twoFactor.proveCurrentCode(user.id, input.twoFactorCode)
    }
    const now = new Date(this.deps.clock.now())
    const sessionIds = await this.deps.db.transaction(async (tx) => {
      // Two admins leaving at once run one after the other: the second sees the first gone.
      if (user.isAdmin && (await lockAdmins(tx)) <= 1) throw new Conflict(LAST_ADMIN_CANNOT_DELETE)
      const username = await markDeleted(tx, user.id, now)
      if (username === undefined) throw new Conflict(ALREADY_DELETING)
      const ended = await deleteAllSessions(tx, user.id)
      const until = new Date(now.getTime() + HOLD_USERNAME_MS)
      await holdUsername(tx, username, until)
      await recordAudit(tx, { id: user.id, username }, 'delete-account', `@${username} deleted their account`, {
        userId: user.id,
      })
      await this.deps.jobs.enqueue<DeleteJob>(DELETE_JOB, { userId: user.id }, { tx, key: `delete:${user.id}` })
      await this.deps.jobs.enqueue(RELEASE_JOB, {}, { tx, runAt: until })
      return ended
    })
    // Before answering: once the member hears 202, no token of theirs works and no cache still shows them.
    await this.deps.sessions.announceRevoked(sessionIds)
    await this.deps.sessions.memberChanged(user.id)
    await this.deps.invalidations.emit({ kind: 'audience-changed', authorId: user.id })
    await this.deps.invalidations.emit({ kind: 'follows-changed', userId: user.id })
  }

  /** The job: everything of the member, page by page; safe to run again from any point. */
  private async purge(userId: string, extendLease: () => Promise<void>): Promise<void> {
    const { db, invalidations } = this.deps
    // Their posts and the threads beneath them.
    for (let page = await postsOf(db, userId); page.length > 0; page = await postsOf(db, userId)) {
      for (const post of page) {
        let storageKeys: string[] = []
        const deleted = await db.transaction(async (tx) => {
          const done = await deleteOwnPost(tx, post.id)
          // Files go before the commit: a crash after it would leave files no row names; a rollback after it leaves
          // rows the next run deletes (their files already gone, which deleting quietly allows).
          storageKeys = done?.storageKeys ?? []
          await deleteQuietly(this.deps.storage, storageKeys, (key, err) => this.deps.warn(`could not delete ${key}`, err))
          return done
        })
        if (!deleted) continue
        await invalidations.emit({ kind: 'posts-deleted', postIds: deleted.postIds })
        if (deleted.quotedIds.length > 0) await invalidations.emit({ kind: 'posts-changed', postIds: deleted.quotedIds })
        const parent = deleted.root.replyTo
        if (parent) {
          await invalidations.emit(
            deleted.root.visibility === 'public'
              ? { kind: 'posts-changed', postIds: [parent] }
              : { kind: 'restricted-replies-changed', postIds: [parent] },
          )
        }
      }
      await extendLease()
    }
    // Their likes and reposts of others' posts.
    for (const table of ['likes', 'reposts'] as const) {
      for (let page = await reactedPosts(db, table, userId); page.length > 0; page = await reactedPosts(db, table, userId)) {
        for (const postId of page) await db.transaction((tx) => withdrawReaction(tx, table, userId, postId))
        await invalidations.emit({ kind: 'posts-changed', postIds: page })
        await extendLease()
      }
    }
    // Follows both ways, with the other side's counter.
    for (let page = await followsOf(db, userId); page.length > 0; page = await followsOf(db, userId)) {
      for (const [follower, followee] of page) {
        await db.transaction((tx) => removeFollow(tx, follower, followee))
        const other = follower === userId ? followee : follower
        await invalidations.emit({ kind: 'member-changed', userId: other })
        await invalidations.emit({ kind: 'follows-changed', userId: other })
      }
      await extendLease()
    }
    // Conversations: end-to-end encrypted under a key agreed from both members' keys, so with the member's keys gone
    // nothing of it stays readable for the other side either; the conversation goes whole, attachment files first.
    for (let page = await conversationsOf(db, userId); page.length > 0; page = await conversationsOf(db, userId)) {
      for (const id of page) {
        await deleteQuietly(this.deps.attachmentStorage, await attachmentKeysOf(db, id), (key, err) =>
          this.deps.warn(`could not delete attachment ${key}`, err),
        )
        await deleteConversation(db, id)
      }
      await extendLease()
    }
    // Drafts and scheduled posts: their rows would go with the member's row, their files would not.
    const draftKeys = await deleteAllDrafts(db, userId)
    await deleteQuietly(this.deps.storage, draftKeys, (key, err) => this.deps.warn(`could not delete ${key}`, err))
    const recipients = await db.transaction((tx) => removeAsActor(tx, userId))
    if (recipients.length > 0) await invalidations.emit({ kind: 'notifications-changed', recipientIds: recipients })
    const lists = await listsHolding(db, userId)
    const images = (await imagesOf(db, userId)).flatMap((url) => {
      const key = this.deps.storage.keyOf(url)
      return key ? [key] : []
    })
    await deleteQuietly(this.deps.storage, images, (key, err) => this.deps.warn(`could not delete ${key}`, err))
    // The rest (lists, bookmarks, mutes, blocks, keys, two-factor, follow requests...) goes with the row by cascade;
    // list member counts are kept by their triggers, reports keep their rows with the member set to null.
    if (await deleteUserRow(db, userId)) {
      if (lists.length > 0) await invalidations.emit({ kind: 'lists-changed', listIds: lists })
      await invalidations.emit({ kind: 'member-changed', userId })
    }
  }

  private async refuseLastAdmin(): Promise<void> {
    const admins = await this.deps.db.transaction((tx) => lockAdmins(tx))
    if (admins <= 1) throw new Conflict(LAST_ADMIN_CANNOT_DELETE)
  }
}
