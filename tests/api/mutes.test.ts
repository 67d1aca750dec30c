import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { feedKeys } from '../../server/modules/posts/feed-queries'
import { LIMITS } from '../../src/api/contract/limits'
import { feed, follow, type Member, publish, quickMember } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// docs/product.md, "Mutes". Runs with the caches on and, in `npm test`'s second pass, off (WREN_TEST_CACHES=off).
const t = useTestApp()

const muteUser = (who: Member, body: unknown) => api(t.app, 'POST', '/api/mutes/user', { token: who.token, body })
const unmuteUser = (who: Member, userId: string) => api(t.app, 'DELETE', `/api/mutes/user/${userId}`, { token: who.token })
const muteKeyword = (who: Member, keyword: unknown) =>
  api(t.app, 'POST', '/api/mutes/keyword', { token: who.token, body: { keyword } })
const unmuteKeyword = (who: Member, keyword: string) =>
  api(t.app, 'DELETE', `/api/mutes/keyword/${encodeURIComponent(keyword)}`, { token: who.token })
const muteDomain = (who: Member, domain: unknown) =>
  api(t.app, 'POST', '/api/mutes/domain', { token: who.token, body: { domain } })
const unmuteDomain = (who: Member, domain: string) =>
  api(t.app, 'DELETE', `/api/mutes/domain/${encodeURIComponent(domain)}`, { token: who.token })
const mutes = async (who: Member, query = '') => {
  const res = await api(t.app, 'GET', `/api/mutes${query}`, { token: who.token })
  expect(res.statusCode).toBe(200)
  return res.json() as Schemas['MutesResponse']
}
const errorOf = (res: { json: () => unknown }) => (res.json() as ErrorBody).error
const feedContents = async (who: Member) => (await feed(t.app, who.token)).posts.map((p) => p.content)
const postPage = async (who: Member, id: string) => {
  const res = await api(t.app, 'GET', `/api/posts/${id}`, { token: who.token })
  expect(res.statusCode).toBe(200)
  return res.json() as Schemas['PostDetailResponse']
}
const profilePosts = async (who: Member, username: string, tab = 'posts') => {
  const res = await api(t.app, 'GET', `/api/users/${username}?tab=${tab}`, { token: who.token })
  expect(res.statusCode).toBe(200)
  return (res.json() as Schemas['UserProfileResponse']).posts
}
const ok = async (res: Promise<{ statusCode: number; body: string }>, status: number) => {
  const answered = await res
  expect(answered.statusCode, answered.body).toBe(status)
}

describe('muting a member', () => {
  let ann: Member
  let bob: Member
  beforeAll(async () => {
    ;[ann, bob] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob')]
  })

  it('refuses oneself (400), an unknown member (404), a malformed request and a stranger', async () => {
    const self = await muteUser(ann, { userId: ann.id })
    expect(self.statusCode).toBe(400)
    expect(errorOf(self)).toBe('You cannot mute yourself')
    const unknown = await muteUser(ann, { userId: randomUUID() })
    expect(unknown.statusCode).toBe(404)
    expect(errorOf(unknown)).toBe('User not found')
    const unknownUnmute = await unmuteUser(ann, randomUUID())
    expect(unknownUnmute.statusCode).toBe(404)
    expect(errorOf(unknownUnmute)).toBe('User not found')
    const selfUnmute = await unmuteUser(ann, ann.id)
    expect(selfUnmute.statusCode).toBe(400)
    expect(errorOf(selfUnmute)).toBe('You cannot mute yourself')
    expect((await muteUser(ann, {})).statusCode).toBe(400)
    const notAnId = await muteUser(ann, { userId: 'not-an-id' })
    expect(notAnId.statusCode).toBe(404)
    expect(errorOf(notAnId)).toBe('User not found')
    expect((await muteUser(ann, { userId: bob.id, extra: 1 })).statusCode).toBe(400)
    expect((await api(t.app, 'POST', '/api/mutes/user', { body: { userId: bob.id } })).statusCode).toBe(401)
    expect((await api(t.app, 'GET', '/api/mutes')).statusCode).toBe(401)
  })

  it('refuses a reason over 200 characters, keeps one of 200, trims it, and keeps a blank one as none', async () => {
    const long = await muteUser(ann, { userId: bob.id, reason: 'x'.repeat(LIMITS.muteReasonMax + 1) })
    expect(long.statusCode).toBe(400)
    expect(errorOf(long)).toBe('Reason must be at most 200 characters')
    // Counted in characters (code points), not UTF-16 units.
    const emoji = await muteUser(ann, { userId: bob.id, reason: '🙈'.repeat(LIMITS.muteReasonMax + 1) })
    expect(emoji.statusCode).toBe(400)
    expect(errorOf(emoji)).toBe('Reason must be at most 200 characters')

    const made = await muteUser(ann, { userId: bob.id, reason: '🙈'.repeat(LIMITS.muteReasonMax) })
    expect(made.statusCode).toBe(201)
    const mute = (made.json() as Schemas['MutedUserResponse']).mute
    expect(mute).toEqual({
      id: bob.id,
      reason: '🙈'.repeat(LIMITS.muteReasonMax),
      muted: { id: bob.id, username: bob.username, displayName: `Member ${bob.username}`, avatar: null, verified: false },
      createdAt: expect.any(String),
    })
    expect((await unmuteUser(ann, bob.id)).statusCode).toBe(204)

    const blank = await muteUser(ann, { userId: bob.id, reason: '   ' })
    expect(blank.statusCode).toBe(201)
    expect((blank.json() as Schemas['MutedUserResponse']).mute.reason).toBeNull()
    expect((await unmuteUser(ann, bob.id)).statusCode).toBe(204)
    const trimmed = await muteUser(ann, { userId: bob.id, reason: '  spoils films ' })
    expect((trimmed.json() as Schemas['MutedUserResponse']).mute.reason).toBe('spoils films')
    expect((await unmuteUser(ann, bob.id)).statusCode).toBe(204)
  })

  it('mutes once (409 again), lists the mute for the muter only, and unmutes once (404 again)', async () => {
    const first = await muteUser(ann, { userId: bob.id, reason: 'too loud' })
    expect(first.statusCode).toBe(201)
    const again = await muteUser(ann, { userId: bob.id, reason: 'other' })
    expect(again.statusCode).toBe(409)
    expect(errorOf(again)).toBe('This user is already muted')

    const listed = await mutes(ann)
    expect(listed.mutedUsers).toEqual([(first.json() as Schemas['MutedUserResponse']).mute])
    expect(listed.mutedUsers[0]?.reason).toBe('too loud')
    expect(listed.nextCursor).toBeNull()
    expect(await mutes(bob)).toEqual({ mutedUsers: [], mutedKeywords: [], mutedDomains: [], nextCursor: null })

    expect((await unmuteUser(ann, bob.id)).statusCode).toBe(204)
    const gone = await unmuteUser(ann, bob.id)
    expect(gone.statusCode).toBe(404)
    expect(errorOf(gone)).toBe('This user is not muted')
    expect((await mutes(ann)).mutedUsers).toEqual([])
  })

  it("tells the muter, and only the muter, on the member's profile (muted), so it can offer Unmute", async () => {
    const mutedOn = async (viewer: Member, username: string) => {
      const res = await api(t.app, 'GET', `/api/users/${username}`, { token: viewer.token })
      expect(res.statusCode).toBe(200)
      return (res.json() as Schemas['UserProfileResponse']).user.muted
    }
    expect(await mutedOn(ann, bob.username)).toBe(false)
    expect((await muteUser(ann, { userId: bob.id })).statusCode).toBe(201)
    expect(await mutedOn(ann, bob.username)).toBe(true)
    // Silent: the muted member sees nothing on either profile.
    expect(await mutedOn(bob, ann.username)).toBe(false)
    expect(await mutedOn(bob, bob.username)).toBe(false)
    expect((await unmuteUser(ann, bob.id)).statusCode).toBe(204)
    expect(await mutedOn(ann, bob.username)).toBe(false)
  })

  it('pages the muted members, most recent first', async () => {
    const muter = await quickMember(t.app, 'pager')
    const targets = [await quickMember(t.app, 'p1'), await quickMember(t.app, 'p2'), await quickMember(t.app, 'p3')]
    for (const target of targets) await ok(muteUser(muter, { userId: target.id }), 201)
    const first = await mutes(muter, '?limit=2')
    expect(first.mutedUsers.map((m) => m.id)).toEqual([targets[2]?.id, targets[1]?.id])
    expect(first.nextCursor).toEqual(expect.any(String))
    const second = await mutes(muter, `?limit=2&cursor=${first.nextCursor}`)
    expect(second.mutedUsers.map((m) => m.id)).toEqual([targets[0]?.id])
    expect(second.nextCursor).toBeNull()
    expect((await mutes(muter, '?page=2&limit=2')).mutedUsers.map((m) => m.id)).toEqual([targets[0]?.id])
    expect((await api(t.app, 'GET', '/api/mutes?cursor=garbage', { token: muter.token })).statusCode).toBe(400)
  })

  it('treats a member across a block, either way, as unknown (404), and hides an earlier mute of them', async () => {
    const [carol, dave] = [await quickMember(t.app, 'carol'), await quickMember(t.app, 'dave')]
    await ok(muteUser(carol, { userId: dave.id }), 201)
    await ok(api(t.app, 'POST', `/api/blocks/user/${carol.id}`, { token: dave.token }), 201)
    for (const res of [await muteUser(carol, { userId: dave.id }), await unmuteUser(carol, dave.id), await muteUser(dave, { userId: carol.id })]) {
      expect(res.statusCode).toBe(404)
      expect(errorOf(res)).toBe('User not found')
    }
    expect((await mutes(carol)).mutedUsers).toEqual([])
    await ok(api(t.app, 'DELETE', `/api/blocks/user/${carol.id}`, { token: dave.token }), 204)
    expect((await mutes(carol)).mutedUsers.map((m) => m.id)).toEqual([dave.id])
    await ok(api(t.app, 'POST', `/api/blocks/user/${dave.id}`, { token: carol.token }), 201)
    expect((await muteUser(carol, { userId: dave.id })).statusCode).toBe(404)
  })
})

describe('muted keywords and domains', () => {
  let ann: Member
  beforeAll(async () => {
    ann = await quickMember(t.app, 'kw')
  })

  it('mutes a keyword trimmed, refuses a duplicate in any case (409), and unmutes it in any case', async () => {
    const added = await muteKeyword(ann, '  Spoilers ahead ')
    expect(added.statusCode).toBe(201)
    const mute = (added.json() as Schemas['MutedKeywordResponse']).mute
    expect(mute).toEqual({ id: expect.any(String), keyword: 'Spoilers ahead', createdAt: expect.any(String) })
    const duplicate = await muteKeyword(ann, 'SPOILERS AHEAD')
    expect(duplicate.statusCode).toBe(409)
    expect(errorOf(duplicate)).toBe('This keyword is already muted')
    await ok(muteKeyword(ann, 'crypto'), 201)
    expect((await mutes(ann)).mutedKeywords.map((k) => k.keyword)).toEqual(['crypto', 'Spoilers ahead'])
    expect((await mutes(ann)).mutedKeywords[1]).toEqual(mute)

    expect((await unmuteKeyword(ann, 'spoilers AHEAD')).statusCode).toBe(204)
    const gone = await unmuteKeyword(ann, 'spoilers ahead')
    expect(gone.statusCode).toBe(404)
    expect(errorOf(gone)).toBe('This keyword is not muted')
    expect((await mutes(ann)).mutedKeywords.map((k) => k.keyword)).toEqual(['crypto'])
  })

  it("refuses a blank or too long keyword (400) with the product's words", async () => {
    for (const blank of ['', '   ']) {
      const res = await muteKeyword(ann, blank)
      expect(res.statusCode, JSON.stringify(blank)).toBe(400)
      expect(errorOf(res)).toBe('Keyword is required')
    }
    const long = await muteKeyword(ann, 'x'.repeat(LIMITS.blockedKeywordMax + 1))
    expect(long.statusCode).toBe(400)
    expect(errorOf(long)).toBe('Keyword must be at most 100 characters')
    await ok(muteKeyword(ann, 'x'.repeat(LIMITS.blockedKeywordMax)), 201)
    expect((await api(t.app, 'POST', '/api/mutes/keyword', { token: ann.token, body: {} })).statusCode).toBe(400)
  })

  it('mutes a domain trimmed and lowercased, refuses malformed ones and duplicates, and unmutes it', async () => {
    const added = await muteDomain(ann, ' Spam.Example ')
    expect(added.statusCode).toBe(201)
    expect((added.json() as Schemas['MutedDomainResponse']).mute).toEqual({
      id: expect.any(String),
      domain: 'spam.example',
      createdAt: expect.any(String),
    })
    const duplicate = await muteDomain(ann, 'spam.EXAMPLE')
    expect(duplicate.statusCode).toBe(409)
    expect(errorOf(duplicate)).toBe('This domain is already muted')
    await ok(muteDomain(ann, 'ads.my-tracker.co'), 201)
    for (const bad of ['spam', 'not a domain', '-x.com', 'x-.com', 'a..com', 'x.c', 'x.c0m', 'https://x.com', 'x.com.', ' ']) {
      const res = await muteDomain(ann, bad)
      expect(res.statusCode, bad).toBe(400)
      expect(errorOf(res), bad).toBe('Invalid domain format')
    }
    expect((await mutes(ann)).mutedDomains.map((d) => d.domain)).toEqual(['ads.my-tracker.co', 'spam.example'])
    expect((await unmuteDomain(ann, 'SPAM.example')).statusCode).toBe(204)
    const gone = await unmuteDomain(ann, 'spam.example')
    expect(gone.statusCode).toBe(404)
    expect(errorOf(gone)).toBe('This domain is not muted')
    const malformed = await unmuteDomain(ann, 'no_domain')
    expect(malformed.statusCode).toBe(400)
    expect(errorOf(malformed)).toBe('Invalid domain format')
  })

  it('keeps muted and blocked lists apart', async () => {
    const member = await quickMember(t.app, 'apart')
    await ok(api(t.app, 'POST', '/api/blocks/keyword', { token: member.token, body: { keyword: 'shared' } }), 201)
    await ok(muteKeyword(member, 'Shared'), 201)
    await ok(api(t.app, 'POST', '/api/blocks/domain', { token: member.token, body: { domain: 'both.example' } }), 201)
    await ok(muteDomain(member, 'both.example'), 201)
    await ok(unmuteKeyword(member, 'shared'), 204)
    const blocks = (await api(t.app, 'GET', '/api/blocks', { token: member.token })).json() as Schemas['BlocksResponse']
    expect(blocks.keywords).toEqual(['shared'])
    expect(blocks.domains).toEqual(['both.example'])
    expect((await mutes(member)).mutedDomains.map((d) => d.domain)).toEqual(['both.example'])
  })

  it('caps each list at 1,000', async () => {
    const full = await quickMember(t.app, 'cap')
    await t.app.services.db.execute(
      sql`insert into muted_keywords (id, user_id, keyword, pattern)
          select gen_random_uuid(), ${full.id}, 'kw' || n, ' kw' || n || ' ' from generate_series(1, 999) n`,
    )
    await t.app.services.db.execute(
      sql`insert into muted_domains (id, user_id, domain)
          select gen_random_uuid(), ${full.id}, 'd' || n || '.example' from generate_series(1, 1000) n`,
    )
    await ok(muteKeyword(full, 'the last one'), 201)
    const overKeyword = await muteKeyword(full, 'one too many')
    expect(overKeyword.statusCode).toBe(400)
    expect(errorOf(overKeyword)).toBe('You can mute at most 1,000 keywords')
    const overDomain = await muteDomain(full, 'more.example')
    expect(overDomain.statusCode).toBe(400)
    expect(errorOf(overDomain)).toBe('You can mute at most 1,000 domains')
    const listed = await mutes(full)
    expect(listed.mutedKeywords).toHaveLength(1000)
    expect(listed.mutedDomains).toHaveLength(1000)
  })
})

describe("a muted member in the muter's home feed", () => {
  // ann mutes bob; ann follows bob and carol; carol reposts bob's post; bob reposts dave's post (ann does not
  // follow dave); bob follows ann.
  let ann: Member
  let bob: Member
  let carol: Member
  let dave: Member
  let bobPost: Schemas['Post']
  let annPost: Schemas['Post']
  let davePost: Schemas['Post']
  let laterDavePost: Schemas['Post']
  let root: Schemas['Post']

  beforeAll(async () => {
    ;[ann, bob, carol, dave] = [
      await quickMember(t.app, 'ann'),
      await quickMember(t.app, 'bob'),
      await quickMember(t.app, 'carol'),
      await quickMember(t.app, 'dave'),
    ]
    await follow(t.app, ann, bob)
    await follow(t.app, ann, carol)
    await follow(t.app, bob, ann)
    annPost = await publish(t.app, ann.token, 'ann says hi')
    bobPost = await publish(t.app, bob.token, 'bob says hi')
    davePost = await publish(t.app, dave.token, 'dave says hi')
    laterDavePost = await publish(t.app, dave.token, 'dave again')
    root = await publish(t.app, carol.token, 'carol asks')
    await publish(t.app, bob.token, 'bob answers carol', { replyTo: root.id })
    await publish(t.app, ann.token, 'ann answers carol', { replyTo: root.id })
    await publish(t.app, bob.token, 'bob answers ann', { replyTo: annPost.id })
    await ok(api(t.app, 'POST', `/api/posts/${bobPost.id}/repost`, { token: carol.token }), 200)
    // bob reposts first, carol later: muting bob leaves carol's repost as the item.
    await ok(api(t.app, 'POST', `/api/posts/${davePost.id}/repost`, { token: bob.token }), 200)
    await ok(api(t.app, 'POST', `/api/posts/${davePost.id}/repost`, { token: carol.token }), 200)
    await ok(api(t.app, 'POST', `/api/posts/${laterDavePost.id}/repost`, { token: bob.token }), 200)
  })

  const bobsItems = ['bob says hi', 'bob answers carol', 'bob answers ann', 'dave again']

  it('shows everything before the mute (and fills the cached timeline)', async () => {
    const items = (await feed(t.app, ann.token)).posts
    expect(items.map((p) => p.content)).toEqual(expect.arrayContaining([...bobsItems, 'dave says hi', 'carol asks']))
    expect(items.find((p) => p.content === 'dave says hi')?.repostedBy?.id).toBe(bob.id)
  })

  it("leaves the muted member's posts, replies and reposts out of the muter's feed, in both plans", async () => {
    await ok(muteUser(ann, { userId: bob.id }), 201)
    const items = (await feed(t.app, ann.token)).posts
    const contents = items.map((p) => p.content)
    for (const hidden of bobsItems) expect(contents).not.toContain(hidden)
    expect(contents).toEqual(expect.arrayContaining(['ann says hi', 'ann answers carol', 'carol asks', 'dave says hi']))
    // dave's post is still there, brought by carol's later repost instead of bob's earlier one.
    expect(items.find((p) => p.content === 'dave says hi')?.repostedBy?.id).toBe(carol.id)
    expect(items.every((p) => !('muted' in p))).toBe(true)

    const db = t.app.services.db
    const perSource = await feedKeys(db, ann.id, undefined, 50, 'per-source')
    expect(await feedKeys(db, ann.id, undefined, 50, 'scan')).toEqual(perSource)
    expect(perSource.map((k) => k.post_id)).toEqual(items.map((p) => p.id))
    expect(perSource.some((k) => k.reposted_by === bob.id)).toBe(false)
  })

  it("changes nothing for the muted member, who still sees the muter's posts and may follow and react", async () => {
    expect(await feedContents(bob)).toEqual(expect.arrayContaining(['ann says hi', 'bob says hi', 'bob answers ann']))
    await ok(api(t.app, 'DELETE', `/api/users/${ann.id}/follow`, { token: bob.token }), 200)
    await ok(api(t.app, 'POST', `/api/users/${ann.id}/follow`, { token: bob.token }), 200)
    await ok(api(t.app, 'POST', `/api/posts/${annPost.id}/like`, { token: bob.token }), 200)
    expect((await postPage(bob, annPost.id)).post).not.toHaveProperty('muted')
    expect(JSON.stringify(await mutes(bob))).not.toContain(ann.id)
    // Nor for anyone else: carol still sees bob's post through her own repost.
    expect(await feedContents(carol)).toContain('bob says hi')
  })

  it('still opens the post page, marking the muted post and replies with `muted`', async () => {
    const page = await postPage(ann, bobPost.id)
    expect(page.post.content).toBe('bob says hi')
    expect(page.post.muted).toBe(`@${bob.username}`)
    const thread = await postPage(ann, root.id)
    expect(thread.post).not.toHaveProperty('muted')
    expect(thread.replies.map((r) => [r.content, r.muted ?? null])).toEqual([
      ['bob answers carol', `@${bob.username}`],
      ['ann answers carol', null],
    ])
    expect(thread.replies[1]).not.toHaveProperty('muted')
    // Another member opening the same (cached) cards sees no notice.
    expect((await postPage(carol, bobPost.id)).post).not.toHaveProperty('muted')
  })

  it("keeps the muted member's profile and tabs as they were, without `muted`", async () => {
    const posts = await profilePosts(ann, bob.username)
    expect(posts.map((p) => p.content)).toEqual(expect.arrayContaining(['bob says hi', 'dave again']))
    const replies = await profilePosts(ann, bob.username, 'replies')
    expect(replies.map((p) => p.content)).toContain('bob answers carol')
    expect([...posts, ...replies].every((p) => !('muted' in p))).toBe(true)
  })

  it('brings everything back on unmute', async () => {
    await ok(unmuteUser(ann, bob.id), 204)
    const items = (await feed(t.app, ann.token)).posts
    expect(items.map((p) => p.content)).toEqual(expect.arrayContaining(bobsItems))
    expect(items.find((p) => p.content === 'dave says hi')?.repostedBy?.id).toBe(bob.id)
    expect((await postPage(ann, bobPost.id)).post).not.toHaveProperty('muted')
  })
})

describe("muted keywords and domains in the muter's home feed", () => {
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
  const kept = [texts.partWord, texts.cryptic, texts.lookalike]
  const muted = [texts.phrase, texts.word, texts.domain, texts.subdomain]

  beforeAll(async () => {
    ;[ann, bob, carol] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob'), await quickMember(t.app, 'carol')]
    await follow(t.app, ann, bob)
    await follow(t.app, ann, carol)
    await follow(t.app, carol, bob)
    root = await publish(t.app, carol.token, 'a thread')
    for (const text of Object.values(texts)) await publish(t.app, bob.token, text)
    for (const text of Object.values(texts)) await publish(t.app, bob.token, `reply: ${text}`, { replyTo: root.id })
    await publish(t.app, ann.token, 'ann also hates crypto, see https://spam.example')
    // Fill the cached timeline before the mutes.
    expect(await feedContents(ann)).toHaveLength(2 * Object.keys(texts).length + 2)
    await ok(muteKeyword(ann, 'spoilers ahead'), 201)
    await ok(muteKeyword(ann, 'Crypto'), 201)
    await ok(muteKeyword(ann, '!!!'), 201)
    await ok(muteDomain(ann, 'spam.example'), 201)
  })

  it('leaves matching posts and replies out of the feed, never the muter’s own, in both plans', async () => {
    const annFeed = await feedContents(ann)
    expect(annFeed.filter((c) => !c.startsWith('reply: ')).sort()).toEqual(
      [...kept, 'ann also hates crypto, see https://spam.example', 'a thread'].sort(),
    )
    expect(annFeed.filter((c) => c.startsWith('reply: ')).sort()).toEqual(kept.map((c) => `reply: ${c}`).sort())
    for (const text of muted) expect(annFeed.filter((c) => c.endsWith(text))).toEqual([])
    const db = t.app.services.db
    expect(await feedKeys(db, ann.id, undefined, 50, 'scan')).toEqual(await feedKeys(db, ann.id, undefined, 50, 'per-source'))
    // Others' feeds are untouched.
    expect(await feedContents(carol)).toHaveLength(2 * Object.keys(texts).length + 1)
  })

  it('keeps them in replies and profile tabs, marking what matches on the post page only', async () => {
    const thread = await postPage(ann, root.id)
    expect(thread.replies).toHaveLength(Object.keys(texts).length)
    const notices = Object.fromEntries(thread.replies.map((r) => [r.content, r.muted ?? null]))
    expect(notices).toEqual({
      [`reply: ${texts.phrase}`]: 'spoilers ahead',
      [`reply: ${texts.partWord}`]: null,
      [`reply: ${texts.word}`]: 'Crypto',
      [`reply: ${texts.cryptic}`]: null,
      [`reply: ${texts.domain}`]: 'spam.example',
      [`reply: ${texts.subdomain}`]: 'spam.example',
      [`reply: ${texts.lookalike}`]: null,
    })
    const profile = await profilePosts(ann, bob.username)
    expect(profile.map((p) => p.content).sort()).toEqual(Object.values(texts).sort())
    expect(profile.every((p) => !('muted' in p))).toBe(true)

    const phrase = profile.find((p) => p.content === texts.phrase)
    if (!phrase) throw new Error('the phrase post is missing from the profile')
    expect((await postPage(ann, phrase.id)).post.muted).toBe('spoilers ahead')
    expect((await postPage(carol, phrase.id)).post).not.toHaveProperty('muted')
    const own = (await profilePosts(ann, ann.username))[0]
    expect(own?.content).toBe('ann also hates crypto, see https://spam.example')
    expect((await postPage(ann, own?.id ?? '')).post).not.toHaveProperty('muted')
  })

  it('lists them again once the keyword or domain is unmuted', async () => {
    await ok(unmuteKeyword(ann, 'crypto'), 204)
    await ok(unmuteDomain(ann, 'spam.example'), 204)
    const annFeed = await feedContents(ann)
    for (const text of [texts.word, texts.domain, texts.subdomain]) expect(annFeed).toContain(text)
    expect(annFeed).not.toContain(texts.phrase)
  })
})

describe('mutes and blocks together', () => {
  it('a blocked keyword still hides a post everywhere; a muted one only in the feed', async () => {
    const [ann, bob] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob')]
    await follow(t.app, ann, bob)
    const blockedPost = await publish(t.app, bob.token, 'about tennis')
    const mutedPost = await publish(t.app, bob.token, 'about golf')
    await ok(api(t.app, 'POST', '/api/blocks/keyword', { token: ann.token, body: { keyword: 'tennis' } }), 201)
    await ok(muteKeyword(ann, 'golf'), 201)
    expect(await feedContents(ann)).toEqual([])
    expect((await profilePosts(ann, bob.username)).map((p) => p.id)).toEqual([mutedPost.id])
    expect((await postPage(ann, mutedPost.id)).post.muted).toBe('golf')
    // A post opened directly still shows; blocks put no notice on it.
    expect((await postPage(ann, blockedPost.id)).post).not.toHaveProperty('muted')
  })
})
