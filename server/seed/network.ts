import { ListColumn, TimeColumn } from './columns'
import { distinctSample, type Random, WeightedSampler } from './random'
import type { TimedIds } from './timed-ids'
import { firstNames, lastNames } from './words'

/**
 * Members and who follows whom, in memory, before anything is written (counters must be known when the users rows
 * are written).
 *
 * Member i has popularity rank i: member 0 is the biggest celebrity. Followees are drawn in proportion to
 * 1/(rank+1)^0.95, a Zipf law, which gives what real networks show: a handful of accounts followed by most members
 * and a long tail with a few followers each. How many accounts a member follows is log-normal (median 25), except
 * for the members the benchmark needs: some follow exactly 2,000 accounts and some exactly 20.
 */

export const DAY_MS = 86_400_000
const ZIPF_EXPONENT = 0.95
const MEDIAN_FOLLOWING = 25
const MAX_ORDINARY_FOLLOWING = 1_000
export const HEAVY_FOLLOWING = 2_000
export const LIGHT_FOLLOWING = 20

export type KnownRole = 'star' | 'reader' | 'casual' | 'member'

export interface KnownMember {
  role: KnownRole
  index: number
  username: string
  /** What the role means, for the printed list of logins. */
  description: string
}

export interface Network {
  count: number
  ids: string[]
  usernames: string[]
  displayNames: string[]
  /** Milliseconds since the epoch, exactly the time each id embeds. */
  createdAt: Float64Array
  /** 1 for the top celebrity, falling with rank: drives likes, reposts and replies towards popular members. */
  popularity: Float64Array
  /** How much each member posts, relative to the others. */
  activity: WeightedSampler
  /** Followees drawn by popularity (also used to pick likers of public posts). */
  byPopularity: WeightedSampler
  verified: Uint8Array
  privateAccount: Uint8Array
  /** Followees of each member (the lists the follows rows are written from). */
  following: ListColumn
  /** When each follow of `following.items` happened, in the same order. */
  followedAt: Float64Array
  /** Followers of each member, built from `following`. */
  followers: ListColumn
  known: KnownMember[]
  /** Members made to follow exactly 2,000 (or everyone, in a small network) and exactly 20 accounts. */
  heavy: number[]
  light: number[]
}

function knownMembers(count: number): KnownMember[] {
  // Fixed ranks: the star is the most popular; the others sit in the tail like most real members.
  return [
    { role: 'star', index: 0, username: 'demo_star', description: 'most followed member' },
    {
      role: 'reader',
      index: Math.floor(count * 0.5),
      username: 'demo_reader',
      description: `follows ${Math.min(HEAVY_FOLLOWING, count - 1)} accounts`,
    },
    {
      role: 'casual',
      index: Math.floor(count * 0.75),
      username: 'demo_casual',
      description: `follows ${Math.min(LIGHT_FOLLOWING, count - 1)} accounts`,
    },
    { role: 'member', index: Math.floor(count * 0.3), username: 'demo_member', description: 'an ordinary member' },
  ]
}

/** Besides the known reader and casual member, about one member in a thousand of each kind. */
function specialFollowers(random: Random, count: number, known: KnownMember[]) {
  const taken = new Set(known.map((k) => k.index))
  const extra = Math.floor(count / 1_000)
  const pickTail = () => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const i = Math.floor(count / 10) + random.int(count - Math.floor(count / 10))
      if (!taken.has(i)) {
        taken.add(i)
        return i
      }
    }
    return undefined
  }
  const heavy = [known.find((k) => k.role === 'reader')?.index ?? 0]
  const light = [known.find((k) => k.role === 'casual')?.index ?? 0]
  for (let k = 0; k < extra; k += 1) {
    const h = pickTail()
    if (h !== undefined) heavy.push(h)
    const l = pickTail()
    if (l !== undefined) light.push(l)
  }
  return { heavy, light }
}

export function buildNetwork(random: Random, count: number, now: number, ids: TimedIds): Network {
  if (count < 10) throw new Error('At least 10 members are needed')
  const known = knownMembers(count)
  const knownByIndex = new Map(known.map((k) => [k.index, k]))

  // Join dates between ~13 and 3 months ago, before every seeded post. Ids are made in time order (timed-ids.ts),
  // then dealt to members at random so popularity and seniority are unrelated.
  const times = new Float64Array(count)
  for (let i = 0; i < count; i += 1) times[i] = now - 400 * DAY_MS + random.next() * 309 * DAY_MS
  times.sort()
  const made = Array.from(times, (t) => ids.next(t))
  random.shuffle(made)

  const usernames: string[] = []
  const displayNames: string[] = []
  const popularity = new Float64Array(count)
  const activityWeights = new Float64Array(count)
  const verified = new Uint8Array(count)
  const privateAccount = new Uint8Array(count)
  const verifiedCount = Math.max(1, Math.floor(count / 1_000))
  for (let i = 0; i < count; i += 1) {
    const first = random.pick(firstNames)
    const last = random.pick(lastNames)
    const knownMember = knownByIndex.get(i)
    usernames.push(knownMember?.username ?? `${first}_${last}${i}`)
    displayNames.push(
      knownMember ? `Demo ${knownMember.role[0]?.toUpperCase()}${knownMember.role.slice(1)}` : `${cap(first)} ${cap(last)}`,
    )
    popularity[i] = 1 / (i + 1) ** ZIPF_EXPONENT
    // Popular members post more, and everyone varies a lot.
    activityWeights[i] = random.logNormal(1, 1) * (1 + 9 * Math.sqrt(popularity[i] ?? 0))
    verified[i] = i < verifiedCount ? 1 : 0
    privateAccount[i] = !knownMember && random.chance(0.005) ? 1 : 0
  }

  const byPopularity = new WeightedSampler(popularity)
  const { heavy, light } = specialFollowers(random, count, known)
  const heavySet = new Set(heavy)
  const lightSet = new Set(light)

  const following = new ListColumn(count, count * 40)
  const followedAt = new TimeColumn(count * 40)
  for (let i = 0; i < count; i += 1) {
    let wanted: number
    if (heavySet.has(i)) wanted = HEAVY_FOLLOWING
    else if (lightSet.has(i)) wanted = LIGHT_FOLLOWING
    else wanted = Math.min(MAX_ORDINARY_FOLLOWING, Math.round(random.logNormal(MEDIAN_FOLLOWING, 1)))
    const followees = distinctSample(random, count, wanted, i, byPopularity)
    followees.sort((a, b) => a - b)
    const joined = made[i]?.ms ?? now
    for (const f of followees) {
      following.items.push(f)
      const since = Math.max(joined, made[f]?.ms ?? now)
      followedAt.push(since + random.next() * (now - since))
    }
    following.close()
  }

  return {
    count,
    ids: made.map((m) => m.id),
    usernames,
    displayNames,
    createdAt: Float64Array.from(made, (m) => m.ms),
    popularity,
    activity: new WeightedSampler(activityWeights),
    byPopularity,
    verified,
    privateAccount,
    following,
    followedAt: followedAt.view(),
    followers: invert(following, count),
    known,
    heavy,
    light,
  }
}

function cap(word: string): string {
  return `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}`
}

/** Followers lists from followees lists (a counting sort by followee). */
function invert(following: ListColumn, count: number): ListColumn {
  const counts = new Int32Array(count)
  const items = following.items.view()
  for (const f of items) counts[f] = (counts[f] ?? 0) + 1
  const offsets = new Int32Array(count + 1)
  for (let i = 0; i < count; i += 1) offsets[i + 1] = (offsets[i] ?? 0) + (counts[i] ?? 0)
  const slots = offsets.slice(0, count)
  const flat = new Int32Array(items.length)
  for (let follower = 0; follower < count; follower += 1) {
    for (let k = following.start(follower); k < following.end(follower); k += 1) {
      const followee = following.items.at(k)
      const slot = slots[followee] ?? 0
      flat[slot] = follower
      slots[followee] = slot + 1
    }
  }
  const followers = new ListColumn(count, items.length)
  for (let i = 0; i < count; i += 1) {
    for (let k = offsets[i] ?? 0; k < (offsets[i + 1] ?? 0); k += 1) followers.items.push(flat[k] ?? 0)
    followers.close()
  }
  return followers
}

/** `following` counts and `followers` counts, for the users rows. */
export function followCounts(network: Network): { followingCount: Int32Array; followersCount: Int32Array } {
  const followingCount = new Int32Array(network.count)
  const followersCount = new Int32Array(network.count)
  for (let i = 0; i < network.count; i += 1) {
    followingCount[i] = network.following.count(i)
    followersCount[i] = network.followers.count(i)
  }
  return { followingCount, followersCount }
}
