import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { assign, createActor, fromCallback, setup, spawnChild, waitFor, type AnyActorRef } from 'xstate'
import type { FeedPost } from '../../src/api/posts.calls'
import type { CurrentUser } from '../../src/api/types'
import { feedMachine, feedPageCall } from '../../src/machines/feed/feed.machine'
import {
  HOME_FEED_PREFETCH_MAX_AGE_MS,
  installBootPrefetch,
  takeBootAnswer,
  type BootPrefetch,
} from '../../src/machines/lib/boot-prefetch'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { meCheck, sessionMachine } from '../../src/machines/session/session.machine'
import { checkAuthFailures, robinFromServer, storedRobin } from './support/fixtures'
import { asFeedPost, makePost } from './support/post-fixtures'

// The answers public/boot-prefetch.js asked for before the app's code arrived, adopted by the real session and feed
// actors: only a success, only for the token the actor would send, at most once, and Home's first page only while the
// page is young. Everything else goes through the actor's own call (given here as the network's answers), so failures
// behave exactly as without the prefetch.

/** The network behind the actors' own calls: what each answers next (a pending call if nothing is queued). */
const network = {
  me: [] as Array<() => Promise<unknown>>,
  meCalls: 0,
  feed: [] as Array<() => Promise<unknown>>,
  feedCalls: [] as string[],
}
const never = () => new Promise<never>(() => {})
const askMe = meCheck(() => {
  network.meCalls += 1
  return (network.me.shift() ?? never)() as Promise<CurrentUser>
})
const askFeed = feedPageCall(({ source, cursor }) => {
  network.feedCalls.push(`${source.kind} from ${cursor ?? 'the top'}`)
  return (network.feed.shift() ?? never)() as Promise<{ posts: FeedPost[]; nextCursor: string | null }>
})
const answer = (value: unknown) => () => Promise.resolve(value)
const failure = (error: unknown) => () => Promise.reject(error)

const TOKEN = storedRobin.token as string
const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))
const prefetchedPosts = [asFeedPost(makePost('early-1')), asFeedPost(makePost('early-2'))]
const fetchedPosts = [asFeedPost(makePost('asked-1'))]
const unauthorized = checkAuthFailures[0].error

let now = 0
function boot(fields: Partial<BootPrefetch> = {}): void {
  installBootPrefetch({ token: TOKEN, startedAt: 0, ...fields }, () => now)
}

beforeEach(() => {
  now = 1_000
  network.me = []
  network.meCalls = 0
  network.feed = []
  network.feedCalls = []
})
afterEach(() => installBootPrefetch(null))

describe('boot prefetch: taking an answer', () => {
  it('gives each answer once, for its token only', async () => {
    boot({ me: json(200, { user: robinFromServer }) })
    expect(takeBootAnswer('me', 'someone-else')).toBeNull()
    expect(takeBootAnswer('me', null)).toBeNull()
    expect(takeBootAnswer('me', TOKEN)).not.toBeNull()
    expect(takeBootAnswer('me', TOKEN)).toBeNull()
  })

  it('ignores what is not a prefetch (no boot script, a page script that set something else)', () => {
    installBootPrefetch({ me: json(200, {}) })
    expect(takeBootAnswer('me', TOKEN)).toBeNull()
    installBootPrefetch('x')
    expect(takeBootAnswer('homeFeed', TOKEN)).toBeNull()
  })

  it("drops Home's first page once the page is no longer young", () => {
    boot({ homeFeed: json(200, { posts: [], nextCursor: null }) })
    now = HOME_FEED_PREFETCH_MAX_AGE_MS + 1
    expect(takeBootAnswer('homeFeed', TOKEN)).toBeNull()
  })
})

describe('boot prefetch: the session check', () => {
  const start = () => createActor(sessionMachine.provide({ actors: { checkAuth: askMe } }), { input: { stored: storedRobin } }).start()

  it('adopts a successful answer: signed in with the checked member, no second request', async () => {
    boot({ me: json(200, { user: robinFromServer }) })
    const session = start()
    await waitFor(session, (s) => s.matches('authenticated'))
    expect(session.getSnapshot().context.user).toEqual(robinFromServer)
    expect(network.meCalls).toBe(0)
  })

  it('asks again when the early request failed on the network', async () => {
    boot({ me: Promise.reject(new TypeError('Failed to fetch')) })
    network.me.push(answer(robinFromServer))
    const session = start()
    await waitFor(session, (s) => s.matches('authenticated'))
    expect(network.meCalls).toBe(1)
    expect(session.getSnapshot().context.user).toEqual(robinFromServer)
  })

  it('asks again on a 401, and that answer signs the member out as usual', async () => {
    boot({ me: json(401, { error: 'Invalid or expired token' }) })
    network.me.push(failure(unauthorized))
    const session = start()
    await waitFor(session, (s) => s.matches('unauthenticated'))
    expect(network.meCalls).toBe(1)
    expect(session.getSnapshot().context.token).toBeNull()
  })

  it('does not adopt an answer for another token', async () => {
    installBootPrefetch({ token: 'an-older-token', startedAt: 0, me: json(200, { user: robinFromServer }) })
    const session = start()
    await vi.waitFor(() => expect(network.meCalls).toBe(1))
    expect(session.getSnapshot().matches('checking')).toBe(true)
    session.stop()
  })
})

describe("boot prefetch: Home's first page", () => {
  /** The feed beside a session holding `token`, as in the app's system (the feed finds the session by its systemId). */
  function startFeed(token: string | null, source?: { kind: 'list'; listId: string }) {
    const posts = createActor(postsMachine).start()
    const fakeSession = setup({ types: { context: {} as { token: string | null } } }).createMachine({ context: { token } })
    const parent = setup({
      types: { context: {} as { feed: AnyActorRef | null } },
      actors: { session: fakeSession, feed: feedMachine.provide({ actors: { loadPage: askFeed, watchPosts: fromCallback(() => {}) } }) },
    }).createMachine({
      context: { feed: null },
      entry: [
        spawnChild('session', { systemId: 'session' }),
        assign({ feed: ({ spawn }) => spawn('feed', { input: { posts, ...(source ? { source } : {}) } }) }),
      ],
    })
    const app = createActor(parent).start()
    return app.getSnapshot().context.feed as ReturnType<typeof createActor<typeof feedMachine>>
  }
  const ids = (feed: ReturnType<typeof startFeed>) => feed.getSnapshot().context.entries.map((e) => e.id)

  it('shows the prefetched page without asking again; a reload asks', async () => {
    boot({ homeFeed: json(200, { posts: prefetchedPosts, nextCursor: 'c1' }) })
    const feed = startFeed(TOKEN)
    await waitFor(feed, (s) => s.matches('ready'))
    expect(ids(feed)).toEqual(['early-1', 'early-2'])
    expect(feed.getSnapshot().context.cursor).toBe('c1')
    expect(network.feedCalls).toEqual([])
    network.feed.push(answer({ posts: fetchedPosts, nextCursor: null }))
    feed.send({ type: 'feed.reload' })
    await waitFor(feed, (s) => s.matches({ ready: 'end' }))
    expect(network.feedCalls).toEqual(['home from the top'])
    expect(ids(feed)).toEqual(['asked-1'])
  })

  it('asks for the page itself when the early request failed (a 500, a 401)', async () => {
    for (const status of [500, 401]) {
      network.feedCalls = []
      boot({ homeFeed: json(status, { error: 'no' }) })
      network.feed.push(answer({ posts: fetchedPosts, nextCursor: null }))
      const feed = startFeed(TOKEN)
      await waitFor(feed, (s) => s.matches('ready'))
      expect(network.feedCalls).toEqual(['home from the top'])
      expect(ids(feed)).toEqual(['asked-1'])
    }
  })

  it('is not adopted once the session holds another token (signed out, someone else signed in)', async () => {
    boot({ homeFeed: json(200, { posts: prefetchedPosts, nextCursor: null }) })
    network.feed.push(answer({ posts: fetchedPosts, nextCursor: null }))
    const feed = startFeed('a-new-token')
    await waitFor(feed, (s) => s.matches('ready'))
    expect(ids(feed)).toEqual(['asked-1'])
  })

  it('is not taken by a list timeline, and stays for Home', async () => {
    boot({ homeFeed: json(200, { posts: prefetchedPosts, nextCursor: null }) })
    const list = startFeed(TOKEN, { kind: 'list', listId: 'list-1' })
    expect(list.getSnapshot().matches('loading')).toBe(true)
    const home = startFeed(TOKEN)
    await waitFor(home, (s) => s.matches('ready'))
    expect(ids(home)).toEqual(['early-1', 'early-2'])
    expect(network.feedCalls).toEqual(['list from the top'])
  })
})
