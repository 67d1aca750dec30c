import { IntColumn, ListColumn, TimeColumn } from './columns'
import { DAY_MS, type Network } from './network'
import { distinctSample, type Random } from './random'
import type { TimedIds } from './timed-ids'
import { hashtags } from './words'

/**
 * Every post, reply, like and repost decided in memory before a row is written: a post's row carries its like,
 * repost and reply counters, and replies arrive after their parent, so the counters are only known once the whole
 * plan exists. The text itself is made while writing (rows.ts), from what is decided here (mentions, hashtags).
 */

export const VISIBILITY = ['public', 'followers', 'mentioned'] as const
const PUBLIC = 0
const FOLLOWERS = 1
const MENTIONED = 2

const REPLY_SHARE = 0.25
// Replies go to recent posts; half of them to posts of the most popular members.
const RECENT_WINDOW = 5_000
const HOUR_MS = 3_600_000

export interface Interactions {
  user: IntColumn
  post: IntColumn
  at: TimeColumn
}

export interface PostPlan {
  count: number
  ids: string[]
  createdAt: Float64Array
  author: Int32Array
  /** Index of the parent post, or -1. */
  parent: Int32Array
  /** Index into VISIBILITY. */
  visibility: Uint8Array
  sensitive: Uint8Array
  likeCount: Int32Array
  repostCount: Int32Array
  /** Direct public replies (the stored counter's meaning, see schema-posts.ts). */
  replyCount: Int32Array
  viewCount: Int32Array
  /** Mentioned members per post, in the order the text names them. */
  mentions: ListColumn
  /** Indices into `hashtags` per post, distinct. */
  tags: ListColumn
  likes: Interactions
  reposts: Interactions
  /** Posts (replies included) per member. */
  postsCount: Int32Array
}

function interactions(capacity: number): Interactions {
  return { user: new IntColumn(capacity), post: new IntColumn(capacity), at: new TimeColumn(capacity) }
}

/** A ring of the latest post indices, to pick reply parents from. */
class Recent {
  private readonly items = new Int32Array(RECENT_WINDOW)
  private size = 0
  private next = 0

  add(post: number): void {
    this.items[this.next] = post
    this.next = (this.next + 1) % RECENT_WINDOW
    this.size = Math.min(this.size + 1, RECENT_WINDOW)
  }

  pick(random: Random): number {
    return this.size === 0 ? -1 : (this.items[random.int(this.size)] ?? -1)
  }
}

export function planPosts(random: Random, network: Network, count: number, now: number, ids: TimedIds): PostPlan {
  // Over the last 90 days, up to a minute ago; sorted so ids are made in time order (timed-ids.ts).
  const times = new Float64Array(count)
  for (let i = 0; i < count; i += 1) times[i] = now - 90 * DAY_MS + random.next() * (90 * DAY_MS - 60_000)
  times.sort()

  const plan: PostPlan = {
    count,
    ids: new Array<string>(count),
    createdAt: new Float64Array(count),
    author: new Int32Array(count),
    parent: new Int32Array(count).fill(-1),
    visibility: new Uint8Array(count),
    sensitive: new Uint8Array(count),
    likeCount: new Int32Array(count),
    repostCount: new Int32Array(count),
    replyCount: new Int32Array(count),
    viewCount: new Int32Array(count),
    mentions: new ListColumn(count, count / 4),
    tags: new ListColumn(count, count / 2),
    likes: interactions(count * 2),
    reposts: interactions(count / 50),
    postsCount: new Int32Array(network.count),
  }

  const celebrityCutoff = Math.max(1, Math.floor(network.count / 100))
  const recentPublic = new Recent()
  const recentCelebrity = new Recent()

  for (let i = 0; i < count; i += 1) {
    const made = ids.next(times[i] ?? now)
    plan.ids[i] = made.id
    plan.createdAt[i] = made.ms
    const author = network.activity.draw(random)
    plan.author[i] = author
    plan.postsCount[author] = (plan.postsCount[author] ?? 0) + 1

    const parent = random.chance(REPLY_SHARE)
      ? (random.chance(0.5) ? recentCelebrity : recentPublic).pick(random)
      : -1
    plan.parent[i] = parent
    const visibility = chooseMentionsAndVisibility(random, network, plan, author, parent)
    plan.visibility[i] = visibility
    chooseTags(random, plan, parent >= 0)
    plan.sensitive[i] = random.chance(0.01) ? 1 : 0

    if (parent >= 0 && visibility === PUBLIC) plan.replyCount[parent] = (plan.replyCount[parent] ?? 0) + 1
    chooseLikes(random, network, plan, i, now)
    if (visibility === PUBLIC && parent < 0) chooseReposts(random, network, plan, i, now)
    const likes = plan.likeCount[i] ?? 0
    plan.viewCount[i] = visibility === PUBLIC ? likes * (5 + random.int(20)) + random.int(30) : likes * 3 + random.int(5)

    // Replies may only go to posts everyone can see (a reply needs a parent its author can see).
    if (visibility === PUBLIC) {
      recentPublic.add(i)
      if (author < celebrityCutoff) recentCelebrity.add(i)
    }
  }
  return plan
}

/** Mentions first (a `mentioned` post needs at least one), then the visibility they allow. */
function chooseMentionsAndVisibility(
  random: Random,
  network: Network,
  plan: PostPlan,
  author: number,
  parent: number,
): number {
  const named = new Set<number>()
  if (parent >= 0) {
    // Replies start with "@parent-author", as clients write them.
    const parentAuthor = plan.author[parent] ?? author
    if (parentAuthor !== author) named.add(parentAuthor)
    if (random.chance(0.05)) named.add(network.byPopularity.draw(random))
  } else {
    let wanted = random.chance(0.15) ? 1 + random.int(2) : 0
    let visibility = random.chance(0.09) ? FOLLOWERS : PUBLIC
    if (random.chance(0.03)) {
      visibility = MENTIONED
      wanted = Math.max(wanted, 1)
    }
    const followees = network.following.count(author)
    for (let k = 0; k < wanted; k += 1) {
      named.add(
        followees > 0
          ? network.following.items.at(network.following.start(author) + random.int(followees))
          : network.byPopularity.draw(random),
      )
    }
    named.delete(author)
    for (const m of named) plan.mentions.items.push(m)
    plan.mentions.close()
    return visibility === MENTIONED && named.size === 0 ? PUBLIC : visibility
  }
  named.delete(author)
  for (const m of named) plan.mentions.items.push(m)
  plan.mentions.close()
  return random.chance(0.06) ? FOLLOWERS : PUBLIC
}

/** Zipf over the tag list: a few trending tags, a long tail. */
function chooseTags(random: Random, plan: PostPlan, reply: boolean): void {
  if (random.chance(reply ? 0.1 : 0.35)) {
    const chosen = new Set<number>()
    const wanted = 1 + random.int(3)
    for (let k = 0; k < wanted; k += 1) {
      chosen.add(Math.min(hashtags.length - 1, Math.floor(hashtags.length * random.next() ** 2.5)))
    }
    for (const t of chosen) plan.tags.items.push(t)
  }
  plan.tags.close()
}

function chooseLikes(random: Random, network: Network, plan: PostPlan, post: number, now: number): void {
  const author = plan.author[post] ?? 0
  const visibility = plan.visibility[post]
  const pop = network.popularity[author] ?? 0
  let likers: number[] = []
  if (visibility === PUBLIC) {
    const wanted = Math.floor(random.logNormal(1, 1.1) * (1 + 30 * pop ** 0.8))
    likers = distinctSample(random, network.count, Math.min(wanted, 5_000), author, network.activity)
  } else if (visibility === FOLLOWERS) {
    // Only followers can see it, so only followers like it.
    const followers = network.followers.count(author)
    const wanted = Math.min(followers, Math.floor(random.logNormal(0.7, 1)))
    const start = network.followers.start(author)
    likers = distinctSample(random, followers, wanted, -1).map((k) => network.followers.items.at(start + k))
  }
  addInteractions(random, plan.likes, likers, post, plan.createdAt[post] ?? now, now, 8 * HOUR_MS)
  plan.likeCount[post] = likers.length
}

function chooseReposts(random: Random, network: Network, plan: PostPlan, post: number, now: number): void {
  const author = plan.author[post] ?? 0
  const pop = network.popularity[author] ?? 0
  if (!random.chance(0.006 + 0.15 * pop ** 0.7)) return
  const wanted = 1 + Math.floor(random.exponential(0.5 + 5 * pop))
  const followers = network.followers.count(author)
  const start = network.followers.start(author)
  // Mostly the author's followers pass a post on; anyone may.
  const reposters =
    followers >= wanted
      ? distinctSample(random, followers, wanted, -1).map((k) => network.followers.items.at(start + k))
      : distinctSample(random, network.count, wanted, author, network.byPopularity)
  addInteractions(random, plan.reposts, reposters, post, plan.createdAt[post] ?? now, now, 12 * HOUR_MS)
  plan.repostCount[post] = reposters.length
}

/** Likes and reposts come after the post, mostly within hours. */
function addInteractions(
  random: Random,
  into: Interactions,
  users: number[],
  post: number,
  postedAt: number,
  now: number,
  meanDelay: number,
): void {
  for (const user of users) {
    into.user.push(user)
    into.post.push(post)
    into.at.push(Math.min(now - 1_000, postedAt + random.exponential(meanDelay)))
  }
}
