import { randomBytes, randomUUID } from 'node:crypto'
import { fakeEnvelope, fakeKeys } from '../api/e2ee-support'
import { registration } from '../api/harness'
import { type Answer, bodyOf, request } from './http'

/**
 * The mixed workload: simulated members posting, replying, liking, reposting, following, blocking, messaging and
 * reading, played in rounds against two systems (the cluster behind HAProxy and the single-process oracle).
 *
 * Within a round every member makes one call at once (on the cluster). The oracle then gets the same calls one by
 * one in the order of the list. That is "the same operations in the same order" only if the calls of one round
 * commute, so a round is built from calls whose conflict keys differ: `pair:a:b` for anything between two members
 * (a follow, a block, a message, a like of or reply to a post in a thread the other wrote in; an account turning
 * private takes every pair with its member), and `timeline` for anything that takes a place in the
 * feeds' order (a post, a reply, a repost), at most one a round, because the two systems stamp their own times.
 */

export interface Member {
  index: number
  username: string
}

/** One system's view of the same community: its ids differ, texts and usernames do not. */
export class System {
  readonly tokens = new Map<string, string>()
  readonly ids = new Map<string, string>()
  /** Post text -> this system's post id. */
  readonly posts = new Map<string, string>()
  /** "a|b" (sorted usernames) -> conversation id. */
  readonly conversations = new Map<string, string>()

  constructor(
    readonly label: string,
    readonly base: string,
  ) {}

  token(member: Member): string {
    return this.tokens.get(member.username) ?? ''
  }

  id(member: Member): string {
    return this.ids.get(member.username) ?? ''
  }
}

export type Op =
  | { kind: 'post'; actor: Member; text: string }
  | { kind: 'reply'; actor: Member; parent: string; text: string }
  | { kind: 'like' | 'repost' | 'read-post'; actor: Member; post: string }
  | { kind: 'follow' | 'unfollow' | 'block' | 'unblock' | 'approve' | 'read-profile'; actor: Member; target: Member }
  | { kind: 'privacy'; actor: Member; private: boolean }
  | { kind: 'message'; actor: Member; target: Member; content: string }
  | { kind: 'read-feed' | 'read-notifications'; actor: Member }

export type OpKind = Op['kind']

/** What one system answered, reduced to what must be the same on both (ids and times differ). */
export interface Outcome {
  result: string
  answer: Answer
  /** The message's id on this system, for the socket checks. */
  messageId?: string
}

/** Statuses a call may answer in this workload; anything else (5xx, HAProxy's 502/503/504, no answer) is a failure. */
export const ALLOWED: Record<OpKind, number[]> = {
  post: [201],
  reply: [201, 404],
  like: [200, 404],
  repost: [200, 403, 404],
  'read-post': [200, 404],
  follow: [200, 404],
  unfollow: [200, 404],
  approve: [200, 404],
  privacy: [200],
  block: [201],
  unblock: [204],
  'read-profile': [200, 404],
  message: [200, 201, 403],
  'read-feed': [200],
  'read-notifications': [200],
}

/** Reads answer from caches that another process's write invalidates a moment later: only their status is judged. */
export const READS: ReadonlySet<OpKind> = new Set(['read-post', 'read-profile', 'read-feed', 'read-notifications'])

export async function register(system: System, member: Member, keys: { publicKey: string; privateKey: string }): Promise<Answer> {
  const body = registration({ username: member.username, displayName: `Member ${member.index}`, ...keys })
  const answer = await request(system.base, 'POST', '/api/auth/register', { json: body })
  if (answer.status === 201) {
    const auth = bodyOf(answer, 'AuthResponse')
    system.tokens.set(member.username, auth.token)
    system.ids.set(member.username, auth.user.id)
  }
  return answer
}

export { fakeKeys }

const pairKey = (a: Member, b: Member) => `pair:${Math.min(a.index, b.index)}:${Math.max(a.index, b.index)}`
const conversationKey = (a: Member, b: Member) => [a.username, b.username].sort().join('|')

export async function perform(system: System, op: Op): Promise<Outcome> {
  const token = system.token(op.actor)
  const call = (method: string, path: string, options: { json?: unknown; form?: Record<string, string>; idempotencyKey?: string } = {}) =>
    request(system.base, method, path, { token, ...options })
  const postId = (text: string) => system.posts.get(text) ?? '00000000-0000-7000-8000-000000000000'
  switch (op.kind) {
    case 'post':
    case 'reply': {
      const form: Record<string, string> = { content: op.text }
      if (op.kind === 'reply') form.replyTo = postId(op.parent)
      const answer = await call('POST', '/api/posts', { form, idempotencyKey: randomUUID() })
      if (answer.status === 201) system.posts.set(op.text, bodyOf(answer, 'PostResponse').post.id)
      return { result: '', answer }
    }
    case 'like': {
      const answer = await call('POST', `/api/posts/${postId(op.post)}/like`)
      return { result: answer.status === 200 ? `liked=${bodyOf(answer, 'LikeResponse').liked}` : '', answer }
    }
    case 'repost': {
      const answer = await call('POST', `/api/posts/${postId(op.post)}/repost`)
      return { result: answer.status === 200 ? `reposted=${bodyOf(answer, 'RepostResponse').reposted}` : '', answer }
    }
    case 'read-post':
      return { result: '', answer: await call('GET', `/api/posts/${postId(op.post)}`) }
    case 'follow':
    case 'unfollow': {
      const answer = await call(op.kind === 'follow' ? 'POST' : 'DELETE', `/api/users/${system.id(op.target)}/follow`)
      const follow = answer.status === 200 ? bodyOf(answer, 'FollowResponse') : undefined
      const result = follow ? `following=${follow.following} requested=${follow.requested}` : ''
      return { result, answer }
    }
    case 'approve': {
      const answer = await call('POST', `/api/follow-requests/${system.id(op.target)}/approve`)
      // The answer's followers count includes follows other members made in the same round: not compared.
      return { result: '', answer }
    }
    case 'privacy': {
      const answer = await call('PATCH', '/api/users/profile', { json: { privateAccount: op.private } })
      return { result: answer.status === 200 ? `private=${bodyOf(answer, 'MeResponse').user.privateAccount}` : '', answer }
    }
    case 'block':
      return { result: '', answer: await call('POST', `/api/blocks/user/${system.id(op.target)}`) }
    case 'unblock':
      return { result: '', answer: await call('DELETE', `/api/blocks/user/${system.id(op.target)}`) }
    case 'read-profile':
      return { result: '', answer: await call('GET', `/api/users/${op.target.username}`) }
    case 'message': {
      const key = conversationKey(op.actor, op.target)
      let conversationId = system.conversations.get(key)
      if (!conversationId) {
        const opened = await call('POST', '/api/messages/conversations', {
          json: { recipientId: system.id(op.target) },
          idempotencyKey: randomUUID(),
        })
        if (opened.status !== 200 && opened.status !== 201) return { result: 'not opened', answer: opened }
        conversationId = bodyOf(opened, 'ConversationResponse').conversation.id
        system.conversations.set(key, conversationId)
      }
      // Sending into an existing conversation after a block is refused (403) like opening one.
      const answer = await call('POST', `/api/messages/conversations/${conversationId}/messages`, {
        json: { content: op.content },
        idempotencyKey: randomUUID(),
      })
      return { result: '', answer, messageId: answer.status === 201 ? bodyOf(answer, 'DirectMessageResponse').message.id : undefined }
    }
    case 'read-feed':
      return { result: '', answer: await call('GET', '/api/posts/feed') }
    case 'read-notifications':
      return { result: '', answer: await call('GET', '/api/notifications') }
  }
}

/** Seeded, so a failing run can be replayed with CLUSTER_SEED. */
export function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WEIGHTS: [OpKind, number][] = [
  ['read-feed', 14],
  ['post', 10],
  ['like', 14],
  ['reply', 6],
  ['repost', 5],
  ['follow', 9],
  ['unfollow', 4],
  ['block', 2],
  ['unblock', 3],
  ['approve', 4],
  ['privacy', 1],
  ['message', 9],
  ['read-profile', 5],
  ['read-post', 5],
  ['read-notifications', 4],
]

/** Chooses each round's calls. Texts are unique in the run: they name posts across both systems. */
export class Planner {
  private readonly rand: () => number
  private readonly run = randomBytes(3).toString('hex')
  private counter = 0
  /** Acknowledged posts and replies, with their authors and the post a reply answers. */
  readonly posts: { text: string; author: Member; parent?: string }[] = []

  constructor(
    private readonly members: Member[],
    seed: number,
  ) {
    this.rand = random(seed)
  }

  private pick<T>(items: readonly T[]): T | undefined {
    return items[Math.floor(this.rand() * items.length)]
  }

  private text(kind: string, actor: Member): string {
    this.counter += 1
    return `${kind} ${this.counter} by ${actor.username} (${this.run})`
  }

  private op(kind: OpKind, actor: Member): Op | undefined {
    const other = this.pick(this.members.filter((m) => m !== actor))
    const post = this.pick(this.posts)
    switch (kind) {
      case 'post':
        return { kind, actor, text: this.text('post', actor) }
      case 'reply':
        return post && { kind, actor, parent: post.text, text: this.text('reply', actor) }
      case 'like':
      case 'repost':
      case 'read-post':
        return post && { kind, actor, post: post.text }
      case 'follow':
      case 'unfollow':
      case 'block':
      case 'unblock':
      case 'approve':
      case 'read-profile':
        return other && { kind, actor, target: other }
      case 'privacy':
        return { kind, actor, private: this.rand() < 0.5 }
      case 'message':
        return other && { kind, actor, target: other, content: fakeEnvelope() }
      case 'read-feed':
      case 'read-notifications':
        return { kind, actor }
    }
  }

  /**
   * A pair key with the author of the post and of every post above it in its thread: whether the actor may see a
   * reply, and whom it notifies, can depend on any of them (a block, an account turning private).
   */
  private threadKeys(actor: Member, text: string): string[] {
    const keys = new Set<string>()
    for (let post = this.posts.find((p) => p.text === text); post; post = this.posts.find((p) => p.text === post?.parent)) {
      if (post.author !== actor) keys.add(pairKey(actor, post.author))
    }
    return [...keys]
  }

  private keys(op: Op): string[] {
    switch (op.kind) {
      case 'post':
        return ['timeline']
      case 'reply':
        return ['timeline', ...this.threadKeys(op.actor, op.parent)]
      case 'like':
        return this.threadKeys(op.actor, op.post)
      case 'repost':
        return ['timeline', ...this.threadKeys(op.actor, op.post)]
      case 'follow':
      case 'unfollow':
      case 'block':
      case 'unblock':
      case 'approve':
      case 'message':
        return [pairKey(op.actor, op.target)]
      case 'privacy':
        // Who may see the member's posts, follow them or repost them changes: every pair with the member.
        return this.members.filter((m) => m !== op.actor).map((m) => pairKey(op.actor, m))
      default:
        return []
    }
  }

  /** One call per member, in a shuffled order, none conflicting with another of the round. */
  round(): Op[] {
    const taken = new Set<string>()
    const ops: Op[] = []
    const order = [...this.members].sort(() => this.rand() - 0.5)
    const total = WEIGHTS.reduce((sum, [, w]) => sum + w, 0)
    for (const actor of order) {
      for (let attempt = 0; attempt < 6; attempt += 1) {
        let roll = this.rand() * total
        const kind = WEIGHTS.find(([, w]) => (roll -= w) < 0)?.[0] ?? 'read-feed'
        const op = this.op(kind, actor)
        if (!op) continue
        const keys = this.keys(op)
        if (keys.some((k) => taken.has(k))) continue
        for (const k of keys) taken.add(k)
        ops.push(op)
        break
      }
    }
    return ops
  }

  /** After the cluster acknowledged a post or reply. */
  acknowledged(op: Op): void {
    if (op.kind === 'post') this.posts.push({ text: op.text, author: op.actor })
    if (op.kind === 'reply') this.posts.push({ text: op.text, author: op.actor, parent: op.parent })
  }
}
