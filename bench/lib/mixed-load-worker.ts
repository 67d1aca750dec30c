import http from 'node:http'
import { percentile } from './loop'
import type {
  KindResult,
  MixedLoadRequest,
  MixedLoadResult,
  RequestKind,
  RequestSamples,
  WriteKind,
} from './mixed-protocol'
import { seededRandom, zipfSampler } from './zipf'

/**
 * The mixed bench's load process (bench/mixed.ts): never in the server's event loop. `connections` loops each run
 * member sessions back to back (closed loop, like autocannon's connections): the home feed's first page, up to three
 * more pages through the real `nextCursor`, the page of a post it saw and the profile of an author it saw; after each
 * read, with probability `writeRatio`, the same member writes through the real API (post, like, repost, follow,
 * unfollow, block). Beside them, in `mixed` mode, a freshness loop posts as members whose followers the readers draw
 * often and polls those followers' first feed page until the post is listed, and a cold loop asks the first page of
 * members nobody has touched; `burst` mode has the readers drawn from one account's followers while it posts;
 * `cold` mode asks first pages one after another. Answers one MixedLoadResult over IPC and exits.
 */

interface Answer {
  status: number
  body: string
  ms: number
}

interface SeenPost {
  id: string
  visibility: string
  author: { id: string; username: string }
}

interface FeedAnswer {
  posts: SeenPost[]
  nextCursor: string | null
}

function httpClient(base: string, sockets: number) {
  const url = new URL(base)
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets })
  const call = (method: string, path: string, token: string, body?: { type: string; data: string }) =>
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
function postForm(content: string): { type: string; data: string } {
  const boundary = `wrenbench${Math.random().toString(36).slice(2)}`
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    data: `--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\n${content}\r\n--${boundary}--\r\n`,
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))

function parseFeed(answer: Answer): FeedAnswer | undefined {
  if (answer.status !== 200) return undefined
  try {
    return JSON.parse(answer.body) as FeedAnswer
  } catch {
    return undefined
  }
}

async function run(o: MixedLoadRequest): Promise<MixedLoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(o.base)) throw new Error(`refusing to load ${o.base}`)
  const random = seededRandom(o.seed)
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)]
  const zipf = zipfSampler(Math.max(1, o.readers), o.zipfExponent, random)
  const burstFollowers = o.burst?.followers ?? []
  const drawReader = o.mode === 'burst' ? () => pick(burstFollowers) ?? 0 : zipf
  const protectedSet = new Set(o.protectedMembers)
  const { call, close } = httpClient(o.base, o.connections + 16)
  const writeKinds = Object.entries(o.writeWeights).filter(([, w]) => w > 0) as Array<[WriteKind, number]>
  const writeTotal = writeKinds.reduce((a, [, w]) => a + w, 0)

  const started = performance.now()
  const windowStart = o.mode === 'cold' ? started : started + o.warmupSeconds * 1000
  const windowEnd = o.mode === 'cold' ? Infinity : windowStart + o.durationSeconds * 1000
  const inWindow = (t: number) => t >= windowStart && t < windowEnd

  const latencies = new Map<RequestKind, number[]>()
  const failures = new Map<RequestKind, Record<string, number>>()
  let firstFailure: string | undefined
  const record = (kind: RequestKind, t0: number, answer: Answer) => {
    if (!inWindow(t0)) return
    let list = latencies.get(kind)
    if (!list) latencies.set(kind, (list = []))
    list.push(answer.ms)
    if (answer.status < 200 || answer.status > 299) {
      const byStatus = failures.get(kind) ?? {}
      byStatus[String(answer.status)] = (byStatus[String(answer.status)] ?? 0) + 1
      failures.set(kind, byStatus)
      firstFailure ??= `${kind}: ${answer.status} ${answer.body.slice(0, 200)}`
    }
  }
  const timed = async (kind: RequestKind, method: string, path: string, member: number, body?: { type: string; data: string }) => {
    const t0 = performance.now()
    const answer = await call(method, path, o.members[member]?.token ?? '', body)
    record(kind, t0, answer)
    return answer
  }

  const samples: RequestSamples = { feedFirst: [], feedNext: [], postPage: [], profile: [], like: [], post: [] }
  const sample = <K extends keyof RequestSamples>(key: K, value: RequestSamples[K][number]) => {
    const list = samples[key] as Array<RequestSamples[K][number]>
    if (list.length < o.samples && inWindow(performance.now())) list.push(value)
  }
  const distinct = new Set<number>()
  let sessions = 0
  let posted = 0

  // Burst posts: the feed reads that start within 1 s of one are counted apart.
  const burstAt: number[] = []
  const nearBurst = (t: number) => burstAt.some((b) => t >= b && t <= b + 1000)

  const indexOf = new Map(o.members.map((m, i) => [m.id, i]))
  const write = async (member: number, seen: readonly SeenPost[]) => {
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
        sample('post', member)
        await timed('write: post', 'POST', '/api/posts', member, postForm(`Mixed bench note ${posted}: a walk, a book, #bench`))
        return
      }
      case 'like': {
        const post = pick(others)
        if (!post) return
        sample('like', { member, postId: post.id })
        await timed('write: like', 'POST', `/api/posts/${post.id}/like`, member)
        return
      }
      case 'repost': {
        const post = pick(others.filter((p) => p.visibility === 'public')) ?? pick(others)
        if (!post) return
        await timed('write: repost', 'POST', `/api/posts/${post.id}/repost`, member)
        return
      }
      case 'follow': {
        const target = Math.floor(random() * o.members.length)
        if (target === member) return
        await timed('write: follow', 'POST', `/api/users/${o.members[target]?.id}/follow`, member)
        return
      }
      case 'unfollow': {
        const candidates = others.filter((p) => !protectedSet.has(indexOf.get(p.author.id) ?? -1))
        const post = pick(candidates)
        if (!post || protectedSet.has(member)) return
        await timed('write: unfollow', 'DELETE', `/api/users/${post.author.id}/follow`, member)
        return
      }
      case 'block': {
        const target = Math.floor(random() * o.members.length)
        if (target === member || protectedSet.has(target) || protectedSet.has(member)) return
        await timed('write: block', 'POST', `/api/blocks/user/${o.members[target]?.id}`, member)
        return
      }
    }
  }
  const maybeWrite = async (member: number, seen: readonly SeenPost[]) => {
    if (o.mode === 'mixed' && random() < o.writeRatio) await write(member, seen)
  }

  const session = async () => {
    const member = drawReader()
    if (inWindow(performance.now())) {
      distinct.add(member)
      sessions += 1
    }
    const t0 = performance.now()
    const first = await timed(
      o.mode === 'burst' ? (nearBurst(t0) ? 'burst: feed page 1, 1 s after a burst post' : 'burst: feed page 1, otherwise') : 'feed page 1',
      'GET',
      '/api/posts/feed',
      member,
    )
    // A burst read that began before the post but ended after it is counted with the burst.
    sample('feedFirst', member)
    let feed = parseFeed(first)
    const seen: SeenPost[] = [...(feed?.posts ?? [])]
    await maybeWrite(member, seen)
    for (let page = 0; page < 3 && feed?.nextCursor; page += 1) {
      const cursor = feed.nextCursor
      sample('feedNext', { member, cursor })
      feed = parseFeed(await timed('feed pages 2-4', 'GET', `/api/posts/feed?cursor=${encodeURIComponent(cursor)}`, member))
      seen.push(...(feed?.posts ?? []))
      await maybeWrite(member, seen)
    }
    const post = pick(seen)
    if (post) {
      sample('postPage', { member, postId: post.id })
      await timed('post page', 'GET', `/api/posts/${post.id}`, member)
      await maybeWrite(member, seen)
    }
    const username = pick(seen)?.author.username ?? o.members[member]?.username ?? ''
    sample('profile', { member, username })
    await timed('profile', 'GET', `/api/users/${encodeURIComponent(username)}`, member)
    await maybeWrite(member, seen)
  }

  const freshness: number[] = []
  let freshnessMissed = 0
  /** Polls a follower's first feed page every pollIntervalMs until it lists the post; time from the 201. */
  const poll = async (follower: number, postId: string, answeredAt: number) => {
    const deadline = answeredAt + o.pollTimeoutMs
    while (performance.now() < deadline) {
      const t0 = performance.now()
      const answer = await timed('freshness: poll', 'GET', '/api/posts/feed', follower)
      if (answer.status === 200 && answer.body.includes(postId)) {
        freshness.push(performance.now() - answeredAt)
        return
      }
      await sleep(o.pollIntervalMs - (performance.now() - t0))
    }
    freshnessMissed += 1
  }
  const postAndPoll = async (kind: 'freshness: post' | 'burst: post', author: number, followers: readonly number[]) => {
    const answer = await timed(kind, 'POST', '/api/posts', author, postForm(`Fresh from the bench ${Date.now()}`))
    const answeredAt = performance.now()
    if (answer.status !== 201) return
    if (kind === 'burst: post') burstAt.push(answeredAt)
    const id = (JSON.parse(answer.body) as { post: { id: string } }).post.id
    await Promise.all(followers.map((f) => poll(f, id, answeredAt)))
  }

  const loops: Array<Promise<void>> = []
  const cpuBefore = { value: process.cpuUsage(), taken: false }
  const takeCpu = async () => {
    await sleep(windowStart - performance.now())
    cpuBefore.value = process.cpuUsage()
    cpuBefore.taken = true
  }
  if (o.mode === 'cold') {
    cpuBefore.value = process.cpuUsage()
    cpuBefore.taken = true
    for (const member of o.cold) {
      const t0 = performance.now()
      record('cold first page', t0, await call('GET', '/api/posts/feed', o.members[member]?.token ?? ''))
    }
  } else {
    loops.push(takeCpu())
    for (let c = 0; c < o.connections; c += 1) {
      loops.push(
        (async () => {
          while (performance.now() < windowEnd) await session()
        })(),
      )
    }
    if (o.mode === 'mixed' && o.freshness.length > 0) {
      loops.push(
        (async () => {
          await sleep(windowStart - performance.now())
          const pending: Array<Promise<void>> = []
          for (let i = 0; performance.now() < windowEnd - o.pollTimeoutMs / 2; i += 1) {
            const next = performance.now() + o.freshnessIntervalMs
            const author = o.freshness[i % o.freshness.length]
            if (author) pending.push(postAndPoll('freshness: post', author.author, author.followers))
            await sleep(next - performance.now())
          }
          await Promise.all(pending)
        })(),
      )
    }
    if (o.mode === 'mixed' && o.cold.length > 0) {
      loops.push(
        (async () => {
          const every = (windowEnd - windowStart) / o.cold.length
          for (const [i, member] of o.cold.entries()) {
            await sleep(windowStart + i * every - performance.now())
            const t0 = performance.now()
            record('cold first page', t0, await call('GET', '/api/posts/feed', o.members[member]?.token ?? ''))
          }
        })(),
      )
    }
    const burst = o.burst
    if (o.mode === 'burst' && burst) {
      loops.push(
        (async () => {
          const every = (windowEnd - windowStart) / (burst.posts + 1)
          const step = Math.max(1, Math.floor(burst.followers.length / burst.polled))
          const polled = burst.followers.filter((_, i) => i % step === 0).slice(0, burst.polled)
          for (let k = 1; k <= burst.posts; k += 1) {
            await sleep(windowStart + k * every - performance.now())
            await postAndPoll('burst: post', burst.author, polled)
          }
        })(),
      )
    }
  }
  await Promise.all(loops)
  const cpu = process.cpuUsage(cpuBefore.taken ? cpuBefore.value : undefined)
  const measuredSeconds = ((o.mode === 'cold' ? performance.now() : windowEnd) - windowStart) / 1000
  close()

  const kinds: KindResult[] = [...latencies.entries()].map(([kind, list]) => {
    const sorted = Float64Array.from(list).sort()
    return {
      kind,
      count: sorted.length,
      failures: failures.get(kind) ?? {},
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      p999: percentile(sorted, 99.9),
      max: sorted[sorted.length - 1] ?? 0,
      mean: list.reduce((a, b) => a + b, 0) / Math.max(1, list.length),
      perSecond: sorted.length / measuredSeconds,
    }
  })
  return {
    kinds,
    freshness,
    freshnessMissed,
    measuredSeconds,
    distinctReaders: distinct.size,
    sessions,
    samples,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ...(firstFailure ? { firstFailure } : {}),
  }
}

/** Disconnects only once the answer is written: a large answer (the recorded samples) is still being sent after send(). */
const answer = (message: unknown) => process.send?.(message, undefined, {}, () => process.disconnect?.())

process.once('message', async (message: MixedLoadRequest) => {
  try {
    answer({ ok: true, result: await run(message) })
  } catch (err) {
    answer({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  }
})
