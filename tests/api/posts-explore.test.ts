import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { exploreStatement } from '../../server/modules/posts/explore-queries'
import { follow, type Member, publish, quickMember } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'
import type { components } from '../../src/api/contract/schema'

// Explore (GET /posts/explore, docs/product.md "Explore"): every public top-level post of the instance's public
// accounts, newest first, minus what the viewer filtered out (blocks either way, mutes, blocked and muted keywords and
// domains). Each test writes posts with its own word and reads only those back, since every post of the file is on
// the same community timeline.

type FeedResponse = components['schemas']['FeedResponse']

const t = useTestApp()
let viewer: Member
let ann: Member
let bob: Member

beforeAll(async () => {
  ;[viewer, ann, bob] = await Promise.all([quickMember(t.app, 'viewer'), quickMember(t.app, 'ann'), quickMember(t.app, 'bob')])
})

async function explore(who: Member, query = ''): Promise<FeedResponse> {
  const res = await api(t.app, 'GET', `/api/posts/explore${query}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as FeedResponse
}

/** The contents of the viewer's Explore that contain `word`, in order (the first 100 posts). */
async function contents(who: Member, word: string): Promise<string[]> {
  const { posts } = await explore(who, '?limit=100')
  return posts.map((p) => p.content).filter((c) => c.includes(word))
}

const ok = async (res: Promise<{ statusCode: number; body: string }>, status: number) => {
  const answered = await res
  expect(answered.statusCode, answered.body).toBe(status)
}

describe('GET /posts/explore', () => {
  it('lists public top-level posts of every public account, newest first, to a member following nobody', async () => {
    await publish(t.app, ann.token, 'alpha ann')
    await publish(t.app, bob.token, 'alpha bob')
    const own = await publish(t.app, viewer.token, 'alpha mine')
    expect(await contents(viewer, 'alpha')).toEqual(['alpha mine', 'alpha bob', 'alpha ann'])
    const { posts } = await explore(viewer)
    // The home feed's card, with no reposter.
    expect(posts.find((p) => p.id === own.id)).toMatchObject({ id: own.id, author: { id: viewer.id }, repostedBy: null })
  })

  it('leaves out replies, reposts, followers-only and mentioned posts', async () => {
    const root = await publish(t.app, ann.token, 'beta root')
    await publish(t.app, bob.token, 'beta reply', { replyTo: root.id })
    await publish(t.app, bob.token, 'beta followers', { visibility: 'followers' })
    await publish(t.app, bob.token, `beta mentioned @${viewer.username}`, { visibility: 'mentioned' })
    await follow(t.app, viewer, bob)
    await ok(api(t.app, 'POST', `/api/posts/${root.id}/repost`, { token: bob.token }), 200)
    const { posts } = await explore(viewer, '?limit=100')
    expect(posts.filter((p) => p.content.includes('beta')).map((p) => [p.content, p.repostedBy])).toEqual([['beta root', null]])
  })

  it("never lists a private account's posts, not even to its approved followers", async () => {
    const hidden = await quickMember(t.app, 'hidden')
    await follow(t.app, viewer, hidden)
    await ok(api(t.app, 'PATCH', '/api/users/profile', { token: hidden.token, body: { privateAccount: true } }), 200)
    await publish(t.app, hidden.token, 'gamma private')
    await publish(t.app, ann.token, 'gamma public')
    expect(await contents(viewer, 'gamma')).toEqual(['gamma public'])
    expect(await contents(hidden, 'gamma')).toEqual(['gamma public'])
  })

  it('hides blocked members both ways', async () => {
    const [blocker, blocked] = await Promise.all([quickMember(t.app, 'blocker'), quickMember(t.app, 'blocked')])
    await publish(t.app, blocker.token, 'delta blocker')
    await publish(t.app, blocked.token, 'delta blocked')
    await ok(api(t.app, 'POST', `/api/blocks/user/${blocked.id}`, { token: blocker.token }), 201)
    // Each sees their own post only.
    expect(await contents(blocker, 'delta')).toEqual(['delta blocker'])
    expect(await contents(blocked, 'delta')).toEqual(['delta blocked'])
    expect(await contents(viewer, 'delta')).toEqual(['delta blocked', 'delta blocker'])
  })

  it('hides muted members, muted keywords and domains, and blocked keywords and domains', async () => {
    const muter = await quickMember(t.app, 'muter')
    const loud = await quickMember(t.app, 'loud')
    await publish(t.app, loud.token, 'epsilon loud')
    await publish(t.app, ann.token, 'epsilon tennis')
    await publish(t.app, ann.token, 'epsilon see https://news.muted.example/a')
    await publish(t.app, ann.token, 'epsilon cricket')
    await publish(t.app, ann.token, 'epsilon see https://blocked.example/b')
    await publish(t.app, ann.token, 'epsilon kept')
    await ok(api(t.app, 'POST', '/api/mutes/user', { token: muter.token, body: { userId: loud.id } }), 201)
    await ok(api(t.app, 'POST', '/api/mutes/keyword', { token: muter.token, body: { keyword: 'tennis' } }), 201)
    await ok(api(t.app, 'POST', '/api/mutes/domain', { token: muter.token, body: { domain: 'muted.example' } }), 201)
    await ok(api(t.app, 'POST', '/api/blocks/keyword', { token: muter.token, body: { keyword: 'cricket' } }), 201)
    await ok(api(t.app, 'POST', '/api/blocks/domain', { token: muter.token, body: { domain: 'blocked.example' } }), 201)
    expect(await contents(muter, 'epsilon')).toEqual(['epsilon kept'])
    // Mutes are the muter's only.
    expect(await contents(viewer, 'epsilon')).toHaveLength(6)
  })

  it('hides members deleting their account', async () => {
    const leaving = await quickMember(t.app, 'leaving')
    await publish(t.app, leaving.token, 'zeta leaving')
    expect(await contents(viewer, 'zeta')).toEqual(['zeta leaving'])
    await t.app.services.db.execute(sql`update users set deleted_at = now() where id = ${leaving.id}`)
    expect(await contents(viewer, 'zeta')).toEqual([])
  })

  it('pages by cursor without gaps or repeats while new posts arrive, and by page number', async () => {
    const writer = await quickMember(t.app, 'writer')
    for (let i = 1; i <= 7; i += 1) await publish(t.app, writer.token, `eta ${i}`)
    const seen: string[] = []
    let cursor: string | null = null
    let first = true
    do {
      const page: FeedResponse = await explore(viewer, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.posts.map((p) => p.content))
      // Written after the first page was read: above every cursor, so it never shows on a later page.
      if (first) await publish(t.app, writer.token, 'eta late')
      first = false
      cursor = page.nextCursor
    } while (cursor)
    const etas = seen.filter((c) => c.startsWith('eta '))
    expect(etas).toEqual(['eta 7', 'eta 6', 'eta 5', 'eta 4', 'eta 3', 'eta 2', 'eta 1'])
    expect(new Set(seen).size).toBe(seen.length)

    const second = await explore(viewer, '?limit=2&page=2')
    const top = await explore(viewer, '?limit=4')
    expect(second.posts.map((p) => p.id)).toEqual(top.posts.slice(2).map((p) => p.id))
  })

  it('asks for a session and a valid cursor', async () => {
    expect((await api(t.app, 'GET', '/api/posts/explore')).statusCode).toBe(401)
    const bad = await api(t.app, 'GET', '/api/posts/explore?cursor=garbage', { token: viewer.token })
    expect(bad.statusCode).toBe(400)
    expect((bad.json() as ErrorBody).error).toBe('Invalid cursor')
  })

  it('reads the partial index of public top-level posts, newest first', async () => {
    // The planner's choice on a table this small is no proof; with scans and sorts priced out, the index it picks
    // is the one that serves this order.
    const rows = await t.app.services.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`)
      await tx.execute(sql`set local enable_bitmapscan = off`)
      await tx.execute(sql`set local enable_sort = off`)
      const result = await tx.execute(sql`explain ${exploreStatement(viewer.id, undefined, 0, 21)}`)
      return (result as unknown as { rows: Array<Record<string, string>> }).rows
    })
    const plan = rows.map((r) => Object.values(r)[0]).join('\n')
    expect(plan).toContain('posts_public_created_idx')
  })
})
