import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { LIMITS } from '../../src/api/contract/limits'
import { feed, field, follow, type Member, publish, quickMember, send } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// docs/product.md, "Blocks". Runs with the caches on and, in `npm test`'s second pass, off (WREN_TEST_CACHES=off).
const t = useTestApp()

const blockUser = (who: Member, userId: string, method: 'POST' | 'DELETE' = 'POST') =>
  api(t.app, method, `/api/blocks/user/${userId}`, { token: who.token })
const blocks = async (who: Member, query = '') => {
  const res = await api(t.app, 'GET', `/api/blocks${query}`, { token: who.token })
  expect(res.statusCode).toBe(200)
  return res.json() as Schemas['BlocksResponse']
}
const errorOf = (res: { json: () => unknown }) => (res.json() as ErrorBody).error
const profile = (who: Member, username: string, query = '') =>
  api(t.app, 'GET', `/api/users/${username}${query}`, { token: who.token })
const profileContents = async (who: Member, username: string, tab: string) => {
  const res = await profile(who, username, `?tab=${tab}`)
  expect(res.statusCode).toBe(200)
  return (res.json() as Schemas['UserProfileResponse']).posts.map((p) => p.content)
}
const feedContents = async (who: Member) => (await feed(t.app, who.token)).posts.map((p) => p.content)
const postPage = (who: Member, id: string) => api(t.app, 'GET', `/api/posts/${id}`, { token: who.token })
const replyContents = async (who: Member, id: string) => {
  const res = await postPage(who, id)
  expect(res.statusCode).toBe(200)
  return (res.json() as Schemas['PostDetailResponse']).replies.map((p) => p.content)
}
const listNames = async (who: Member, username: string, direction: 'followers' | 'following') => {
  const res = await api(t.app, 'GET', `/api/users/${username}/${direction}`, { token: who.token })
  expect(res.statusCode).toBe(200)
  const body = res.json() as { followers?: Schemas['FollowEntry'][]; following?: Schemas['FollowEntry'][] }
  return (body[direction] ?? []).map((u) => u.username)
}
const stats = async (viewer: Member, who: Member) => {
  const res = await profile(viewer, who.username)
  expect(res.statusCode).toBe(200)
  return (res.json() as Schemas['UserProfileResponse']).user.stats
}

describe('blocking a member', () => {
  let ann: Member
  let bob: Member
  beforeAll(async () => {
    ;[ann, bob] = await Promise.all([quickMember(t.app, 'ann'), quickMember(t.app, 'bob')])
  })

  it('refuses oneself (400) and an unknown member (404)', async () => {
    const self = await blockUser(ann, ann.id)
    expect(self.statusCode).toBe(400)
    expect(errorOf(self)).toBe('You cannot block yourself')
    const unknown = await blockUser(ann, randomUUID())
    expect(unknown.statusCode).toBe(404)
    expect(errorOf(unknown)).toBe('User not found')
    expect((await blockUser(ann, randomUUID(), 'DELETE')).statusCode).toBe(404)
    expect((await blockUser(ann, 'not-an-id')).statusCode).toBe(404)
    expect((await api(t.app, 'POST', `/api/blocks/user/${bob.id}`)).statusCode).toBe(401)
  })

  it('blocks idempotently, lists the blocked member, and unblocks', async () => {
    const first = await blockUser(ann, bob.id)
    expect(first.statusCode).toBe(201)
    const block = (first.json() as Schemas['BlockedUserResponse']).block
    expect(block).toMatchObject({ id: bob.id, blocked: { id: bob.id, username: bob.username, verified: false } })
    const again = await blockUser(ann, bob.id)
    expect(again.statusCode).toBe(201)
    expect((again.json() as Schemas['BlockedUserResponse']).block.createdAt).toBe(block.createdAt)

    const listed = await blocks(ann)
    expect(listed.users.map((b) => b.blocked.username)).toEqual([bob.username])
    expect(listed.nextCursor).toBeNull()
    expect((await blocks(bob)).users).toEqual([])

    expect((await blockUser(ann, bob.id, 'DELETE')).statusCode).toBe(204)
    expect((await blockUser(ann, bob.id, 'DELETE')).statusCode).toBe(204)
    expect((await blocks(ann)).users).toEqual([])
  })

  it('pages the blocked members, most recent first', async () => {
    const blocker = await quickMember(t.app, 'pager')
    const targets = [await quickMember(t.app, 'p1'), await quickMember(t.app, 'p2'), await quickMember(t.app, 'p3')]
    for (const target of targets) expect((await blockUser(blocker, target.id)).statusCode).toBe(201)
    const first = await blocks(blocker, '?limit=2')
    expect(first.users.map((b) => b.id)).toEqual([targets[2]?.id, targets[1]?.id])
    expect(first.nextCursor).toEqual(expect.any(String))
    const second = await blocks(blocker, `?limit=2&cursor=${first.nextCursor}`)
    expect(second.users.map((b) => b.id)).toEqual([targets[0]?.id])
    expect(second.nextCursor).toBeNull()
  })
})

describe('blocked keywords and domains', () => {
  let ann: Member
  beforeAll(async () => {
    ann = await quickMember(t.app, 'kw')
  })
  const addKeyword = (keyword: unknown) => api(t.app, 'POST', '/api/blocks/keyword', { token: ann.token, body: { keyword } })
  const addDomain = (domain: unknown) => api(t.app, 'POST', '/api/blocks/domain', { token: ann.token, body: { domain } })

  it('adds a keyword trimmed, refuses a duplicate in any case (409), and removes it', async () => {
    const added = await addKeyword('  Spoilers ahead ')
    expect(added.statusCode).toBe(201)
    expect(added.json()).toEqual({ keyword: 'Spoilers ahead' })
    const duplicate = await addKeyword('SPOILERS AHEAD')
    expect(duplicate.statusCode).toBe(409)
    expect(errorOf(duplicate)).toBe('This keyword is already blocked')
    expect((await addKeyword('crypto')).statusCode).toBe(201)
    expect((await blocks(ann)).keywords).toEqual(['crypto', 'Spoilers ahead'])

    const removed = await api(t.app, 'DELETE', `/api/blocks/keyword/${encodeURIComponent('spoilers AHEAD')}`, {
      token: ann.token,
    })
    expect(removed.statusCode).toBe(204)
    const gone = await api(t.app, 'DELETE', '/api/blocks/keyword/nothing-here', { token: ann.token })
    expect(gone.statusCode).toBe(404)
    expect(errorOf(gone)).toBe('This keyword is not blocked')
    expect((await blocks(ann)).keywords).toEqual(['crypto'])
  })

  it("refuses a blank or too long keyword (400) with the product's words", async () => {
    for (const blank of ['   ', '']) {
      const res = await addKeyword(blank)
      expect(res.statusCode).toBe(400)
      expect(errorOf(res)).toBe('Keyword is required')
    }
    const long = await addKeyword('x'.repeat(LIMITS.blockedKeywordMax + 1))
    expect(long.statusCode).toBe(400)
    expect(errorOf(long)).toBe('Keyword must be at most 100 characters')
    expect((await addKeyword('x'.repeat(LIMITS.blockedKeywordMax))).statusCode).toBe(201)
  })

  it('adds a domain trimmed and lowercased, refuses malformed ones and duplicates, and removes it', async () => {
    const added = await addDomain(' Spam.Example ')
    expect(added.statusCode).toBe(201)
    expect(added.json()).toEqual({ domain: 'spam.example' })
    const duplicate = await addDomain('spam.EXAMPLE')
    expect(duplicate.statusCode).toBe(409)
    expect(errorOf(duplicate)).toBe('This domain is already blocked')
    expect((await addDomain('ads.my-tracker.co')).statusCode).toBe(201)
    for (const bad of ['spam', 'not a domain', '-x.com', 'x-.com', 'a..com', 'x.c', 'x.c0m', 'https://x.com', 'x.com.']) {
      const res = await addDomain(bad)
      expect(res.statusCode, bad).toBe(400)
      expect(errorOf(res), bad).toBe('Invalid domain format')
    }
    expect((await blocks(ann)).domains).toEqual(['ads.my-tracker.co', 'spam.example'])
    expect((await api(t.app, 'DELETE', '/api/blocks/domain/SPAM.example', { token: ann.token })).statusCode).toBe(204)
    const gone = await api(t.app, 'DELETE', '/api/blocks/domain/spam.example', { token: ann.token })
    expect(gone.statusCode).toBe(404)
    expect(errorOf(gone)).toBe('This domain is not blocked')
    expect((await api(t.app, 'DELETE', '/api/blocks/domain/no_domain', { token: ann.token })).statusCode).toBe(400)
  })

  it('caps each list at 1,000', async () => {
    const full = await quickMember(t.app, 'cap')
    await t.app.services.db.execute(
      sql`insert into blocked_keywords (user_id, keyword, pattern) select ${full.id}, 'kw' || n, ' kw' || n || ' ' from generate_series(1, 999) n`,
    )
    await t.app.services.db.execute(
      sql`insert into blocked_domains (user_id, domain) select ${full.id}, 'd' || n || '.example' from generate_series(1, 1000) n`,
    )
    const post = (path: string, body: unknown) => api(t.app, 'POST', path, { token: full.token, body })
    expect((await post('/api/blocks/keyword', { keyword: 'the last one' })).statusCode).toBe(201)
    const overKeyword = await post('/api/blocks/keyword', { keyword: 'one too many' })
    expect(overKeyword.statusCode).toBe(400)
    expect(errorOf(overKeyword)).toBe('You can block at most 1,000 keywords')
    const overDomain = await post('/api/blocks/domain', { domain: 'more.example' })
    expect(overDomain.statusCode).toBe(400)
    expect(errorOf(overDomain)).toBe('You can block at most 1,000 domains')
  })
})

describe('the wall between blocker and blocked', () => {
  // ann blocks bob; carol is a friend of both.
  let ann: Member
  let bob: Member
  let carol: Member
  let annPost: Schemas['Post']
  let bobPost: Schemas['Post']
  let bobFollowersOnly: Schemas['Post']
  let carolPost: Schemas['Post']

  beforeAll(async () => {
    ;[ann, bob, carol] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob'), await quickMember(t.app, 'carol')]
    await follow(t.app, ann, bob)
    await follow(t.app, bob, ann)
    await follow(t.app, ann, carol)
    await follow(t.app, bob, carol)
    await follow(t.app, carol, ann)
    await follow(t.app, carol, bob)
    annPost = await publish(t.app, ann.token, 'ann says hi')
    bobPost = await publish(t.app, bob.token, 'bob says hi')
    bobFollowersOnly = await publish(t.app, bob.token, 'bob to followers', { visibility: 'followers' })
    carolPost = await publish(t.app, carol.token, 'carol says hi')
    await publish(t.app, bob.token, 'bob answers carol', { replyTo: carolPost.id })
    await publish(t.app, bob.token, 'bob answers ann', { replyTo: annPost.id })
    await publish(t.app, ann.token, 'ann answers carol', { replyTo: carolPost.id })
    expect((await api(t.app, 'POST', `/api/posts/${bobPost.id}/repost`, { token: carol.token })).statusCode).toBe(200)
    expect((await api(t.app, 'POST', `/api/posts/${bobPost.id}/like`, { token: carol.token })).statusCode).toBe(200)
    expect((await api(t.app, 'POST', `/api/posts/${annPost.id}/like`, { token: carol.token })).statusCode).toBe(200)
  })

  it('shows everything before the block (and fills the caches)', async () => {
    expect(await feedContents(ann)).toEqual(
      expect.arrayContaining(['bob says hi', 'bob to followers', 'bob answers carol', 'bob answers ann']),
    )
    expect(await feedContents(bob)).toEqual(expect.arrayContaining(['ann says hi', 'ann answers carol']))
    expect(await replyContents(ann, carolPost.id)).toEqual(['bob answers carol', 'ann answers carol'])
    expect(await profileContents(ann, carol.username, 'likes')).toEqual(['ann says hi', 'bob says hi'])
    expect((await stats(carol, ann)).followers).toBe(2)
  })

  it('removes the follows both ways, with exact counts', async () => {
    expect((await blockUser(ann, bob.id)).statusCode).toBe(201)
    expect(await stats(carol, ann)).toMatchObject({ followers: 1, following: 1 })
    expect(await stats(carol, bob)).toMatchObject({ followers: 1, following: 1 })
    expect(await listNames(carol, ann.username, 'followers')).toEqual([carol.username])
    expect(await listNames(carol, bob.username, 'following')).toEqual([carol.username])
  })

  it("hides each one's posts, replies and reposts from the other's feed, replies and profile tabs", async () => {
    const annFeed = await feedContents(ann)
    expect(annFeed).toContain('carol says hi')
    for (const hidden of ['bob says hi', 'bob to followers', 'bob answers carol', 'bob answers ann']) {
      expect(annFeed).not.toContain(hidden)
    }
    const bobFeed = await feedContents(bob)
    expect(bobFeed).toContain('carol says hi')
    expect(bobFeed).not.toContain('ann says hi')
    expect(bobFeed).not.toContain('ann answers carol')

    expect(await replyContents(ann, carolPost.id)).toEqual(['ann answers carol'])
    expect(await replyContents(bob, carolPost.id)).toEqual(['bob answers carol'])
    expect(await replyContents(carol, carolPost.id)).toEqual(['bob answers carol', 'ann answers carol'])

    // carol reposted and liked bob's post: ann does not see it on carol's tabs; bob does not see ann's like there.
    expect(await profileContents(ann, carol.username, 'posts')).toEqual(['carol says hi'])
    expect(await profileContents(ann, carol.username, 'likes')).toEqual(['ann says hi'])
    expect(await profileContents(bob, carol.username, 'likes')).toEqual(['bob says hi'])
    expect(await profileContents(carol, carol.username, 'likes')).toEqual(['ann says hi', 'bob says hi'])
  })

  it("answers 404 for each one's profile, lists and post pages, and hides them from third parties' lists", async () => {
    for (const [viewer, other] of [
      [ann, bob],
      [bob, ann],
    ] as const) {
      const res = await profile(viewer, other.username)
      expect(res.statusCode).toBe(404)
      expect(errorOf(res)).toBe('User not found')
      for (const direction of ['followers', 'following']) {
        expect((await api(t.app, 'GET', `/api/users/${other.username}/${direction}`, { token: viewer.token })).statusCode).toBe(404)
      }
    }
    for (const [viewer, post] of [
      [ann, bobPost],
      [ann, bobFollowersOnly],
      [bob, annPost],
    ] as const) {
      const res = await postPage(viewer, post.id)
      expect(res.statusCode).toBe(404)
      expect(errorOf(res)).toBe('Post not found')
    }
    expect(await listNames(ann, carol.username, 'followers')).toEqual([ann.username])
    expect(await listNames(bob, carol.username, 'following')).toEqual([bob.username])
    expect((await listNames(carol, carol.username, 'followers')).sort()).toEqual([ann.username, bob.username].sort())
  })

  it('refuses follows, likes, reposts and replies across the wall with 404, revealing nothing', async () => {
    for (const [actor, other, post] of [
      [ann, bob, bobPost],
      [bob, ann, annPost],
    ] as const) {
      const followed = await api(t.app, 'POST', `/api/users/${other.id}/follow`, { token: actor.token })
      expect(followed.statusCode).toBe(404)
      expect(errorOf(followed)).toBe('User not found')
      for (const action of ['like', 'repost']) {
        const res = await api(t.app, 'POST', `/api/posts/${post.id}/${action}`, { token: actor.token })
        expect(res.statusCode).toBe(404)
        expect(errorOf(res)).toBe('Post not found')
      }
      await expect(publish(t.app, actor.token, 'a reply', { replyTo: post.id })).rejects.toThrow(/404.*Post not found/)
      // The block is not revealed to the blocked member (and neither side's messages mention it).
      expect(JSON.stringify(followed.json())).not.toMatch(/block/i)
    }
  })

  it('restores visibility on unblock; the follows stay removed', async () => {
    expect((await blockUser(ann, bob.id, 'DELETE')).statusCode).toBe(204)
    expect((await profile(ann, bob.username)).statusCode).toBe(200)
    expect((await profile(bob, ann.username)).statusCode).toBe(200)
    expect((await postPage(ann, bobPost.id)).statusCode).toBe(200)
    // Followers-only stays hidden: the follow is gone.
    expect((await postPage(ann, bobFollowersOnly.id)).statusCode).toBe(404)
    expect(await replyContents(ann, carolPost.id)).toEqual(['bob answers carol', 'ann answers carol'])
    expect(await profileContents(ann, carol.username, 'likes')).toEqual(['ann says hi', 'bob says hi'])
    const annFeed = await feedContents(ann)
    expect(annFeed).toContain('bob says hi') // through carol's repost
    expect(annFeed).not.toContain('bob to followers')

    await follow(t.app, ann, bob)
    expect(await feedContents(ann)).toEqual(
      expect.arrayContaining(['bob says hi', 'bob to followers', 'bob answers carol', 'bob answers ann']),
    )
    expect(await stats(carol, bob)).toMatchObject({ followers: 2, following: 1 })
    expect((await api(t.app, 'POST', `/api/posts/${bobPost.id}/like`, { token: ann.token })).statusCode).toBe(200)
  })

  it('takes effect when the blocked member blocks back, and holds until both unblock', async () => {
    expect((await blockUser(ann, bob.id)).statusCode).toBe(201)
    expect((await blockUser(bob, ann.id)).statusCode).toBe(201)
    expect((await blockUser(ann, bob.id, 'DELETE')).statusCode).toBe(204)
    expect((await profile(ann, bob.username)).statusCode).toBe(404)
    expect(await feedContents(ann)).not.toContain('bob says hi')
    expect((await blockUser(bob, ann.id, 'DELETE')).statusCode).toBe(204)
    expect((await profile(ann, bob.username)).statusCode).toBe(200)
  })
})

describe('blocked keywords and domains in lists', () => {
  let ann: Member
  let bob: Member
  let carol: Member
  let root: Schemas['Post']
  const texts = {
    phrase: 'Big SPOILERS, ahead! the end',
    partWord: 'spoilersahead is one word',
    word: 'I hate crypto.',
    cryptic: 'cryptography is fine',
    domain: 'read https://spam.example/page now',
    subdomain: 'see HTTPS://News.Spam.Example?x=1',
    lookalike: 'see https://notspam.example and spam.example without a link',
  }

  beforeAll(async () => {
    ;[ann, bob, carol] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob'), await quickMember(t.app, 'carol')]
    await follow(t.app, ann, bob)
    await follow(t.app, ann, carol)
    root = await publish(t.app, carol.token, 'a thread')
    for (const text of Object.values(texts)) await publish(t.app, bob.token, text)
    for (const text of Object.values(texts)) await publish(t.app, bob.token, `reply: ${text}`, { replyTo: root.id })
    await publish(t.app, ann.token, 'ann also hates crypto')
    // Fill the cached timeline before the lists change.
    expect(await feedContents(ann)).toHaveLength(2 * Object.keys(texts).length + 2)
    for (const [path, body] of [
      ['/api/blocks/keyword', { keyword: 'spoilers ahead' }],
      ['/api/blocks/keyword', { keyword: 'Crypto' }],
      ['/api/blocks/keyword', { keyword: '!!!' }],
      ['/api/blocks/domain', { domain: 'spam.example' }],
    ] as const) {
      expect((await api(t.app, 'POST', path, { token: ann.token, body })).statusCode).toBe(201)
    }
  })

  const kept = [texts.partWord, texts.cryptic, texts.lookalike]

  it("leaves matching posts out of the member's feed, replies and profile tabs, but not their own", async () => {
    const annFeed = await feedContents(ann)
    expect(annFeed.filter((c) => !c.startsWith('reply: ')).sort()).toEqual([...kept, 'ann also hates crypto', 'a thread'].sort())
    expect(annFeed.filter((c) => c.startsWith('reply: ')).sort()).toEqual(kept.map((c) => `reply: ${c}`).sort())
    expect((await replyContents(ann, root.id)).sort()).toEqual(kept.map((c) => `reply: ${c}`).sort())
    expect((await profileContents(ann, bob.username, 'posts')).sort()).toEqual([...kept].sort())
    // Others see everything; the post itself still opens.
    expect(await feedContents(bob)).toHaveLength(2 * Object.keys(texts).length)
    expect(await replyContents(carol, root.id)).toHaveLength(Object.keys(texts).length)
  })

  it('lists them again once the keyword or domain is removed', async () => {
    expect((await api(t.app, 'DELETE', '/api/blocks/keyword/crypto', { token: ann.token })).statusCode).toBe(204)
    expect((await api(t.app, 'DELETE', '/api/blocks/domain/spam.example', { token: ann.token })).statusCode).toBe(204)
    const annFeed = await feedContents(ann)
    for (const text of [texts.word, texts.domain, texts.subdomain]) expect(annFeed).toContain(text)
    expect(annFeed).not.toContain(texts.phrase)
  })
})

describe('blocks and follows at the same moment', () => {
  it('never leaves a follow across a block, and keeps the counts exact', async () => {
    const [ann, bob] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob')]
    for (let round = 0; round < 4; round += 1) {
      await Promise.all([
        api(t.app, 'POST', `/api/users/${ann.id}/follow`, { token: bob.token }),
        api(t.app, 'POST', `/api/users/${bob.id}/follow`, { token: ann.token }),
        blockUser(ann, bob.id),
      ])
      const [row] = (
        (await t.app.services.db.execute(sql`
          select (select count(*)::int from follows where (follower_id, followee_id) in
                    ((${ann.id}::uuid, ${bob.id}::uuid), (${bob.id}::uuid, ${ann.id}::uuid))) as follows,
                 (select followers_count + following_count from users where id = ${ann.id}) as ann_counts,
                 (select followers_count + following_count from users where id = ${bob.id}) as bob_counts`)) as unknown as {
          rows: Array<{ follows: number; ann_counts: number; bob_counts: number }>
        }
      ).rows
      expect(row).toEqual({ follows: 0, ann_counts: 0, bob_counts: 0 })
      expect((await blockUser(ann, bob.id, 'DELETE')).statusCode).toBe(204)
    }
  })
})

describe('blocks and replies at the same moment', () => {
  it('a reply either lands before the block or is refused as not found; the reply count stays exact', async () => {
    const [ann, bob] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob')]
    for (let round = 0; round < 4; round += 1) {
      const root = await publish(t.app, ann.token, `root ${round}`)
      const [reply, block] = await Promise.all([
        send(t.app, 'POST', '/api/posts', bob.token, [field('content', `reply ${round}`), field('replyTo', root.id)]),
        blockUser(ann, bob.id),
      ])
      expect(block.statusCode).toBe(201)
      expect([201, 404]).toContain(reply.statusCode)
      const [row] = (
        (await t.app.services.db.execute(sql`
          select (select count(*)::int from posts where reply_to = ${root.id}) as replies,
                 (select reply_count from posts where id = ${root.id}) as reply_count`)) as unknown as {
          rows: Array<{ replies: number; reply_count: number }>
        }
      ).rows
      expect(row).toEqual({ replies: reply.statusCode === 201 ? 1 : 0, reply_count: reply.statusCode === 201 ? 1 : 0 })
      expect((await blockUser(ann, bob.id, 'DELETE')).statusCode).toBe(204)
    }
  })
})
