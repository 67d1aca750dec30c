import type { Interactions, PostPlan } from './posts-plan'
import { VISIBILITY } from './posts-plan'
import type { Network } from './network'
import { followCounts } from './network'
import type { Random } from './random'
import type { Cell, RowSink } from './sinks'
import { bios, hashtags, replyText, sensitiveReasons, sentence } from './words'

/**
 * Turns the in-memory network and post plan into rows, one table at a time. Each writer awaits the sink only when it
 * asks to (backpressure), so a million rows cost a million cheap calls, not a million awaits.
 */

export type Progress = (done: number) => void

const iso = (ms: number) => new Date(ms).toISOString()

async function put(sink: RowSink, row: readonly Cell[]): Promise<void> {
  const wait = sink.add(row)
  if (wait) await wait
}

export async function writeUsers(sink: RowSink, network: Network, plan: PostPlan, passwordHash: string, random: Random) {
  const { followingCount, followersCount } = followCounts(network)
  for (let i = 0; i < network.count; i += 1) {
    const at = iso(network.createdAt[i] ?? 0)
    const username = network.usernames[i] ?? ''
    await put(sink, [
      network.ids[i] ?? null,
      username,
      `${username}@example.test`,
      network.displayNames[i] ?? username,
      passwordHash,
      random.pick(bios),
      network.verified[i] === 1,
      network.privateAccount[i] === 1,
      followersCount[i] ?? 0,
      followingCount[i] ?? 0,
      plan.postsCount[i] ?? 0,
      at,
      at,
      at,
    ])
  }
  await sink.end()
  return network.count
}

export async function writeFollows(sink: RowSink, network: Network, progress: Progress) {
  const { following, followedAt, ids } = network
  let written = 0
  for (let follower = 0; follower < network.count; follower += 1) {
    for (let k = following.start(follower); k < following.end(follower); k += 1) {
      await put(sink, [ids[follower] ?? null, ids[following.items.at(k)] ?? null, iso(followedAt[k] ?? 0)])
      written += 1
    }
    if (follower % 1_000 === 999) progress(written)
  }
  await sink.end()
  return written
}

/** The text a member would have typed for this post: it names exactly the mentions and hashtags planned for it. */
function content(random: Random, network: Network, plan: PostPlan, post: number): string {
  const parent = plan.parent[post] ?? -1
  const author = plan.author[post] ?? 0
  const named: string[] = []
  for (let k = plan.mentions.start(post); k < plan.mentions.end(post); k += 1) {
    named.push(`@${network.usernames[plan.mentions.items.at(k)] ?? ''}`)
  }
  const tags: string[] = []
  for (let k = plan.tags.start(post); k < plan.tags.end(post); k += 1) tags.push(`#${hashtags[plan.tags.items.at(k)] ?? ''}`)

  let text: string
  if (parent >= 0) {
    const parentAuthor = plan.author[parent] ?? author
    // The parent's author, when mentioned, is always the first mention (posts-plan.ts adds it first).
    const lead = parentAuthor !== author && named.length > 0 ? `${named.shift()} ` : ''
    text = `${lead}${replyText(random)}${named.length > 0 ? ` cc ${named.join(' ')}` : ''}`
  } else {
    text = sentence(random)
    if (named.length > 0) text += ` With ${named.join(' and ')}.`
  }
  return tags.length > 0 ? `${text} ${tags.join(' ')}` : text
}

export async function writePosts(sink: RowSink, network: Network, plan: PostPlan, random: Random, progress: Progress) {
  for (let i = 0; i < plan.count; i += 1) {
    const parent = plan.parent[i] ?? -1
    const sensitive = plan.sensitive[i] === 1
    await put(sink, [
      plan.ids[i] ?? null,
      network.ids[plan.author[i] ?? 0] ?? null,
      content(random, network, plan, i),
      VISIBILITY[plan.visibility[i] ?? 0] ?? 'public',
      sensitive,
      sensitive && random.chance(0.7) ? random.pick(sensitiveReasons) : null,
      parent >= 0 ? (plan.ids[parent] ?? null) : null,
      parent >= 0 ? (network.ids[plan.author[parent] ?? 0] ?? null) : null,
      iso(plan.createdAt[i] ?? 0),
      plan.likeCount[i] ?? 0,
      plan.repostCount[i] ?? 0,
      plan.replyCount[i] ?? 0,
      plan.viewCount[i] ?? 0,
    ])
    if (i % 10_000 === 9_999) progress(i + 1)
  }
  await sink.end()
  return plan.count
}

export async function writeHashtags(sink: RowSink, plan: PostPlan) {
  const { tags } = plan
  for (let post = 0; post < plan.count; post += 1) {
    for (let k = tags.start(post); k < tags.end(post); k += 1) {
      await put(sink, [plan.ids[post] ?? null, (hashtags[tags.items.at(k)] ?? '').toLowerCase()])
    }
  }
  await sink.end()
  return tags.items.length
}

export async function writeMentions(sink: RowSink, network: Network, plan: PostPlan) {
  const { mentions } = plan
  for (let post = 0; post < plan.count; post += 1) {
    for (let k = mentions.start(post); k < mentions.end(post); k += 1) {
      await put(sink, [plan.ids[post] ?? null, network.ids[mentions.items.at(k)] ?? null])
    }
  }
  await sink.end()
  return mentions.items.length
}

/** Likes or reposts. */
export async function writeInteractions(
  sink: RowSink,
  network: Network,
  plan: PostPlan,
  rows: Interactions,
  progress: Progress,
) {
  const count = rows.user.length
  for (let k = 0; k < count; k += 1) {
    await put(sink, [network.ids[rows.user.at(k)] ?? null, plan.ids[rows.post.at(k)] ?? null, iso(rows.at.at(k))])
    if (k % 50_000 === 49_999) progress(k + 1)
  }
  await sink.end()
  return count
}
