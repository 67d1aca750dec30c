import { type Answer, httpClient, parseFeed, postForm, type RequestBody, type SeenPost, writePlanner } from './mixed-http'
import { percentile } from './loop'
import type {
  KindResult,
  MixedLoadRequest,
  MixedLoadResult,
  RequestKind,
  RequestSamples,
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))

async function run(o: MixedLoadRequest): Promise<MixedLoadResult> {
  const random = seededRandom(o.seed)
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)]
  const zipf = zipfSampler(Math.max(1, o.readers), o.zipfExponent, random)
  const burstFollowers = o.burst?.followers ?? []
  const drawReader = o.mode === 'burst' ? () => pick(burstFollowers) ?? 0 : zipf
  const { call, close } = httpClient(o.base, o.connections + 16)
  const planWrite = writePlanner(o, random)

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
  const timed = async (kind: RequestKind, method: string, path: string, member: number, body?: RequestBody) => {
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

  // Burst posts: the feed reads that start within 1 s of one are counted apart.
  const burstAt: number[] = []
  const nearBurst = (t: number) => burstAt.some((b) => t >= b && t <= b + 1000)

  const write = async (member: number, seen: readonly SeenPost[]) => {
    const planned = planWrite(member, seen)
    if (!planned) return
    if (planned.sample?.key === 'post') sample('post', planned.sample.value)
    if (planned.sample?.key === 'like') sample('like', planned.sample.value)
    await timed(planned.kind, planned.method, planned.path, member, planned.body)
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
