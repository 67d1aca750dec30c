import http from 'node:http'
import type { MixedLoadRequest, RequestKind, WriteKind } from './mixed-protocol'

/**
 * What the mixed bench's load processes share (bench/lib/mixed-load-worker.ts, the closed loop;
 * bench/lib/open-load-worker.ts, the open loop): a keep-alive HTTP client, the createPost form, feed answers, and the
 * choice of a member's next write with its target.
 */

export interface Answer {
  status: number
  body: string
  ms: number
}

export interface SeenPost {
  id: string
  visibility: string
  author: { id: string; username: string }
}

export interface FeedAnswer {
  posts: SeenPost[]
  nextCursor: string | null
}

export interface RequestBody {
  type: string
  data: string
}

export function httpClient(base: string, sockets: number) {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base)) throw new Error(`refusing to load ${base}`)
  const url = new URL(base)
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets })
  const call = (method: string, path: string, token: string, body?: RequestBody) =>
    new Promise<Answer>((resolve) => {
      const t0 = performance.now()
      const headers: Record<string, string | number> = { authorization: `Bearer ${token}` }
      if (body) {
        headers['content-type'] = body.type
        headers['content-length'] = Buffer.byteLength(body.data)
      }
      const failed = (err: Error) => resolve({ status: 0, body: err.message, ms: performance.now() - t0 })
      const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - t0 }),
        )
        res.on('error', failed)
      })
      req.setTimeout(30_000, () => req.destroy(new Error('timeout after 30 s')))
      req.on('error', failed)
      if (body) req.write(body.data)
      req.end()
    })
  return { call, close: () => agent.destroy() }
}

/** A text-only createPost form (multipart, as the SPA sends it). */
export function postForm(content: string): RequestBody {
  const boundary = `wrenbench${Math.random().toString(36).slice(2)}`
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    data: `--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\n${content}\r\n--${boundary}--\r\n`,
  }
}

export function parseFeed(answer: Answer): FeedAnswer | undefined {
  if (answer.status !== 200) return undefined
  try {
    return JSON.parse(answer.body) as FeedAnswer
  } catch {
    return undefined
  }
}

/** A write chosen for a member: the request to send and, for likes and posts, the input the raw SQL replays. */
export interface PlannedWrite {
  kind: RequestKind
  method: string
  path: string
  body?: RequestBody
  sample?: { key: 'post'; value: number } | { key: 'like'; value: { member: number; postId: string } }
}

/**
 * A member's next write, drawn by weight, and its target: likes and reposts of posts the member saw, unfollows of
 * authors it saw, follows and blocks of random members. Protected members (freshness authors and their polled
 * followers, the burst account, the cold members) are never blocked or unfollowed, and never block or unfollow:
 * the follows the other phases rely on must stay. Undefined when the drawn write has no possible target.
 *
 * Every draw goes through `random` in a fixed order, so the same seed makes the same writes in every run.
 */
export function writePlanner(
  o: Pick<MixedLoadRequest, 'members' | 'writeWeights' | 'protectedMembers'>,
  random: () => number,
): (member: number, seen: readonly SeenPost[]) => PlannedWrite | undefined {
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)]
  const protectedSet = new Set(o.protectedMembers)
  const indexOf = new Map(o.members.map((m, i) => [m.id, i]))
  const writeKinds = Object.entries(o.writeWeights).filter(([, w]) => w > 0) as Array<[WriteKind, number]>
  const writeTotal = writeKinds.reduce((a, [, w]) => a + w, 0)
  let posted = 0
  return (member, seen) => {
    const draw = random() * writeTotal
    let acc = 0
    let kind: WriteKind = writeKinds[0]?.[0] ?? 'like'
    for (const [k, w] of writeKinds) {
      acc += w
      if (draw < acc) {
        kind = k
        break
      }
    }
    const self = o.members[member]?.id
    const others = seen.filter((p) => p.author.id !== self)
    if ((kind === 'like' || kind === 'repost' || kind === 'unfollow') && others.length === 0) kind = 'follow'
    switch (kind) {
      case 'post': {
        posted += 1
        return {
          kind: 'write: post',
          method: 'POST',
          path: '/api/posts',
          body: postForm(`Mixed bench note ${posted}: a walk, a book, #bench`),
          sample: { key: 'post', value: member },
        }
      }
      case 'like': {
        const post = pick(others)
        if (!post) return undefined
        return {
          kind: 'write: like',
          method: 'POST',
          path: `/api/posts/${post.id}/like`,
          sample: { key: 'like', value: { member, postId: post.id } },
        }
      }
      case 'repost': {
        const post = pick(others.filter((p) => p.visibility === 'public')) ?? pick(others)
        if (!post) return undefined
        return { kind: 'write: repost', method: 'POST', path: `/api/posts/${post.id}/repost` }
      }
      case 'follow': {
        const target = Math.floor(random() * o.members.length)
        if (target === member) return undefined
        return { kind: 'write: follow', method: 'POST', path: `/api/users/${o.members[target]?.id}/follow` }
      }
      case 'unfollow': {
        const candidates = others.filter((p) => !protectedSet.has(indexOf.get(p.author.id) ?? -1))
        const post = pick(candidates)
        if (!post || protectedSet.has(member)) return undefined
        return { kind: 'write: unfollow', method: 'DELETE', path: `/api/users/${post.author.id}/follow` }
      }
      case 'block': {
        const target = Math.floor(random() * o.members.length)
        if (target === member || protectedSet.has(target) || protectedSet.has(member)) return undefined
        return { kind: 'write: block', method: 'POST', path: `/api/blocks/user/${o.members[target]?.id}` }
      }
    }
  }
}
