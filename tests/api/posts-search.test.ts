import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { parseSearch } from '../../server/modules/posts/search-terms'
import { follow, type Member, publish, quickMember } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// GET /posts/search: full-text search with stems, phrases and filters, obeying what the feed obeys.

const t = useTestApp()

type PostsPage = Schemas['PostsPage']

/** A word no other test's posts contain, so each test searches only its own posts. */
const nonce = () => `zq${randomBytes(4).toString('hex')}`

async function search(who: Member, q: string, extra = ''): Promise<PostsPage> {
  const res = await api(t.app, 'GET', `/api/posts/search?q=${encodeURIComponent(q)}${extra}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

const texts = (page: PostsPage) => page.posts.map((p) => p.content)

describe('matching', () => {
  it('finds stems: "jumps" finds "jumping", "foxes" finds "fox"', async () => {
    const w = nonce()
    const ann = await quickMember(t.app)
    await publish(t.app, ann.token, `The cat was jumping ${w}`)
    await publish(t.app, ann.token, `A fox sleeps ${w}`)
    await publish(t.app, ann.token, `Nothing to see ${w}`)
    expect(texts(await search(ann, `jumps ${w}`))).toEqual([`The cat was jumping ${w}`])
    expect(texts(await search(ann, `foxes ${w}`))).toEqual([`A fox sleeps ${w}`])
  })

  it('needs every word, keeps quoted phrases in order, and leaves out -words', async () => {
    const w = nonce()
    const ann = await quickMember(t.app)
    await publish(t.app, ann.token, `brown fox runs ${w}`)
    await publish(t.app, ann.token, `fox is brown ${w}`)
    await publish(t.app, ann.token, `only a fox ${w}`)
    expect(texts(await search(ann, `brown fox ${w}`)).sort()).toEqual([`brown fox runs ${w}`, `fox is brown ${w}`])
    expect(texts(await search(ann, `"brown fox" ${w}`))).toEqual([`brown fox runs ${w}`])
    expect(texts(await search(ann, `fox -brown ${w}`))).toEqual([`only a fox ${w}`])
  })

  it('ranks the better match first, then the newest', async () => {
    const w = nonce()
    const ann = await quickMember(t.app)
    await publish(t.app, ann.token, `garden ${w} and then, much later in a long sentence, tomatoes`)
    await publish(t.app, ann.token, `garden tomatoes ${w} (older of two equal)`)
    await publish(t.app, ann.token, `garden tomatoes ${w} (newer of two equal)`)
    expect(texts(await search(ann, `garden tomatoes ${w}`))).toEqual([
      `garden tomatoes ${w} (newer of two equal)`,
      `garden tomatoes ${w} (older of two equal)`,
      `garden ${w} and then, much later in a long sentence, tomatoes`,
    ])
  })

  it('filters by #tag (all of them) and from:username (any of them), newest first when that is all', async () => {
    const w = nonce()
    const ann = await quickMember(t.app)
    const bob = await quickMember(t.app)
    await publish(t.app, ann.token, `first #${w} #garden`)
    await publish(t.app, bob.token, `second #${w}`)
    await publish(t.app, ann.token, `third ${w} without the tag`)
    expect(texts(await search(ann, `#${w}`))).toEqual([`second #${w}`, `first #${w} #garden`])
    expect(texts(await search(ann, `#${w.toUpperCase()} #garden`))).toEqual([`first #${w} #garden`])
    expect(texts(await search(ann, `from:${bob.username} #${w}`))).toEqual([`second #${w}`])
    // A word finds hashtags too (the '#' is not part of the word).
    expect(texts(await search(ann, `from:@${ann.username.toUpperCase()} ${w}`)).sort()).toEqual([
      `first #${w} #garden`,
      `third ${w} without the tag`,
    ])
    expect(texts(await search(ann, `from:${ann.username} from:${bob.username} #${w}`))).toHaveLength(2)
  })

  it('ranks the newest 1,000 matches, and from: and #tag narrow those matches first', async () => {
    const w = nonce()
    const ann = await quickMember(t.app)
    const bob = await quickMember(t.app)
    await publish(t.app, ann.token, `old ${w} by ann #${w}x`)
    // 1,001 newer matches by someone else push Ann's post out of the newest 1,000.
    await t.app.services.db.execute(
      sql`insert into posts (id, author_id, content, created_at)
          select gen_random_uuid(), ${bob.id}, ${`${w} again `} || i, now() + i * interval '1 millisecond'
          from generate_series(1, 1001) i`,
    )
    const plain = await search(ann, w, '&limit=100')
    expect(plain.posts.map((p) => p.author.id)).not.toContain(ann.id)
    expect(texts(await search(ann, `from:${ann.username} ${w}`))).toEqual([`old ${w} by ann #${w}x`])
    expect(texts(await search(ann, `#${w}x ${w}`))).toEqual([`old ${w} by ann #${w}x`])
  })

  it('pages with a cursor, each post once', async () => {
    const w = nonce()
    const ann = await quickMember(t.app)
    for (let i = 0; i < 7; i += 1) await publish(t.app, ann.token, `${'word '.repeat(i % 3)}${w} ${i}`)
    const whole = texts(await search(ann, w, '&limit=50'))
    expect(whole).toHaveLength(7)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: PostsPage = await search(ann, w, `&limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...texts(page))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual(whole)
  })
})

describe('who sees what', () => {
  it('lists exactly what the feed could: visibility, private accounts, blocks, blocked keywords, mutes', async () => {
    const w = nonce()
    const [viewer, author, locked, blocked, blocker, muted] = (await Promise.all(
      Array.from({ length: 6 }, () => quickMember(t.app)),
    )) as [Member, Member, Member, Member, Member, Member]
    await follow(t.app, viewer, author)
    await publish(t.app, author.token, `public ${w}`)
    await publish(t.app, author.token, `followers ${w}`, { visibility: 'followers' })
    await publish(t.app, author.token, `spoilers ahead ${w}`)
    await publish(t.app, author.token, `sensitive ${w}`, { sensitive: 'true', sensitiveReason: 'Scary' })
    await api(t.app, 'PATCH', '/api/users/profile', { token: locked.token, body: { privateAccount: true } })
    await publish(t.app, locked.token, `locked ${w}`)
    await publish(t.app, blocked.token, `blocked ${w}`)
    await publish(t.app, blocker.token, `blocker ${w}`)
    await publish(t.app, muted.token, `muted ${w}`)
    await api(t.app, 'POST', `/api/blocks/user/${blocked.id}`, { token: viewer.token })
    await api(t.app, 'POST', `/api/blocks/user/${viewer.id}`, { token: blocker.token })
    await api(t.app, 'POST', '/api/blocks/keyword', { token: viewer.token, body: { keyword: 'spoilers' } })
    await api(t.app, 'POST', '/api/mutes/user', { token: viewer.token, body: { userId: muted.id } })

    const seen = await search(viewer, w)
    expect(texts(seen).sort()).toEqual([`followers ${w}`, `public ${w}`, `sensitive ${w}`])
    // A sensitive post keeps its notice.
    expect(seen.posts.find((p) => p.content === `sensitive ${w}`)).toMatchObject({ sensitive: true, sensitiveReason: 'Scary' })

    const stranger = await quickMember(t.app)
    expect(texts(await search(stranger, w)).sort()).toEqual(
      [`blocked ${w}`, `blocker ${w}`, `muted ${w}`, `public ${w}`, `sensitive ${w}`, `spoilers ahead ${w}`].sort(),
    )
  })
})

describe('bad input', () => {
  it('refuses an empty query, one of only blanks or quotes, and one over 200 characters', async () => {
    const ann = await quickMember(t.app)
    for (const q of ['   ', '""', ' - ']) {
      const res = await api(t.app, 'GET', `/api/posts/search?q=${encodeURIComponent(q)}`, { token: ann.token })
      expect({ q, status: res.statusCode, error: res.json<ErrorBody>().error }).toEqual({
        q,
        status: 400,
        error: 'Search query is required',
      })
    }
    for (const url of ['/api/posts/search', '/api/posts/search?q=', `/api/posts/search?q=${'a'.repeat(201)}`]) {
      expect((await api(t.app, 'GET', url, { token: ann.token })).statusCode).toBe(400)
    }
  })

  it('answers any text, however hostile, with results or none, never a server error', async () => {
    const ann = await quickMember(t.app)
    for (const q of ['"unclosed', "'; drop table posts; --", '!!! & | <-> :*', '((((', '#', 'from:', '\\', '%_%']) {
      const res = await api(t.app, 'GET', `/api/posts/search?q=${encodeURIComponent(q)}`, { token: ann.token })
      expect([200, 400], `${q}: ${res.body}`).toContain(res.statusCode)
    }
  })
})

describe('parseSearch', () => {
  it('splits filters from words, keeping quoted phrases whole', () => {
    expect(parseSearch('from:@Ann #Rust "from:bob #x" web -php')).toEqual({
      text: '"from:bob #x" web -php',
      from: ['ann'],
      tags: ['rust'],
    })
  })
})
