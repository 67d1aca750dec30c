import { type Answer, type FeedAnswer, httpClient, type PlannedWrite, parseFeed, type SeenPost, writePlanner } from './mixed-http'
import type { OpenLoadEnd, OpenLoadMessage, OpenLoadSetup, OpenLoadStep, RequestSamples } from './mixed-protocol'
import { mixDrawer, type OpenIssue, runOpenStep } from './open-loop'
import { seededRandom, zipfSampler } from './zipf'

/**
 * The mixed bench's open-loop load process (bench/mixed.ts, `--mode open`): never in the server's event loop. Each
 * arrival is one request of the mix, drawn in the closed loop's session proportions (bench/lib/open-loop.ts,
 * mixShares) and sent at its scheduled time whatever is still unanswered:
 *
 * - feed page 1 of a Zipf-drawn member;
 * - feed pages 2-4: the next page of a member whose earlier page answered with a `nextCursor` (the most recent
 *   first, so a member goes on scrolling soon after, as in a session; up to page 4);
 * - a post page, a profile, a write: by a member who recently read a page, of a post or an author on it, the write
 *   drawn by weight as in the closed loop (bench/lib/mixed-http.ts, writePlanner).
 *
 * Requests that depend on an earlier answer take what has already come back: an arrival never waits for one. When
 * there is nothing yet (the first arrivals, or a server so slow that no page has answered), it asks a first feed
 * page instead, and the step reports how many did.
 */

const RECENT = 256
const CONTINUATIONS = 2_000

function openMix(setup: OpenLoadSetup) {
  const random = seededRandom(setup.seed)
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)]
  const zipf = zipfSampler(Math.max(1, setup.readers), setup.zipfExponent, random)
  const draw = mixDrawer(setup.writeRatio, random)
  const planWrite = writePlanner(setup, random)
  const { call, close } = httpClient(setup.base, setup.connections)
  const token = (member: number) => setup.members[member]?.token ?? ''

  const continuations: Array<{ member: number; cursor: string; page: number }> = []
  const recent: Array<{ member: number; seen: SeenPost[] }> = []
  let recentAt = 0
  let substituted = 0
  const samples: RequestSamples = { feedFirst: [], feedNext: [], postPage: [], profile: [], like: [], post: [] }
  const sample = <K extends keyof RequestSamples>(key: K, value: RequestSamples[K][number]) => {
    const list = samples[key] as Array<RequestSamples[K][number]>
    if (list.length < setup.samples) list.push(value)
  }

  /** What a feed page showed: a recent reader for the next post page, profile or write, and its next page. */
  const remember = (member: number, page: number, feed: FeedAnswer | undefined) => {
    if (!feed) return
    if (feed.posts.length > 0) {
      if (recent.length < RECENT) recent.push({ member, seen: feed.posts })
      else recent[recentAt] = { member, seen: feed.posts }
      recentAt = (recentAt + 1) % RECENT
    }
    if (feed.nextCursor && page < 4) {
      continuations.push({ member, cursor: feed.nextCursor, page: page + 1 })
      if (continuations.length > CONTINUATIONS) continuations.shift()
    }
  }

  /** Answered: anything but a socket error or a 5xx (a 404 for a post blocked meanwhile is an answer). */
  const answered = (a: Answer) => a.status !== 0 && a.status < 500
  // The page is read after the answer is timed: the generator's parsing is not the server's latency.
  const later = (work: () => void) => setImmediate(work)

  const feedFirst = (): OpenIssue => {
    const member = zipf()
    sample('feedFirst', member)
    return {
      kind: 'feed page 1',
      send: async () => {
        const a = await call('GET', '/api/posts/feed', token(member))
        later(() => remember(member, 1, parseFeed(a)))
        return answered(a)
      },
    }
  }

  const next = (): OpenIssue => {
    const d = draw()
    if (d === 'feed page 1') return feedFirst()
    if (d === 'feed pages 2-4') {
      const c = continuations.pop()
      if (!c) {
        substituted += 1
        return feedFirst()
      }
      sample('feedNext', { member: c.member, cursor: c.cursor })
      return {
        kind: 'feed pages 2-4',
        send: async () => {
          const a = await call('GET', `/api/posts/feed?cursor=${encodeURIComponent(c.cursor)}`, token(c.member))
          later(() => remember(c.member, c.page, parseFeed(a)))
          return answered(a)
        },
      }
    }
    const reader = pick(recent)
    if (!reader) {
      substituted += 1
      return feedFirst()
    }
    if (d === 'post page') {
      const post = pick(reader.seen)
      if (!post) return feedFirst()
      sample('postPage', { member: reader.member, postId: post.id })
      return { kind: 'post page', send: async () => answered(await call('GET', `/api/posts/${post.id}`, token(reader.member))) }
    }
    if (d === 'profile') {
      const username = pick(reader.seen)?.author.username ?? setup.members[reader.member]?.username ?? ''
      sample('profile', { member: reader.member, username })
      return {
        kind: 'profile',
        send: async () => answered(await call('GET', `/api/users/${encodeURIComponent(username)}`, token(reader.member))),
      }
    }
    // A write with no possible target for this reader (say, an unfollow drawn by a protected member) is drawn again
    // for other recent readers, as a member who cannot do one thing does another.
    let planned: PlannedWrite | undefined
    let writer = reader
    for (let tries = 0; tries < 5 && !planned; tries += 1) {
      if (tries > 0) writer = pick(recent) ?? reader
      planned = planWrite(writer.member, writer.seen)
    }
    if (!planned) {
      substituted += 1
      return feedFirst()
    }
    if (planned.sample?.key === 'post') sample('post', planned.sample.value)
    if (planned.sample?.key === 'like') sample('like', planned.sample.value)
    const { kind, method, path, body } = planned
    const member = writer.member
    return { kind, send: async () => answered(await call(method, path, token(member), body)) }
  }

  return {
    next,
    takeSubstituted: () => {
      const n = substituted
      substituted = 0
      return n
    },
    samples,
    close,
  }
}

let mix: ReturnType<typeof openMix> | undefined

const reply = (message: unknown, then?: () => void) => process.send?.(message, undefined, {}, () => then?.())

process.on('message', async (message: OpenLoadMessage) => {
  try {
    if (message.type === 'setup') {
      mix = openMix(message.setup)
      reply({ ok: true, result: null })
    } else if (message.type === 'step') {
      if (!mix) throw new Error('step before setup')
      const m = mix
      m.takeSubstituted()
      const cpu0 = process.cpuUsage()
      const result = await runOpenStep(message.step, m.next)
      const cpu = process.cpuUsage(cpu0)
      const step: OpenLoadStep = { ...result, substituted: m.takeSubstituted(), loadCpuMs: (cpu.user + cpu.system) / 1000 }
      reply({ ok: true, result: step })
    } else {
      const end: OpenLoadEnd = { samples: mix?.samples ?? { feedFirst: [], feedNext: [], postPage: [], profile: [], like: [], post: [] } }
      mix?.close()
      // Disconnects only once the answer is written: the samples are large.
      reply({ ok: true, result: end }, () => process.disconnect?.())
    }
  } catch (err) {
    reply({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }, () => process.disconnect?.())
  }
})
