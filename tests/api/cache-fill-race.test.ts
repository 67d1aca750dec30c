import { describe, expect, it } from 'vitest'
import { Lru } from '../../server/cache/lru'
import { OwnedPages } from '../../server/cache/owned-pages'
import { SessionCache } from '../../server/modules/auth/session-cache'
import type { UserRow } from '../../server/db/schema'
import { TIMELINE_ITEMS, TimelineCache, TOP_OVERLAP_MICROS } from '../../server/modules/posts/cache/timelines'

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

  it('replaces a held value keeping its age, and only the value it was told', () => {
    let now = 0
    const cache = new Lru<string, string>({ maxEntries: 10, ttlMs: 100, refreshMs: 50, now: () => now })
    cache.setIfFresh('a', 'one', cache.generation)
    now = 60
    expect(cache.replace('a', 'other', 'two')).toBe(false)
    expect(cache.replace('a', 'one', 'two')).toBe(true)
    expect(cache.lookup('a')).toEqual({ value: 'two', stale: true })
    now = 100
    expect(cache.get('a')).toBeUndefined()
    expect(cache.replace('a', 'two', 'three')).toBe(false)
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

describe('TimelineCache tops read again', () => {
  const key = (post_id: string, at: number) => ({ post_id, at: String(at), reposted_by: null })
  const timeline = (sources: string[], keys = [key('p1', 10_000_000)]) => ({ keys, sources })

  it("keeps a follower's timeline when a source adds an item, marked to read its top again", () => {
    const cache = new TimelineCache(true)
    cache.storeIfFresh('follower', timeline(['follower', 'author']), cache.generation)
    cache.storeIfFresh('stranger', timeline(['stranger']), cache.generation)
    cache.sourceAdded('author')
    expect(cache.get('follower')?.value.topStale).toBe(true)
    expect(cache.get('stranger')?.value.topStale).toBeFalsy()
  })

  it('stores a fill across an added item, marked; refuses it across any other change of a source', () => {
    const cache = new TimelineCache(true)
    let before = cache.generation
    cache.sourceAdded('author')
    cache.storeIfFresh('follower', timeline(['follower', 'author']), before)
    expect(cache.get('follower')?.value.topStale).toBe(true)
    before = cache.generation
    cache.sourceChanged('stranger')
    cache.storeIfFresh('other', timeline(['other', 'author']), before)
    expect(cache.get('other')?.value.topStale).toBeFalsy()
    before = cache.generation
    cache.sourceChanged('author')
    cache.storeIfFresh('third', timeline(['third', 'author']), before)
    expect(cache.get('third')).toBeUndefined()
  })

  it('replaces a stale top unless the timeline was dropped, or something but an added item changed meanwhile', () => {
    const drops: Array<(c: TimelineCache) => void> = [
      (c) => c.evictMember('follower'),
      (c) => c.sourceChanged('author'),
      (c) => c.postsDeleted(['elsewhere']),
      (c) => c.clear(),
    ]
    for (const drop of drops) {
      const cache = new TimelineCache(true)
      cache.storeIfFresh('follower', timeline(['follower', 'author']), cache.generation)
      cache.sourceAdded('author')
      const base = cache.get('follower')?.value
      if (!base) throw new Error('not cached')
      const before = cache.generation
      drop(cache)
      cache.storeRefreshed('follower', base, [key('p2', 20_000_000), ...base.keys], before)
      expect(cache.get('follower')?.value.keys.map((k) => k.post_id) ?? []).not.toContain('p2')
    }
    const cache = new TimelineCache(true)
    cache.storeIfFresh('follower', timeline(['follower', 'author']), cache.generation)
    cache.sourceAdded('author')
    const base = cache.get('follower')?.value
    if (!base) throw new Error('not cached')
    let before = cache.generation
    cache.evictMember('someone else')
    cache.storeRefreshed('follower', base, [key('p2', 20_000_000), ...base.keys], before)
    expect(cache.get('follower')?.value.topStale).toBeFalsy()
    expect(cache.get('follower')?.value.keys.map((k) => k.post_id)).toEqual(['p2', 'p1'])
    // Another item added while the top was read: stored, still marked; and the new entry is the indexed one.
    const next = cache.get('follower')?.value
    if (!next) throw new Error('not cached')
    next.topStale = true
    before = cache.generation
    cache.sourceAdded('author')
    cache.storeRefreshed('follower', next, [key('p3', 30_000_000), ...next.keys], before)
    expect(cache.get('follower')?.value.topStale).toBe(true)
    cache.sourceChanged('author')
    expect(cache.get('follower')).toBeUndefined()
  })

  it('reads again from the overlap below the top, and merges what it read above the kept keys', () => {
    expect(TimelineCache.refreshFrom([])).toBeUndefined()
    expect(TimelineCache.refreshFrom([key('top', 10_000_000), key('next', 9_000_000)])).toBe(String(10_000_000 - Number(TOP_OVERLAP_MICROS)))
    const keys = [key('a', 9_000_000), key('b', 6_000_000), key('c', 4_000_000), key('d', 1_000_000)]
    // From 5 s: a and b are replaced by what was read (b moved up, a new one between), c and d are kept.
    const fresh = [key('new', 9_500_000), key('a', 9_000_000), key('late', 7_000_000), key('b', 5_500_000)]
    expect(TimelineCache.withTop(keys, fresh, '5000000')?.map((k) => k.post_id)).toEqual(['new', 'a', 'late', 'b', 'c', 'd'])
    // A key read again that also sits below the bound is listed once, where it now is.
    expect(TimelineCache.withTop(keys, [key('c', 8_000_000)], '5000000')?.map((k) => k.post_id)).toEqual(['c', 'd'])
    expect(TimelineCache.withTop(keys, fresh, undefined)).toEqual(fresh)
    // A full timeline that would come out shorter is not trusted (shorter means "the whole feed").
    const full = Array.from({ length: TIMELINE_ITEMS }, (_, i) => key(`k${i}`, 100_000_000 - i))
    expect(TimelineCache.withTop(full, full.slice(1, 10), '99999990')).toBeUndefined()
    expect(TimelineCache.withTop(full, [key('n', 200_000_000), ...full.slice(0, 10)], '99999990')).toHaveLength(TIMELINE_ITEMS)
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
