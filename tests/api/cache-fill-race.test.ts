import { describe, expect, it } from 'vitest'
import { Lru } from '../../server/cache/lru'
import { OwnedPages } from '../../server/cache/owned-pages'
import { SessionCache } from '../../server/modules/auth/session-cache'
import type { UserRow } from '../../server/db/schema'
import { TimelineCache } from '../../server/modules/posts/cache/timelines'

// The fill race (server/cache/versions.ts): a value loaded before a change must not be stored after it, and a
// change must refuse only the fills it concerns, so a stream of unrelated writes does not keep the caches empty.

const lru = () => new Lru<string, string>({ maxEntries: 10, ttlMs: 60_000 })

describe('Lru fills', () => {
  it('refuses a fill whose key was invalidated while it loaded, even when nothing was cached yet', () => {
    const cache = lru()
    const before = cache.generation
    cache.invalidate('a')
    expect(cache.setIfFresh('a', 'old', before)).toBe(false)
    expect(cache.get('a')).toBeUndefined()
    expect(cache.setIfFresh('a', 'new', cache.generation)).toBe(true)
    expect(cache.get('a')).toBe('new')
  })

  it("stores a fill when only other keys were invalidated meanwhile", () => {
    const cache = lru()
    const before = cache.generation
    for (let i = 0; i < 50; i += 1) cache.invalidate(`other${i}`)
    expect(cache.setIfFresh('a', 'value', before)).toBe(true)
  })

  it('refuses every fill in flight after a clear or an invalidateWhere', () => {
    const cache = lru()
    let before = cache.generation
    cache.clear()
    expect(cache.setIfFresh('a', 'x', before)).toBe(false)
    before = cache.generation
    cache.invalidateWhere(() => false)
    expect(cache.setIfFresh('a', 'x', before)).toBe(false)
  })
})

describe('TimelineCache fills', () => {
  const timeline = (sources: string[]) => ({ keys: [], sources })

  it("refuses a follower's fill when one of its sources posted while it loaded (not indexed yet)", () => {
    const cache = new TimelineCache(true)
    const before = cache.generation
    cache.sourceChanged('author')
    cache.storeIfFresh('follower', timeline(['follower', 'author']), before)
    expect(cache.get('follower')).toBeUndefined()
  })

  it("stores it when the post was by someone the follower does not follow", () => {
    const cache = new TimelineCache(true)
    const before = cache.generation
    cache.sourceChanged('stranger')
    cache.evictMember('someone else')
    cache.storeIfFresh('follower', timeline(['follower', 'author']), before)
    expect(cache.get('follower')?.value.sources).toEqual(['follower', 'author'])
  })

  it("refuses it when the follower's own follows changed", () => {
    const cache = new TimelineCache(true)
    const before = cache.generation
    cache.evictMember('follower')
    cache.storeIfFresh('follower', timeline(['follower', 'author']), before)
    expect(cache.get('follower')).toBeUndefined()
  })
})

describe('OwnedPages fills', () => {
  const pages = () =>
    new OwnedPages<{ actors: string[] }>({ enabled: true, maxEntries: 10, ttlMs: 60_000, refreshMs: 60_000, tagsOf: (p) => p.actors })

  /** Starts a load that waits for `release`, so a drop can happen while it is in flight. */
  function slow(value: { actors: string[] }) {
    let release = () => undefined as void
    const started = new Promise<void>((resolve) => (release = resolve))
    return { load: async () => (await started, value), release: () => release() }
  }

  it("does not keep a page loaded across a drop of its owner or of someone it shows", async () => {
    for (const drop of [(c: OwnedPages<{ actors: string[] }>) => c.dropOwner('ann'), (c: OwnedPages<{ actors: string[] }>) => c.dropTag('bob')]) {
      const cache = pages()
      const first = slow({ actors: ['bob'] })
      const loading = cache.get('ann', 'all', first.load)
      drop(cache)
      first.release()
      await loading
      let loads = 0
      await cache.get('ann', 'all', async () => ((loads += 1), { actors: [] }))
      expect(loads).toBe(1)
    }
  })

  it('keeps it across a drop of another owner', async () => {
    const cache = pages()
    const first = slow({ actors: ['bob'] })
    const loading = cache.get('ann', 'all', first.load)
    cache.dropOwner('cal')
    cache.dropTag('dan')
    first.release()
    await loading
    let loads = 0
    expect(await cache.get('ann', 'all', async () => ((loads += 1), { actors: [] }))).toEqual({ actors: ['bob'] })
    expect(loads).toBe(0)
  })
})

describe('SessionCache fills', () => {
  const session = (userId: string) => ({
    sessionId: 's1',
    user: { id: userId } as UserRow,
    lastSeenAt: new Date(0),
    expiresAt: Number.MAX_SAFE_INTEGER,
    idleMs: Number.MAX_SAFE_INTEGER,
  })

  it("refuses a session loaded across a change of its member's row, and only then", () => {
    const cache = new SessionCache(true)
    let before = cache.generation
    cache.dropMember('ann')
    cache.setIfFresh('hash-a', session('ann'), before)
    expect(cache.get('hash-a')).toBeUndefined()
    before = cache.generation
    cache.dropMember('bob')
    cache.setIfFresh('hash-a', session('ann'), before)
    expect(cache.get('hash-a')?.value.user.id).toBe('ann')
    cache.dropMember('ann')
    expect(cache.get('hash-a')).toBeUndefined()
  })
})
