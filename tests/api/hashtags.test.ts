import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { HashtagService } from '../../server/modules/hashtags/service'
import { type Member, publish, quickMember } from './content-helpers'
import { api, useTestApp } from './harness'

// GET /posts/trending. The caches are off so each read sees the posts just made; the 30 s hold is tested on the
// service with a fake clock.

const t = useTestApp({ caches: false })

type Trend = Schemas['Trend']

const tag = () => `t${randomBytes(4).toString('hex')}`

async function trends(who: Member): Promise<Trend[]> {
  const res = await api(t.app, 'GET', '/api/posts/trending', { token: who.token })
  expect(res.statusCode).toBe(200)
  return res.json<Schemas['TrendingResponse']>().trends
}

/** Moves a member's posts back in time, as if they were written `hours` ago. */
async function age(member: Member, hours: number) {
  await t.app.services.db.execute(
    sql`update posts set created_at = now() - ${`${hours} hours`}::interval where author_id = ${member.id}`,
  )
}

/** Only this test's tags: other tests in the file make trends too. */
const mine = (list: Trend[], tags: string[]) => list.filter((x) => tags.includes(x.hashtag))

describe('trending hashtags', () => {
  it('needs two members, counts posts, and one member posting a tag many times cannot lead', async () => {
    const [solo, shared] = [tag(), tag()]
    const [ann, bob, spammer] = [await quickMember(t.app), await quickMember(t.app), await quickMember(t.app)]
    for (let i = 0; i < 6; i += 1) await publish(t.app, spammer.token, `#${solo} again ${i}`)
    await publish(t.app, ann.token, `#${shared} one`)
    await publish(t.app, bob.token, `#${shared} two`)
    await publish(t.app, bob.token, `#${shared} three`)
    const list = mine(await trends(ann), [solo, shared])
    expect(list).toEqual([{ hashtag: shared, count: 3 }])
  })

  it('ranks a fresh burst above an older, busier tag, and forgets posts older than 24 hours', async () => {
    const [old, fresh, gone] = [tag(), tag(), tag()]
    const early = await Promise.all([quickMember(t.app), quickMember(t.app), quickMember(t.app)])
    for (const m of early) await publish(t.app, m.token, `#${old}`)
    for (const m of early) await age(m, 12)
    const late = [await quickMember(t.app), await quickMember(t.app)]
    for (const m of late) await publish(t.app, m.token, `#${fresh}`)
    const ancient = [await quickMember(t.app), await quickMember(t.app)]
    for (const m of ancient) await publish(t.app, m.token, `#${gone}`)
    for (const m of ancient) await age(m, 25)
    const list = mine(await trends(late[0] as Member), [old, fresh, gone])
    expect(list).toEqual([
      { hashtag: fresh, count: 2 },
      { hashtag: old, count: 3 },
    ])
  })

  it('counts only public posts of public accounts', async () => {
    const [x] = [tag()]
    const [ann, bob, locked] = [await quickMember(t.app), await quickMember(t.app), await quickMember(t.app)]
    await publish(t.app, ann.token, `#${x}`)
    await publish(t.app, bob.token, `#${x} for followers`, { visibility: 'followers' })
    await api(t.app, 'PATCH', '/api/users/profile', { token: locked.token, body: { privateAccount: true } })
    await publish(t.app, locked.token, `#${x} locked`)
    expect(mine(await trends(ann), [x])).toEqual([])
    await publish(t.app, bob.token, `#${x} public now`)
    expect(mine(await trends(ann), [x])).toEqual([{ hashtag: x, count: 2 }])
  })

  it('answers at most 10, and only to members', async () => {
    const ann = await quickMember(t.app)
    expect((await trends(ann)).length).toBeLessThanOrEqual(10)
    expect((await api(t.app, 'GET', '/api/posts/trending')).statusCode).toBe(401)
  })
})

describe('the 30 s hold', () => {
  it('serves the same trends until the hold is over, then reads again', async () => {
    const x = tag()
    let clock = 0
    const service = new HashtagService({ db: t.app.services.db, ttlMs: 30_000, now: () => clock })
    const [ann, bob] = [await quickMember(t.app), await quickMember(t.app)]
    const before = await service.trending()
    await publish(t.app, ann.token, `#${x}`)
    await publish(t.app, bob.token, `#${x}`)
    clock = 29_999
    expect(await service.trending()).toEqual(before)
    clock = 30_000
    expect(mine(await service.trending(), [x])).toEqual([{ hashtag: x, count: 2 }])
  })
})

describe('hashtag search', () => {
  async function hashtags(who: Member, q: string, extra = ''): Promise<Schemas['HashtagsPage']> {
    const res = await api(t.app, 'GET', `/api/hashtags/search?q=${encodeURIComponent(q)}${extra}`, { token: who.token })
    expect(res.statusCode, res.body).toBe(200)
    return res.json()
  }

  it('lists hashtags starting with the query, most used first, with exact counts as posts come and go', async () => {
    const k = tag()
    const ann = await quickMember(t.app)
    const first = await publish(t.app, ann.token, `#${k}_cats and #${k}_dogs`)
    await Promise.all([1, 2, 3].map((i) => publish(t.app, ann.token, `#${k}_Dogs ${i}`)))
    await publish(t.app, ann.token, `#x${k} does not start with it`)
    expect((await hashtags(ann, `#${k.toUpperCase()}`)).hashtags).toEqual([
      { hashtag: `${k}_dogs`, count: 4 },
      { hashtag: `${k}_cats`, count: 1 },
    ])
    const deleted = await api(t.app, 'DELETE', `/api/posts/${first.id}`, { token: ann.token })
    expect(deleted.statusCode).toBe(204)
    // A hashtag no post uses any more is gone; the other's count follows.
    expect((await hashtags(ann, k)).hashtags).toEqual([{ hashtag: `${k}_dogs`, count: 3 }])
  })

  it('counts only posts anyone may see: a followers-only post, or any post of a private account, adds nothing', async () => {
    const k = tag()
    const [ann, priv, fan, stranger] = [
      await quickMember(t.app),
      await quickMember(t.app),
      await quickMember(t.app),
      await quickMember(t.app),
    ]
    const madePrivate = await api(t.app, 'PATCH', '/api/users/profile', { token: priv.token, body: { privateAccount: true } })
    expect(madePrivate.statusCode).toBe(200)
    await api(t.app, 'POST', `/api/users/${priv.id}/follow`, { token: fan.token })
    expect((await api(t.app, 'POST', `/api/follow-requests/${fan.id}/approve`, { token: priv.token })).statusCode).toBe(200)
    await publish(t.app, ann.token, `#${k}_open for everyone`)
    await publish(t.app, ann.token, `#${k}_open and #${k}_quiet for followers`, { visibility: 'followers' })
    await publish(t.app, ann.token, `#${k}_quiet for @${stranger.username} only`, { visibility: 'mentioned' })
    await publish(t.app, priv.token, `#${k}_secret from a private account`)
    await publish(t.app, priv.token, `#${k}_open from a private account`)
    // The same answer for everyone, the authors and their followers included: a count shown to all counts only
    // what all may read.
    for (const who of [stranger, ann, priv, fan]) {
      expect((await hashtags(who, k)).hashtags, who.username).toEqual([{ hashtag: `${k}_open`, count: 1 }])
    }
  })

  it('takes _ and % literally, pages with a cursor, and refuses a query of only #', async () => {
    const k = tag()
    const ann = await quickMember(t.app)
    for (let i = 0; i < 5; i += 1) await publish(t.app, ann.token, `#${k}_${i}`)
    expect((await hashtags(ann, `${k}%`)).hashtags).toEqual([])
    const whole = (await hashtags(ann, `${k}_`, '&limit=50')).hashtags
    expect(whole).toHaveLength(5)
    const seen: Trend[] = []
    let cursor: string | null = null
    do {
      const page: Schemas['HashtagsPage'] = await hashtags(ann, `${k}_`, `&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.hashtags)
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual(whole)
    const bare = await api(t.app, 'GET', `/api/hashtags/search?q=${encodeURIComponent(' # ')}`, { token: ann.token })
    expect({ status: bare.statusCode, error: bare.json<{ error: string }>().error }).toEqual({
      status: 400,
      error: 'Search query is required',
    })
  })

  it('reads a cursor past any real post count as "after the most used": the whole list, not an error', async () => {
    const k = tag()
    const ann = await quickMember(t.app)
    await publish(t.app, ann.token, `#${k}_one`)
    const id = '00000000-0000-1000-8000-000000000000'
    for (const count of ['2147483648', '253402300799999999']) {
      const cursor = Buffer.from(JSON.stringify([count, id])).toString('base64url')
      expect((await hashtags(ann, k, `&cursor=${cursor}`)).hashtags).toEqual([{ hashtag: `${k}_one`, count: 1 }])
    }
  })
})
