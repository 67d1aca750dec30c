import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { type Member, publish, quickMember } from './content-helpers'
import { api, useTestApp } from './harness'

// A search asked again soon after: the app reuses which posts matched (server/modules/posts/search-results.ts), yet
// every answer must be what a fresh search would say. Runs with the caches on and off (tests/run.mjs): the same
// expectations hold for both paths.

const t = useTestApp()

type PostsPage = Schemas['PostsPage']

const nonce = () => `zc${randomBytes(4).toString('hex')}`

async function search(who: Member, q: string, extra = ''): Promise<PostsPage> {
  const res = await api(t.app, 'GET', `/api/posts/search?q=${encodeURIComponent(q)}${extra}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

const texts = (page: PostsPage) => page.posts.map((p) => p.content)

describe('a search asked again', () => {
  it('finds a post made since at once, and no longer shows one deleted or behind a new block or mute', async () => {
    const w = nonce()
    const [ann, bob, cat, dan] = [await quickMember(t.app), await quickMember(t.app), await quickMember(t.app), await quickMember(t.app)]
    const first = await publish(t.app, bob.token, `first ${w}`)
    await publish(t.app, cat.token, `second ${w}`)
    expect(texts(await search(ann, w)).sort()).toEqual([`first ${w}`, `second ${w}`])

    await publish(t.app, dan.token, `third ${w}`)
    expect(texts(await search(ann, w)).sort()).toEqual([`first ${w}`, `second ${w}`, `third ${w}`])

    expect((await api(t.app, 'DELETE', `/api/posts/${first.id}`, { token: bob.token })).statusCode).toBe(204)
    await api(t.app, 'POST', `/api/blocks/user/${ann.id}`, { token: cat.token })
    await api(t.app, 'POST', '/api/mutes/user', { token: ann.token, body: { userId: dan.id } })
    expect(texts(await search(ann, w))).toEqual([])
    // Someone else still finds what only Ann may not see.
    expect(texts(await search(bob, w)).sort()).toEqual([`second ${w}`, `third ${w}`])
  })

  it('a tag with more than the 1,000 newest posts pages to its very first post, each once, newest first', async () => {
    const tag = nonce()
    const ann = await quickMember(t.app)
    const bob = await quickMember(t.app)
    // 1,031 posts in one statement (the tag rows as the posts module writes them), the very first two hours old.
    await t.app.services.db.execute(
      sql`with made as (
            insert into posts (id, author_id, content, created_at)
            select gen_random_uuid(), ${bob.id},
              case when i = 0 then ${`the very first #${tag}`} else ${`#${tag} number `} || i end,
              case when i = 0 then now() - interval '2 hours' else now() - interval '1 hour' + i * interval '1 millisecond' end
            from generate_series(0, 1030) i returning id)
          insert into post_hashtags (post_id, tag) select id, ${tag} from made`,
    )
    await search(ann, `#${tag}`) // read once, so the next pages come from the cached candidates where they can
    const seen: PostsPage['posts'] = []
    let cursor: string | null = null
    do {
      const page: PostsPage = await search(ann, `#${tag}`, `&limit=100${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.posts)
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toHaveLength(1031)
    expect(new Set(seen.map((p) => p.id)).size).toBe(1031)
    expect(seen.at(-1)?.content).toBe(`the very first #${tag}`)
    const times = seen.map((p) => Date.parse(p.createdAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })

  it('pages of a word search are the same whether each page is asked once or twice', async () => {
    const w = nonce()
    const ann = await quickMember(t.app)
    for (let i = 0; i < 9; i += 1) await publish(t.app, ann.token, `${'word '.repeat(i % 4)}${w} ${i}`)
    const whole = texts(await search(ann, w, '&limit=50'))
    expect(whole).toHaveLength(9)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const extra = `&limit=2${cursor ? `&cursor=${cursor}` : ''}`
      const page: PostsPage = await search(ann, w, extra)
      expect(texts(await search(ann, w, extra))).toEqual(texts(page))
      seen.push(...texts(page))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual(whole)
  })
})
