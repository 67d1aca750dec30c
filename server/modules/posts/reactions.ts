import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { SqlExecutor } from '../../db/rows'
import { Forbidden, NotFound } from '../../lib/domain-errors'
import { GroupCommit } from '../../lib/group-commit'
import { addDailyReactions, type DailyReactionChange } from '../analytics/daily-stats'
import { type Happening, recordHappenings, withdrawHappenings } from '../notifications/queries'
import type { NotificationService } from '../notifications/service'
import { POST_NOT_FOUND } from '../visibility/visibility'
import { addToReactionCounts, type CounterChange, type Flipped, flipReactions, type Reaction } from './reaction-queries'

export const ONLY_PUBLIC_REPOSTS = 'Only public posts can be reposted'

export interface Flip {
  viewerId: string
  postId: string
  reaction: Reaction
}

/** The member's reaction after their flip, and the post's count of that reaction after the batch. */
export interface ReactionState {
  active: boolean
  count: number
}

/** A deadlock or a serialization failure: the batch is tried again, as PostgreSQL's documentation advises. */
const isRetryable = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code
  return code === '40P01' || code === '40001'
}

const ATTEMPTS = 3

/**
 * Likes and reposts, written in batches (group commit, server/lib/group-commit.ts). A popular post's likes all change
 * the same rows: its counter, its day's analytics row and its author's grouped notification. One like at a time, each
 * in its own transaction, they queue behind those row locks (and each pays every statement). Here the flips that
 * arrive while a batch is written go together in the next one: the members' own rows are flipped by one statement,
 * then the batch's net changes go to each post's counters, each day's row and each notification item once, all in
 * one transaction, so counts are exact and nothing is answered before it is stored. A member's answer carries their
 * own like at once, and the post's count just after their flip.
 */
export class Reactions {
  private readonly batches: GroupCommit<Flip, ReactionState>
  private readonly db: Database
  private readonly notifications: NotificationService
  private readonly invalidations: Invalidations

  constructor(deps: { db: Database; notifications: NotificationService; invalidations: Invalidations }) {
    this.db = deps.db
    this.notifications = deps.notifications
    this.invalidations = deps.invalidations
    this.batches = new GroupCommit((flips) => this.write(flips))
  }

  /** Flips the viewer's like or repost of the post; refuses a post they may not see and a repost of a non-public one. */
  toggle(viewerId: string, postId: string, reaction: Reaction): Promise<ReactionState> {
    return this.batches.submit({ viewerId, postId, reaction })
  }

  /** Resolves once every flip submitted so far is stored (shutdown, before the database closes). */
  close(): Promise<void> {
    return this.batches.close()
  }

  private async write(flips: readonly Flip[]): Promise<Array<ReactionState | Error>> {
    let written: Written
    try {
      written = await this.inTransaction(flips)
    } catch (err) {
      // One flip that fails on its own (a post deleted under it) must not fail the others: each alone, then.
      if (flips.length === 1) throw err
      return Promise.all(flips.map((flip) => this.write([flip]).then(([one]) => one ?? new Error('no result'))))
    }
    await this.announce(flips, written)
    return countsAsOfEach(written)
  }

  private async inTransaction(flips: readonly Flip[]): Promise<Written> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.db.transaction((tx) => writeReactionBatch(tx, flips))
      } catch (err) {
        if (attempt >= ATTEMPTS || !isRetryable(err)) throw err
      }
    }
  }

  /**
   * After commit: every process drops what the batch changed before anyone is answered (the posts' cards and counts,
   * each member's own flags, a reposter's timeline entries), then the recipients hear of their notifications.
   */
  private async announce(flips: readonly Flip[], written: Written): Promise<void> {
    if (written.changedPosts.length > 0) await this.invalidations.emit({ kind: 'posts-changed', postIds: written.changedPosts })
    const byViewer = new Map<string, Set<string>>()
    for (const [i, flip] of flips.entries()) {
      if (written.results[i] instanceof Error) continue
      const set = byViewer.get(flip.viewerId) ?? new Set<string>()
      set.add(flip.postId)
      byViewer.set(flip.viewerId, set)
    }
    for (const [userId, postIds] of byViewer) {
      await this.invalidations.emit({ kind: 'reactions-changed', userId, postIds: [...postIds] })
    }
    for (const { authorId, added } of written.reposters) {
      await this.invalidations.emit({ kind: 'author-activity', authorId, added })
    }
    await this.notifications.announce(written.told)
  }
}

export interface Written {
  results: Array<(Flipped & { active: boolean; reaction: Reaction }) | Error>
  counts: Map<string, { likes: number; reposts: number }>
  changedPosts: string[]
  /**
   * Members who reposted or un-reposted, and whether they only reposted: a repost is an item at the top of the feeds
   * it is in (or nothing, when an earlier one brought the post), which cached timelines read again; an un-repost can
   * move the post down to a later repost or take it out, which drops them.
   */
  reposters: Array<{ authorId: string; added: boolean }>
  told: string[]
}

/**
 * Each flip's answer: the member's state, and the post's count just after their flip, as if the batch's flips had
 * been written one at a time in arrival order (the count after the batch less the changes of later flips), so an
 * answer's count always agrees with its state.
 */
function countsAsOfEach(written: Written): Array<ReactionState | Error> {
  const later = new Map<string, number>()
  const answers: Array<ReactionState | Error> = []
  for (let i = written.results.length - 1; i >= 0; i -= 1) {
    const r = written.results[i]
    if (!r || r instanceof Error) {
      answers[i] = r ?? new Error('no result')
      continue
    }
    const key = `${r.reaction} ${r.postId}`
    const after = written.counts.get(r.postId)?.[r.reaction] ?? 0
    const changedLater = later.get(key) ?? 0
    answers[i] = { active: r.active, count: Math.max(0, after - changedLater) }
    later.set(key, changedLater + r.delta)
  }
  return answers
}

const happeningKind = { likes: 'like', reposts: 'repost' } as const

/**
 * Every flip's own row, in as few statements as the batch allows: one per reaction kind, and again for each further
 * flip of the same (member, post) in the batch, which must see the one before it (rounds, in arrival order).
 */
async function flipAll(tx: SqlExecutor, flips: readonly Flip[]): Promise<Array<Flipped | undefined>> {
  const rounds: Array<Array<{ index: number; flip: Flip }>> = []
  const seen = new Map<string, number>()
  for (const [index, flip] of flips.entries()) {
    const key = `${flip.reaction} ${flip.viewerId} ${flip.postId}`
    const round = seen.get(key) ?? 0
    seen.set(key, round + 1)
    const list = rounds[round] ?? []
    list.push({ index, flip })
    rounds[round] = list
  }
  const flipped: Array<Flipped | undefined> = flips.map(() => undefined)
  for (const round of rounds) {
    for (const reaction of ['likes', 'reposts'] as const) {
      const these = round.filter((x) => x.flip.reaction === reaction)
      if (these.length === 0) continue
      const answers = await flipReactions(tx, reaction, these.map((x) => x.flip))
      these.forEach((x, k) => (flipped[x.index] = answers[k]))
    }
  }
  return flipped
}

/**
 * One batch in one transaction: each flip's own row in arrival order, then per post the counters, per post and day
 * the analytics, and per notification item its actors, each written once with the batch's net change.
 */
export async function writeReactionBatch(tx: SqlExecutor, flips: readonly Flip[]): Promise<Written> {
  const results: Written['results'] = []
  const counters = new Map<string, CounterChange>()
  const days: DailyReactionChange[] = []
  // The last change of each (reaction, member, post) decides whether the member is in the item: a like and an unlike
  // in one batch leave no notification.
  const last = new Map<string, { happening: Happening; active: boolean }>()
  const reposters = new Map<string, boolean>()
  const flippedAll = await flipAll(tx, flips)
  for (const [i, flip] of flips.entries()) {
    const flipped = flippedAll[i]
    if (!flipped) {
      results.push(new NotFound(POST_NOT_FOUND))
      continue
    }
    if (flip.reaction === 'reposts' && flipped.visibility !== 'public') {
      results.push(new Forbidden(ONLY_PUBLIC_REPOSTS))
      continue
    }
    const active = flipped.delta === 1 || (flipped.delta === 0 && flipped.removedMadeAt === null)
    results.push({ ...flipped, active, reaction: flip.reaction })
    const counter = counters.get(flipped.postId) ?? { postId: flipped.postId, likes: 0, reposts: 0 }
    counter[flip.reaction] += flipped.delta
    counters.set(flipped.postId, counter)
    if (flipped.delta === 0) continue
    days.push({
      postId: flipped.postId,
      madeAt: flipped.delta === 1 ? null : flipped.removedMadeAt,
      likes: flip.reaction === 'likes' ? flipped.delta : 0,
      reposts: flip.reaction === 'reposts' ? flipped.delta : 0,
    })
    if (flip.reaction === 'reposts') {
      reposters.set(flip.viewerId, (reposters.get(flip.viewerId) ?? true) && flipped.delta === 1)
    }
    const happening: Happening = {
      kind: happeningKind[flip.reaction],
      recipientId: flipped.authorId,
      actorId: flip.viewerId,
      postId: flipped.postId,
    }
    const key = `${flip.reaction} ${flip.viewerId} ${flipped.postId}`
    last.delete(key)
    last.set(key, { happening, active: flipped.delta === 1 })
  }
  const ordered = [...counters.values()].sort((a, b) => a.postId.localeCompare(b.postId))
  const counts = await addToReactionCounts(tx, ordered)
  await addDailyReactions(tx, days)
  const given = [...last.values()].filter((x) => x.active).map((x) => x.happening)
  const taken = [...last.values()].filter((x) => !x.active).map((x) => x.happening)
  const told = [...(await recordHappenings(tx, given)), ...(await withdrawHappenings(tx, taken))]
  const changedPosts = ordered.filter((c) => c.likes !== 0 || c.reposts !== 0).map((c) => c.postId)
  const reposted = [...reposters].map(([authorId, added]) => ({ authorId, added }))
  return { results, counts, changedPosts, reposters: reposted, told }
}
