import { existsSync } from 'node:fs'
import type { LookupFunction } from 'node:net'
import path from 'node:path'
import sharp from 'sharp'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selectRows } from '../../server/db/rows'
import type { Schemas } from '../../server/http/handler-types'
import { DEFAULT_FETCH_POLICY, type FetchPolicy, FetchRefused, safeFetch } from '../../server/modules/link-previews/fetch'
import { MAX_PAGE_BYTES, readPagePreview, readPreviewImage } from '../../server/modules/link-previews/read-page'
import { PREVIEW_FAILURE_MS, PREVIEW_FRESH_MS, REPLACED_IMAGE_GRACE_MS } from '../../server/modules/link-previews/service'
import { normalizeLinkUrl } from '../../server/modules/link-previews/url'
import { feed, type Member, publish, quickMember } from './content-helpers'
import { api, useTestApp } from './harness'
import { HOSTILE_TITLE, type PageServer, startPageServer } from './link-preview-pages'

// Link previews: the server reads a post's first link after the post is created (a job), by rules that keep a link
// from reaching inside the server's network (server/modules/link-previews/fetch.ts). Pages come from a local server;
// loopback is let through only for that server's own origin, and only while `allowLoopback` is on: every refusal is
// proven with it off (or for another host), with DNS answered by the test.

/** What names resolve to here: public-looking names that lead to private addresses. */
const names: Record<string, string> = {
  localhost: '127.0.0.1',
  'loop.test': '127.0.0.1',
  'ten.test': '10.0.0.7',
  'metadata.test': '169.254.169.254',
  'six.test': '::1',
}

const testLookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  const address = names[hostname]
  if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }))
  const family = address.includes(':') ? 6 : 4
  if (options.all) callback(null, [{ address, family }])
  else callback(null, address, family)
}) as unknown as LookupFunction

let pages: PageServer
let allowLoopback = true
const TEST_TIMEOUT_MS = 1_500

/** The test server's own origin may use loopback (while allowed); every other host and address keeps every rule. */
const allowLoopbackFor = (url: URL) => allowLoopback && url.hostname === '127.0.0.1' && url.port === String(pages.port)
const allowed: FetchPolicy = { ...DEFAULT_FETCH_POLICY, timeoutMs: TEST_TIMEOUT_MS, lookup: testLookup, allowLoopbackFor }
const strict: FetchPolicy = { ...DEFAULT_FETCH_POLICY, timeoutMs: TEST_TIMEOUT_MS, lookup: testLookup }

let now = Date.now()
const clock = { now: () => now }
const t = useTestApp({ clock, caches: true, linkPreviewFetch: { lookup: testLookup, timeoutMs: TEST_TIMEOUT_MS, allowLoopbackFor } })
let ann: Member

beforeAll(async () => {
  pages = await startPageServer()
  ann = await quickMember(t.app, 'ann')
})
afterAll(async () => {
  await pages?.close()
})

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work
  } catch (err) {
    if (err instanceof FetchRefused) return err.reason
    throw err
  }
  throw new Error('expected the fetch to be refused')
}

const url = (p: string) => `${pages.origin}${p}`

/** Moves the app's clock on; a new session for ann, since hers would have expired meanwhile. */
async function advance(ms: number): Promise<void> {
  now += ms
  ann = { ...ann, token: await t.app.services.sessions.create(ann.id, { userAgent: 'tests' }) }
}

async function postOf(id: string): Promise<Schemas['Post']> {
  const res = await api(t.app, 'GET', `/api/posts/${id}`, { token: ann.token })
  expect(res.statusCode).toBe(200)
  return (res.json() as Schemas['PostDetailResponse']).post
}

async function firstFeedPost(): Promise<Schemas['Post'] | undefined> {
  return (await feed(t.app, ann.token)).posts[0]
}

const mediaFile = (imageUrl: string) => path.join(t.database.dataDir, 'media', ...imageUrl.replace(/^\/media\//, '').split('/'))

describe('the fetching rules', () => {
  it('are 3 redirects, 5 s in all, and a 1 MB page', () => {
    expect(DEFAULT_FETCH_POLICY).toEqual({ maxRedirects: 3, timeoutMs: 5_000 })
    expect(MAX_PAGE_BYTES).toBe(1024 * 1024)
  })

  it('read a page with the loopback allowance for the test server only', async () => {
    const page = await readPagePreview(url('/article'), allowed)
    expect(page.siteName).toBe('Bird News')
    expect(page.imageUrl).toBe(url('/image.png'))
  })

  it('refuse every scheme but http and https', async () => {
    for (const link of ['ftp://example.org/file', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,<title>x</title>', 'gopher://x']) {
      expect(await refusal(readPagePreview(link, allowed)), link).toBe('scheme')
    }
    expect(normalizeLinkUrl('ftp://example.org/')).toBeNull()
    expect(normalizeLinkUrl('https://user:pw@example.org/')).toBeNull()
  })

  it('refuse loopback, private, link-local and IPv6 loopback addresses, by address and by name', async () => {
    allowLoopback = false
    try {
      const port = pages.port
      for (const link of [
        `http://127.0.0.1:${port}/article`,
        `http://localhost:${port}/article`,
        `http://loop.test:${port}/article`,
        `http://10.0.0.7:${port}/article`,
        `http://ten.test:${port}/article`,
        'http://169.254.169.254/latest/meta-data/',
        'http://metadata.test/latest/meta-data/',
        `http://[::1]:${port}/article`,
        `http://six.test:${port}/article`,
        `http://[::ffff:127.0.0.1]:${port}/article`,
        `http://0.0.0.0:${port}/article`,
      ]) {
        expect(await refusal(readPagePreview(link, strict)), link).toBe('address')
      }
      expect(pages.hits('/article')).toBe(1)
    } finally {
      allowLoopback = true
    }
  })

  it('check every redirect: an allowed page sending the reader to a private address or another scheme is refused', async () => {
    expect(await refusal(readPagePreview(url('/to-metadata'), allowed))).toBe('address')
    expect(await refusal(readPagePreview(url('/to-ten'), allowed))).toBe('address')
    expect(await refusal(readPagePreview(url('/to-localhost'), allowed))).toBe('address')
    expect(await refusal(readPagePreview(url('/to-file'), allowed))).toBe('scheme')
  })

  it('follow at most 3 redirects', async () => {
    expect((await readPagePreview(url('/redirect/2'), allowed)).siteName).toBe('Bird News')
    expect(await refusal(readPagePreview(url('/redirect/3'), allowed))).toBe('redirects')
    const before = pages.hits('/loop')
    expect(await refusal(readPagePreview(url('/loop'), allowed))).toBe('redirects')
    expect(pages.hits('/loop') - before).toBe(4)
  })

  it('give up when the whole fetch takes longer than the deadline', async () => {
    const started = performance.now()
    expect(await refusal(readPagePreview(url('/slow'), allowed))).toBe('timeout')
    const took = performance.now() - started
    expect(took).toBeGreaterThanOrEqual(TEST_TIMEOUT_MS - 50)
    expect(took).toBeLessThan(TEST_TIMEOUT_MS + 1_500)
  })

  it('stop reading past 1 MB: a head longer than that is refused, a long body after a short head is not read', async () => {
    expect(await refusal(readPagePreview(url('/huge-head'), allowed))).toBe('too-large')
    const long = await readPagePreview(url('/long-body'), allowed)
    expect(long.title).toBe('Long page')
    // What the reader took in: the cap, not a byte more.
    const page = await safeFetch({ url: url('/huge-head'), accept: ['text/html'], maxBytes: MAX_PAGE_BYTES }, allowed)
    let received = 0
    expect(await page.read((chunk) => void (received += chunk.length))).toEqual({ bytes: MAX_PAGE_BYTES, capped: true })
    expect(received).toBe(MAX_PAGE_BYTES)
    // And the connection was dropped: the server could not send its 32 MB (the sockets' buffers take a few).
    for (const p of ['/huge-head', '/long-body']) {
      await expect.poll(() => pages.sent(p)).toBeGreaterThan(0)
      expect(pages.sent(p), p).toBeLessThan(16 * 1024 * 1024)
    }
  })

  it('read HTML only', async () => {
    expect(await refusal(readPagePreview(url('/json'), allowed))).toBe('content-type')
    expect(await refusal(readPagePreview(url('/plain'), allowed))).toBe('content-type')
    expect(await refusal(readPagePreview(url('/image.png'), allowed))).toBe('content-type')
    expect(await refusal(readPagePreview(url('/no-title'), allowed))).toBe('content-type')
    expect(await refusal(readPagePreview(url('/missing'), allowed))).toBe('status')
  })

  it('fall back to <title> and the meta description', async () => {
    expect(await readPagePreview(url('/fallback'), allowed)).toEqual({
      title: 'Only a title',
      description: 'Said plainly.',
      siteName: '127.0.0.1',
      imageUrl: null,
    })
  })

  it('read images by the same rules: image types only, bytes that are an image, and a size cap', async () => {
    expect((await readPreviewImage(url('/image.png'), allowed)).sniffed.format).toBe('png')
    expect(await refusal(readPreviewImage(url('/article'), allowed))).toBe('content-type')
    expect(await refusal(readPreviewImage(url('/html-as-image.png'), allowed))).toBe('content-type')
    expect(await refusal(readPreviewImage(url('/big-image.png'), allowed))).toBe('too-large')
    expect(await refusal(readPreviewImage('http://169.254.169.254/image.png', allowed))).toBe('address')
    expect(await refusal(safeFetch({ url: 'file:///etc/passwd', accept: ['image/png'], maxBytes: 10 }, allowed))).toBe('scheme')
  })
})

describe('a post with a link', () => {
  it('is created at once, and its card (cached or not) shows the preview once the job has read the page', async () => {
    const post = await publish(t.app, ann.token, `Look ${url('/article')}#comments and ${url('/fallback')}`)
    expect(post.linkPreview ?? null).toBeNull()
    // The card is cached now, without a preview: storing the preview must evict it.
    expect((await firstFeedPost())?.linkPreview ?? null).toBeNull()
    await t.app.services.jobs.drain()

    const card = (await firstFeedPost())?.linkPreview
    expect(card).toEqual({
      url: url('/article'),
      title: expect.any(String),
      description: expect.any(String),
      imageUrl: expect.stringMatching(/^\/media\/previews\/[0-9a-f]{2}\/[0-9a-f]{32}\.webp$/),
      siteName: 'Bird News',
    })
    // The page's own text, as text: hostile markup kept verbatim for the client to escape, bidi override dropped,
    // whitespace collapsed, lengths capped.
    expect(card?.title.startsWith('<img src=x onerror="alert(1)"> Title long long')).toBe(true)
    expect(card?.title).not.toContain('\u202e')
    expect([...(card?.title ?? '')].length).toBe(200)
    expect(card?.title.endsWith('…')).toBe(true)
    expect(card?.description?.startsWith('A page about & birds. More words.')).toBe(true)
    expect([...(card?.description ?? '')].length).toBeLessThanOrEqual(300)
    expect(HOSTILE_TITLE).toContain('<img')
    expect((await postOf(post.id)).linkPreview).toEqual(card)

    // The image was fetched, re-encoded (WebP, the card's 1.91:1 box) and is served like other media.
    const image = await sharp(mediaFile(card!.imageUrl!)).metadata()
    expect([image.format, image.width, image.height]).toEqual(['webp', 800, 418])
    const served = await api(t.app, 'GET', card!.imageUrl!)
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toContain('image/webp')
  })

  it('reuses a read of the same link (fragment aside) for a day, then reads it again and retires the old image', async () => {
    const before = pages.hits('/article')
    const again = await publish(t.app, ann.token, `Again: ${url('/article')}#top`)
    await t.app.services.jobs.drain()
    expect(pages.hits('/article')).toBe(before)
    const first = (await postOf(again.id)).linkPreview
    expect(first?.siteName).toBe('Bird News')

    await advance(PREVIEW_FRESH_MS + 1_000)
    const later = await publish(t.app, ann.token, `Later: ${url('/article')}`)
    await t.app.services.jobs.drain()
    expect(pages.hits('/article')).toBe(before + 1)
    const second = (await postOf(later.id)).linkPreview
    expect(second?.imageUrl).not.toBe(first?.imageUrl)
    // The replaced image stays while cached cards may still show it, then goes.
    expect(existsSync(mediaFile(first!.imageUrl!))).toBe(true)
    await advance(REPLACED_IMAGE_GRACE_MS + 1_000)
    await t.app.services.jobs.drain()
    expect(existsSync(mediaFile(first!.imageUrl!))).toBe(false)
    expect(existsSync(mediaFile(second!.imageUrl!))).toBe(true)
  })

  it('remembers a failed read for a while instead of fetching a bad link on every post', async () => {
    const bad = await publish(t.app, ann.token, `Broken ${url('/missing-page')}`)
    await t.app.services.jobs.drain()
    expect(pages.hits('/missing-page')).toBe(1)
    expect((await postOf(bad.id)).linkPreview ?? null).toBeNull()
    await publish(t.app, ann.token, `Broken again ${url('/missing-page')}`)
    await t.app.services.jobs.drain()
    expect(pages.hits('/missing-page')).toBe(1)
    await advance(PREVIEW_FAILURE_MS + 1_000)
    await publish(t.app, ann.token, `Broken later ${url('/missing-page')}`)
    await t.app.services.jobs.drain()
    expect(pages.hits('/missing-page')).toBe(2)
  })

  it('gets no preview of a loopback page without the test allowance, and the server is never reached', async () => {
    allowLoopback = false
    try {
      const post = await publish(t.app, ann.token, `Inside ${url('/article-again')}`)
      await t.app.services.jobs.drain()
      expect(pages.hits('/article-again')).toBe(0)
      expect((await postOf(post.id)).linkPreview ?? null).toBeNull()
      const [row] = await selectRows<{ failed: boolean }>(
        t.app.services.db,
        sql`select failed_at is not null and fetched_at is null as failed from link_previews where url = ${url('/article-again')}`,
      )
      expect(row?.failed).toBe(true)
    } finally {
      allowLoopback = true
    }
  })

  it('queues nothing for a post without an http(s) link', async () => {
    await publish(t.app, ann.token, 'No link here, ftp://example.org/x is not one')
    const [row] = await selectRows<{ n: number }>(t.app.services.db, sql`select count(*)::int as n from jobs where kind = 'link-preview'`)
    expect(row?.n).toBe(0)
  })
})
