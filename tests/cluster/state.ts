import { allPages, bodyOf, request } from './http'
import type { Member, System } from './workload'

/**
 * What each member sees, read from one server: the state the cluster and the oracle must agree on. Ids and times
 * differ between the systems, so everything is named by username and by post text (unique in a run).
 */
export interface MemberState {
  /** Home feed, newest first: post texts, a repost marked with who reposted it. */
  feed: string[]
  /** The member's own profile counters. */
  stats: string
  /** Each of the member's posts and replies: its like, repost and reply counts. */
  posts: Record<string, string>
  followers: string[]
  following: string[]
  /**
   * Each other member's profile as this member sees it: status (404 behind a block), whether they follow or asked
   * to, whether it is closed to them (private), how many posts it shows.
   */
  sees: Record<string, string>
  unreadNotifications: number
  /** Each conversation, by the other participant: message contents (ciphertext), newest first. */
  conversations: Record<string, string[]>
}

export type State = Record<string, MemberState>

interface FeedPost {
  content: string
  likeCount: number
  repostCount: number
  replyCount: number
  repostedBy: { username: string } | null
}

async function memberState(base: string, system: System, member: Member, members: Member[]): Promise<MemberState> {
  const token = system.token(member)
  const me = member.username
  const feed = await allPages<FeedPost>(base, '/api/posts/feed', 'posts', token)
  const own = await request(base, 'GET', `/api/users/${me}?limit=1`, { token })
  const ownPosts = await allPages<FeedPost>(base, `/api/users/${me}?tab=posts`, 'posts', token)
  const ownReplies = await allPages<FeedPost>(base, `/api/users/${me}?tab=replies`, 'posts', token)
  const followers = await allPages<{ username: string }>(base, `/api/users/${me}/followers`, 'followers', token)
  const following = await allPages<{ username: string }>(base, `/api/users/${me}/following`, 'following', token)
  const notifications = await request(base, 'GET', '/api/notifications?limit=1', { token })
  const conversations = await allPages<{ id: string; participants: { username: string }[] }>(
    base,
    '/api/messages/conversations',
    'conversations',
    token,
  )

  const posts: Record<string, string> = {}
  for (const post of [...ownPosts.items, ...ownReplies.items]) {
    if (post.repostedBy) continue
    posts[post.content] = `likes=${post.likeCount} reposts=${post.repostCount} replies=${post.replyCount}`
  }
  const sees: Record<string, string> = {}
  for (const other of members) {
    if (other === member) continue
    const answer = await request(base, 'GET', `/api/users/${other.username}?limit=100`, { token })
    const profile = answer.status === 200 ? bodyOf(answer, 'UserProfileResponse') : undefined
    sees[other.username] = profile
      ? `200 following=${profile.user.isFollowing} requested=${profile.user.requested} ` +
        `restricted=${profile.user.restricted} posts shown=${profile.posts.length}`
      : String(answer.status)
  }
  const byOther: Record<string, string[]> = {}
  for (const conversation of conversations.items) {
    const other = conversation.participants.find((p) => p.username !== me)?.username ?? me
    const messages = await allPages<{ content: string }>(base, `/api/messages/conversations/${conversation.id}/messages`, 'messages', token)
    byOther[other] = messages.items.map((m) => m.content)
  }
  const stats = own.status === 200 ? bodyOf(own, 'UserProfileResponse').user.stats : undefined
  return {
    feed: feed.items.map((p) => (p.repostedBy ? `${p.content} [reposted by ${p.repostedBy.username}]` : p.content)),
    stats: stats ? `followers=${stats.followers} following=${stats.following} posts=${stats.posts}` : `status ${own.status}`,
    posts,
    followers: followers.items.map((f) => f.username).sort(),
    following: following.items.map((f) => f.username).sort(),
    sees,
    unreadNotifications: notifications.status === 200 ? bodyOf(notifications, 'NotificationsPage').unreadCount : -notifications.status,
    conversations: byOther,
  }
}

/** Every member's state as `base` answers it, with `system`'s tokens. */
export async function readState(base: string, system: System, members: Member[]): Promise<State> {
  const states = await Promise.all(members.map((m) => memberState(base, system, m, members)))
  return Object.fromEntries(members.map((m, i) => [m.username, states[i] as MemberState]))
}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'nothing'
  return text.length > 300 ? `${text.slice(0, 300)}...` : text
}

/** Where a list first differs, so a mismatch names the post rather than printing two feeds. */
function listDifference(actual: string[], expected: string[]): string {
  const at = actual.findIndex((item, i) => item !== expected[i])
  const index = at === -1 ? Math.min(actual.length, expected.length) : at
  return `lengths ${actual.length} vs ${expected.length}; first difference at #${index}: ${show(actual[index])} vs ${show(expected[index])}`
}

/** Every difference between `actual` (a cluster process) and `expected` (the oracle), one line each. */
export function compareStates(label: string, actual: State, expected: State): string[] {
  const problems: string[] = []
  for (const [username, want] of Object.entries(expected)) {
    const got = actual[username]
    if (!got) {
      problems.push(`${label}: ${username} missing`)
      continue
    }
    for (const field of Object.keys(want) as (keyof MemberState)[]) {
      const a = got[field]
      const e = want[field]
      if (JSON.stringify(a) === JSON.stringify(e)) continue
      if (Array.isArray(a) && Array.isArray(e)) {
        problems.push(`${label}: ${username} ${field} differs: ${listDifference(a, e)}`)
      } else if (typeof a === 'object' && typeof e === 'object' && a && e) {
        const keys = new Set([...Object.keys(a), ...Object.keys(e)])
        for (const key of keys) {
          const av = (a as Record<string, unknown>)[key]
          const ev = (e as Record<string, unknown>)[key]
          if (JSON.stringify(av) !== JSON.stringify(ev)) {
            problems.push(`${label}: ${username} ${field}[${key}] differs: cluster ${show(av)} vs oracle ${show(ev)}`)
          }
        }
      } else {
        problems.push(`${label}: ${username} ${field} differs: cluster ${show(a)} vs oracle ${show(e)}`)
      }
    }
  }
  return problems
}
