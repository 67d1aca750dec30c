import { POLL_MESSAGES } from '../../../src/api/contract/polls'
import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import { toDate, type SqlExecutor } from '../../db/rows'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import type { JobQueue } from '../../jobs/queue'
import type { Clock } from '../../lib/clock'
import { Conflict, Invalid, NotFound, Unprocessable } from '../../lib/domain-errors'
import type { WriteLimits } from '../../lib/write-limits'
import type { NotificationService } from '../notifications/service'
import type { PostCaches } from '../posts/cache/post-caches'
import { findVisiblePost } from '../posts/queries'
import { POST_NOT_FOUND } from '../visibility/visibility'
import type { NewPoll } from './input'
import { hasVoted, insertPoll, insertVote, lockPoll, markClosed } from './queries'

/** Tells a poll's author it has ended, at its closing time (one job per poll, keyed by it). */
export const POLL_CLOSE_JOB = 'poll.close'

export interface PollDeps {
  db: Database
  clock: Clock
  jobs: JobQueue
  writeLimits: WriteLimits
  invalidations: Invalidations
  postCaches: PostCaches
  notifications: NotificationService
}

/**
 * Polls on posts (docs/product.md, "Polls"). A poll is made in its post's transaction with the job that closes it;
 * votes are counted under the poll row's lock, so the counts are exact however many vote at once, and each vote drops
 * the post's shared card (its counts) and the voter's own flags (their choices) on every process before it answers.
 */
export class PollService {
  constructor(private readonly deps: PollDeps) {
    deps.jobs.register<{ postId: string }>(POLL_CLOSE_JOB, { run: ({ payload }) => this.close(payload.postId) })
  }

  /** In the post's transaction: the poll, and the job that tells the author when it has ended. */
  async create(tx: SqlExecutor, postId: string, poll: NewPoll): Promise<void> {
    const closesAt = new Date(this.deps.clock.now() + poll.durationSeconds * 1000)
    await insertPoll(tx, postId, poll, closesAt)
    await this.deps.jobs.enqueue(POLL_CLOSE_JOB, { postId }, { tx, runAt: closesAt, key: `${POLL_CLOSE_JOB}:${postId}` })
  }

  /** One vote of one member (one option, or several on a multiple-choice poll); answers the poll as they now see it. */
  async vote(viewer: UserRow, postId: string, choices: readonly string[]): Promise<Schemas['Poll']> {
    const chosen = [...new Set(choices)]
    if (chosen.length === 0) throw new Invalid(POLL_MESSAGES.noChoice)
    await this.deps.writeLimits.count('votes', viewer.id)
    await this.deps.db.transaction(async (tx) => {
      // Blocks either way, private accounts and audiences: a post the voter may not see is not there for them.
      if (!(await findVisiblePost(tx, viewer.id, postId))) throw new NotFound(POST_NOT_FOUND)
      const poll = await lockPoll(tx, postId)
      if (!poll) throw new NotFound(POLL_MESSAGES.notAPoll)
      if (toDate(poll.closes_at).getTime() <= this.deps.clock.now()) throw new Unprocessable(POLL_MESSAGES.closed)
      if (await hasVoted(tx, postId, viewer.id)) throw new Conflict(POLL_MESSAGES.alreadyVoted)
      if (chosen.some((id) => !poll.option_ids.includes(id))) throw new Invalid(POLL_MESSAGES.unknownOption)
      if (!poll.multiple && chosen.length > 1) throw new Invalid(POLL_MESSAGES.oneChoice)
      await insertVote(tx, postId, viewer.id, chosen)
    })
    // Before answering: no process may serve the old counts on the card, or this voter's old (empty) choices.
    await this.deps.invalidations.emit({ kind: 'posts-changed', postIds: [postId] })
    await this.deps.invalidations.emit({ kind: 'reactions-changed', userId: viewer.id, postIds: [postId] })
    const post = (await this.deps.postCaches.posts(viewer.id, [postId], new Set([postId]))).get(postId)
    if (!post?.poll) throw new NotFound(POST_NOT_FOUND)
    return post.poll
  }

  /** The close job: the author hears once that their poll has ended (a deleted post has no poll left to tell of). */
  private async close(postId: string): Promise<void> {
    const told = await this.deps.db.transaction(async (tx) => {
      const authorId = await markClosed(tx, postId, new Date(this.deps.clock.now()))
      return authorId === undefined ? [] : this.deps.notifications.recordOwn(tx, 'poll_closed', authorId, postId)
    })
    await this.deps.notifications.announce(told)
  }
}
