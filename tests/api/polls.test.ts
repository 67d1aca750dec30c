import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { POLL_MESSAGES } from '../../src/api/contract/polls'
import { selectRows } from '../../server/db/rows'
import type { Schemas } from '../../server/http/handler-types'
import { JobQueue } from '../../server/jobs/queue'
import { PollService } from '../../server/modules/polls/service'
import { feed, field, file, follow, type FormPart, type Member, png, quickMember, quickMembers, send } from './content-helpers'
import { api, useTestApp } from './harness'

// Polls on posts (docs/product.md, "Polls"): the composer's limits again on the server, one vote per member under
// concurrency, the rules of who may vote, counts on the shared card and choices in the viewer's layer (exact with
// caches on or off), and the close job telling the author once however many processes run it.

let now = Date.now()
const clock = { now: () => now }
const t = useTestApp({ clock })
const HOUR = 60 * 60

let ann: Member
let bob: Member

/** Moves the app's clock on; fresh sessions, since theirs could have expired meanwhile. */
async function advance(ms: number): Promise<void> {
  now += ms
  for (const m of [ann, bob]) m.token = await t.app.services.sessions.create(m.id, { userAgent: 'tests' })
}

beforeAll(async () => {
  ann = await quickMember(t.app, 'ann')
  bob = await quickMember(t.app, 'bob')
})

const pollParts = (options: readonly string[], duration: number | string = HOUR, multiple?: boolean): FormPart[] => [
  ...options.map((o) => field('pollOptions', o)),
  field('pollDuration', String(duration)),
  ...(multiple === undefined ? [] : [field('pollMultiple', multiple ? 'true' : 'false')]),
]

function createPost(token: string, parts: FormPart[]) {
  return send(t.app, 'POST', '/api/posts', token, parts)
}

async function pollPost(author: Member, options: readonly string[] = ['Tea', 'Coffee'], extra: FormPart[] = [], duration = HOUR, multiple?: boolean) {
  const res = await createPost(author.token, [field('content', 'Which one?'), ...pollParts(options, duration, multiple), ...extra])
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as Schemas['PostResponse']).post
}

function vote(member: Member, postId: string, choices: readonly string[]) {
  return api(t.app, 'POST', `/api/posts/${postId}/poll/votes`, { token: member.token, body: { choices } })
}

async function seen(member: Member, postId: string): Promise<Schemas['Post']> {
  const res = await api(t.app, 'GET', `/api/posts/${postId}`, { token: member.token })
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as Schemas['PostDetailResponse']).post
}

const errorOf = (res: { json: () => unknown }) => (res.json() as { error: string }).error

describe('creating a poll', () => {
  it('makes a poll with trimmed options, its closing time and no votes', async () => {
    const before = now
    const post = await pollPost(ann, ['  Tea ', 'Coffee'], [], 6 * HOUR, true)
    expect(post.poll).toMatchObject({ multiple: true, votersCount: 0, ownVotes: [] })
    expect(post.poll?.options.map((o) => [o.text, o.votes])).toEqual([
      ['Tea', 0],
      ['Coffee', 0],
    ])
    expect(new Date(post.poll?.closesAt ?? 0).getTime()).toBe(before + 6 * HOUR * 1000)
  })

  it('answers poll null on posts without one', async () => {
    const res = await createPost(ann.token, [field('content', 'no poll')])
    expect(res.statusCode, res.body).toBe(201)
    expect((res.json() as Schemas['PostResponse']).post.poll).toBeNull()
  })

  it.each([
    [['Only one'], HOUR, POLL_MESSAGES.tooFewOptions],
    [['a', 'b', 'c', 'd', 'e'], HOUR, POLL_MESSAGES.tooManyOptions],
    [['a', '   '], HOUR, POLL_MESSAGES.blankOption],
    [['a', 'x'.repeat(51)], HOUR, POLL_MESSAGES.optionTooLong],
    [['Same', ' same '], HOUR, POLL_MESSAGES.duplicateOption],
    [['a', 'b'], 299, POLL_MESSAGES.duration],
    [['a', 'b'], 7 * 24 * HOUR + 1, POLL_MESSAGES.duration],
    [['a', 'b'], '1e4', POLL_MESSAGES.duration],
    [['a', 'b'], '-300', POLL_MESSAGES.duration],
  ] as const)('refuses options %j for %s seconds: %s', async (options, duration, message) => {
    const res = await createPost(ann.token, [field('content', 'q'), ...pollParts(options, duration)])
    expect(res.statusCode).toBe(400)
    expect(errorOf(res)).toBe(message)
  })

  it('accepts the limits themselves: 4 options of 50 characters (emoji count as one), 5 minutes and 7 days', async () => {
    const long = '🐦'.repeat(50)
    for (const duration of [300, 7 * 24 * HOUR]) {
      const post = await pollPost(ann, [long, 'b', 'c', 'd'], [], duration)
      expect(post.poll?.options[0]?.text).toBe(long)
    }
  })

  it('refuses a poll with media, a poll without options, and a bad choice mode', async () => {
    const withMedia = await createPost(ann.token, [
      field('content', 'q'),
      ...pollParts(['a', 'b']),
      file('media', 'a.png', 'image/png', await png()),
    ])
    expect(withMedia.statusCode).toBe(400)
    expect(errorOf(withMedia)).toBe(POLL_MESSAGES.withMedia)
    const noOptions = await createPost(ann.token, [field('content', 'q'), field('pollDuration', '600')])
    expect(errorOf(noOptions)).toBe(POLL_MESSAGES.tooFewOptions)
    const mode = await createPost(ann.token, [field('content', 'q'), ...pollParts(['a', 'b']), field('pollMultiple', 'yes')])
    expect(mode.statusCode).toBe(400)
  })

  it('writes nothing when the poll is refused', async () => {
    const before = await selectRows<{ n: number }>(t.app.services.db, sql`select count(*)::int as n from posts`)
    await createPost(ann.token, [field('content', 'refused'), ...pollParts(['a'])])
    const after = await selectRows<{ n: number }>(t.app.services.db, sql`select count(*)::int as n from posts`)
    expect(after[0]?.n).toBe(before[0]?.n)
  })
})

describe('voting', () => {
  it('counts one vote per member, the author included, and shows each their own choices', async () => {
    const post = await pollPost(ann)
    const [tea, coffee] = post.poll?.options ?? []
    const mine = await vote(bob, post.id, [coffee!.id])
    expect(mine.statusCode, mine.body).toBe(200)
    expect((mine.json() as Schemas['PollResponse']).poll).toMatchObject({ votersCount: 1, ownVotes: [coffee!.id] })
    expect((await vote(ann, post.id, [tea!.id])).statusCode).toBe(200)

    const again = await vote(bob, post.id, [tea!.id])
    expect(again.statusCode).toBe(409)
    expect(errorOf(again)).toBe(POLL_MESSAGES.alreadyVoted)

    const forAnn = await seen(ann, post.id)
    expect(forAnn.poll).toMatchObject({ votersCount: 2, ownVotes: [tea!.id] })
    expect(forAnn.poll?.options.map((o) => o.votes)).toEqual([1, 1])
  })

  it('takes several choices on a multiple-choice poll only, each counted, the voter once', async () => {
    const single = await pollPost(ann, ['a', 'b', 'c'])
    const ids = single.poll!.options.map((o) => o.id)
    const twice = await vote(bob, single.id, [ids[0]!, ids[1]!])
    expect(twice.statusCode).toBe(400)
    expect(errorOf(twice)).toBe(POLL_MESSAGES.oneChoice)

    const multiple = await pollPost(ann, ['a', 'b', 'c'], [], HOUR, true)
    const options = multiple.poll!.options.map((o) => o.id)
    const res = await vote(bob, multiple.id, [options[0]!, options[2]!, options[0]!])
    expect(res.statusCode, res.body).toBe(200)
    const poll = (res.json() as Schemas['PollResponse']).poll
    expect(poll.votersCount).toBe(1)
    expect(poll.options.map((o) => o.votes)).toEqual([1, 0, 1])
    expect([...poll.ownVotes].sort()).toEqual([options[0], options[2]].sort())
  })

  it('refuses unknown options, another poll’s options, no choice and malformed ids', async () => {
    const post = await pollPost(ann)
    const other = await pollPost(ann, ['x', 'y'])
    const foreign = await vote(bob, post.id, [other.poll!.options[0]!.id])
    expect(foreign.statusCode).toBe(400)
    expect(errorOf(foreign)).toBe(POLL_MESSAGES.unknownOption)
    expect((await vote(bob, post.id, [])).statusCode).toBe(400)
    expect((await vote(bob, post.id, ['not-an-id'])).statusCode).toBe(400)
    const extra = await api(t.app, 'POST', `/api/posts/${post.id}/poll/votes`, {
      token: bob.token,
      body: { choices: [post.poll!.options[0]!.id], votersCount: 99 },
    })
    expect(extra.statusCode).toBe(400)
    // None of it counted.
    expect((await seen(ann, post.id)).poll?.votersCount).toBe(0)
  })

  it('refuses posts without a poll, unknown posts and posts the voter may not see', async () => {
    const plain = await createPost(ann.token, [field('content', 'plain')])
    expect(plain.statusCode, plain.body).toBe(201)
    const plainId = (plain.json() as Schemas['PostResponse']).post.id
    const noPoll = await vote(bob, plainId, [plainId])
    expect(noPoll.statusCode).toBe(404)
    expect(errorOf(noPoll)).toBe(POLL_MESSAGES.notAPoll)
    expect((await vote(bob, '018f0000-0000-7000-8000-000000000000', [plainId])).statusCode).toBe(404)

    const cara = await quickMember(t.app, 'cara')
    const hidden = await pollPost(ann, ['a', 'b'], [field('visibility', 'followers')])
    const res = await vote(cara, hidden.id, [hidden.poll!.options[0]!.id])
    expect(res.statusCode).toBe(404)
    expect(errorOf(res)).toBe('Post not found')
    await follow(t.app, cara, ann)
    expect((await vote(cara, hidden.id, [hidden.poll!.options[0]!.id])).statusCode).toBe(200)
  })

  it('refuses a blocked member, either way', async () => {
    const [dan, eve] = await quickMembers(t.app, 2, 'blk')
    const post = await pollPost(dan!)
    const blocked = await api(t.app, 'POST', `/api/blocks/user/${eve!.id}`, { token: dan!.token })
    expect(blocked.statusCode, blocked.body).toBeLessThan(300)
    const res = await vote(eve!, post.id, [post.poll!.options[0]!.id])
    expect(res.statusCode).toBe(404)
    // The blocker cannot vote on the blocked member's poll either.
    const theirs = await pollPost(eve!)
    expect((await vote(dan!, theirs.id, [theirs.poll!.options[0]!.id])).statusCode).toBe(404)
  })

  it('refuses votes once the poll has closed, by the clock', async () => {
    const post = await pollPost(ann, ['a', 'b'], [], 300)
    await advance(300_000)
    const res = await vote(bob, post.id, [post.poll!.options[0]!.id])
    expect(res.statusCode).toBe(422)
    expect(errorOf(res)).toBe(POLL_MESSAGES.closed)
  })

  it('counts 100 members voting at once exactly, and one member voting 10 times at once once', async () => {
    const post = await pollPost(ann, ['a', 'b', 'c', 'd'], [], HOUR, true)
    const ids = post.poll!.options.map((o) => o.id)
    const voters = await quickMembers(t.app, 100, 'v')
    const results = await Promise.all(voters.map((m, i) => vote(m, post.id, i % 2 === 0 ? [ids[i % 4]!] : [ids[0]!, ids[3]!])))
    expect(results.map((r) => r.statusCode)).toEqual(voters.map(() => 200))
    const poll = (await seen(ann, post.id)).poll!
    expect(poll.votersCount).toBe(100)
    // Even voters chose a and c (25 each); odd voters chose a and d (50).
    expect(poll.options.map((o) => o.votes)).toEqual([75, 0, 25, 50])
    const [stored] = await selectRows<{ n: number }>(t.app.services.db, sql`select count(*)::int as n from poll_votes where post_id = ${post.id}`)
    expect(stored?.n).toBe(150)

    const eager = await quickMember(t.app, 'eager')
    const tries = await Promise.all(Array.from({ length: 10 }, () => vote(eager, post.id, [ids[1]!])))
    expect(tries.filter((r) => r.statusCode === 200)).toHaveLength(1)
    expect(tries.filter((r) => r.statusCode === 409)).toHaveLength(9)
    expect((await seen(ann, post.id)).poll?.options[1]?.votes).toBe(1)
  })
})

describe('caches', () => {
  it('shows a vote on every viewer’s cached card at once, and the choice only to the voter', async () => {
    const cara = await quickMember(t.app, 'cara')
    await follow(t.app, cara, ann)
    await follow(t.app, bob, ann)
    const post = await pollPost(ann)
    const inFeed = async (m: Member) => (await feed(t.app, m.token)).posts.find((p) => p.id === post.id)!
    // Cards and flags cached (with caches on) before the vote.
    expect((await inFeed(cara)).poll?.votersCount).toBe(0)
    expect((await inFeed(bob)).poll?.ownVotes).toEqual([])
    const choice = post.poll!.options[1]!.id
    expect((await vote(bob, post.id, [choice])).statusCode).toBe(200)
    const forCara = await inFeed(cara)
    expect(forCara.poll).toMatchObject({ votersCount: 1, ownVotes: [] })
    expect(forCara.poll?.options[1]?.votes).toBe(1)
    expect((await inFeed(bob)).poll?.ownVotes).toEqual([choice])
  })
})

describe('closing', () => {
  const closedItems = async (member: Member) => {
    const res = await api(t.app, 'GET', '/api/notifications', { token: member.token })
    return (res.json() as Schemas['NotificationsPage']).notifications.filter((n) => n.type === 'poll_closed')
  }

  it('tells the author once, at the closing time, even with two processes running the queue', async () => {
    const fay = await quickMember(t.app, 'fay')
    const post = await pollPost(fay, ['a', 'b'], [], 600)
    await t.app.services.jobs.drain()
    expect(await closedItems(fay)).toHaveLength(0)

    now += 600_000
    fay.token = await t.app.services.sessions.create(fay.id, { userAgent: 'tests' })
    // A second process: its own queue on the same table, with the poll service's job registered on it.
    const second = new JobQueue({ db: t.app.services.db, clock, warn: () => {} })
    new PollService({ ...t.app.services, jobs: second })
    await Promise.all([t.app.services.jobs.drain(), second.drain(), t.app.services.jobs.drain(), second.drain()])
    await second.close()

    const items = await closedItems(fay)
    expect(items).toHaveLength(1)
    expect(items[0]).toMatchObject({ read: false, post: { id: post.id }, from: { id: fay.id } })
    const [row] = await selectRows<{ n: number }>(
      t.app.services.db,
      sql`select count(*)::int as n from jobs where key = ${`poll.close:${post.id}`}`,
    )
    expect(row?.n).toBe(0)
  })

  it('does nothing for a poll whose post was deleted before it closed', async () => {
    const gus = await quickMember(t.app, 'gus')
    const post = await pollPost(gus, ['a', 'b'], [], 300)
    expect((await api(t.app, 'DELETE', `/api/posts/${post.id}`, { token: gus.token })).statusCode).toBe(204)
    now += 300_000
    gus.token = await t.app.services.sessions.create(gus.id, { userAgent: 'tests' })
    await t.app.services.jobs.drain()
    expect(await closedItems(gus)).toHaveLength(0)
    expect(await t.app.services.jobs.counts()).not.toContainEqual(expect.objectContaining({ kind: 'poll.close', failed: 1 }))
  })
})
