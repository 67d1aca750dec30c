import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test'
import type { SeededMember } from './browser-seed'

/**
 * What the browser bench measures in one page of Chromium (bench/browser.ts runs them):
 *
 * - `loadHome`: a cold load of the home feed (fresh context, empty cache) for a signed-in member, with the JS files
 *   the page requested (CDP Network events) and the page's largest-contentful-paint;
 * - `scrollFeed`: scrolling the home feed until `target` posts have been loaded (counted from the feed API's
 *   answers), sampling the number of DOM elements and collecting long tasks;
 * - `likeLatency`: clicks on a card's like button (like, unlike, ...) timed by the Event Timing API.
 *
 * The observers are installed by an init script before any of the app's code runs.
 */

export interface Profile {
  name: 'unthrottled' | 'mid-phone'
  viewport: { width: number; height: number }
  deviceScaleFactor: number
  isMobile: boolean
  /** CDP Emulation.setCPUThrottlingRate; 1 = none. */
  cpuSlowdown: number
  /** CDP Network.emulateNetworkConditions, or none. */
  network: { latencyMs: number; downloadKbps: number; uploadKbps: number } | null
}

export const PROFILES: Record<Profile['name'], Profile> = {
  unthrottled: {
    name: 'unthrottled',
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    isMobile: false,
    cpuSlowdown: 1,
    network: null,
  },
  // Lighthouse's mobile profile: a Moto G Power sized screen, 4x CPU slowdown, "Slow 4G" (1.6 Mbps down, 750 Kbps up,
  // 150 ms RTT), applied by DevTools throttling.
  'mid-phone': {
    name: 'mid-phone',
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    cpuSlowdown: 4,
    network: { latencyMs: 150, downloadKbps: 1638.4, uploadKbps: 750 },
  },
}

const OBSERVERS = `
(() => {
  const bench = { lcp: [], longtasks: [], events: [], maxNodes: 0, firstCardAt: null };
  window.__bench = bench;
  // When the first post card enters the DOM, on the page's clock (scripts requested after it are not first-load).
  const cards = new MutationObserver(() => {
    if (bench.firstCardAt === null && document.querySelector('[role=feed] article')) {
      bench.firstCardAt = performance.now();
      cards.disconnect();
    }
  });
  cards.observe(document, { childList: true, subtree: true });
  const observe = (type, options, each) => {
    try {
      new PerformanceObserver((list) => { for (const entry of list.getEntries()) each(entry) }).observe({ type, buffered: true, ...options });
    } catch {}
  };
  observe('largest-contentful-paint', {}, (e) => bench.lcp.push({
    startTime: e.startTime, size: e.size, tag: e.element ? e.element.tagName : null,
    text: e.element ? (e.element.textContent || '').slice(0, 60) : null, url: e.url || null,
  }));
  observe('longtask', {}, (e) => bench.longtasks.push({ startTime: e.startTime, duration: e.duration }));
  observe('event', { durationThreshold: 16 }, (e) => bench.events.push({
    name: e.name, startTime: e.startTime, duration: e.duration, interactionId: e.interactionId || 0,
    processing: e.processingEnd - e.processingStart, inputDelay: e.processingStart - e.startTime,
  }));
})();
`

export interface SignedInPage {
  context: BrowserContext
  page: Page
  cdp: CDPSession
}

/** A fresh context (empty cache) signed in as `member` the way the SPA stores a session, throttled per `profile`. */
export async function openSignedIn(browser: Browser, profile: Profile, member: SeededMember): Promise<SignedInPage> {
  const context = await browser.newContext({
    viewport: profile.viewport,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.isMobile,
    hasTouch: profile.isMobile,
  })
  const session = JSON.stringify({ user: member.user, token: member.token, privateKey: null, isAuthenticated: true })
  // src/machines/session/session.storage.ts (`auth-storage`), and a returning member: the welcome tour done and the
  // new-features banner dismissed (src/machines/lib/local-flags.ts).
  await context.addInitScript((value: string) => {
    localStorage.setItem('auth-storage', value)
    localStorage.setItem('welcome-tour-completed', 'true')
    localStorage.setItem('feature-banner-dismissed', 'true')
  }, session)
  await context.addInitScript(OBSERVERS)
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  if (profile.cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown })
  if (profile.network) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.network.latencyMs,
      downloadThroughput: (profile.network.downloadKbps * 1024) / 8,
      uploadThroughput: (profile.network.uploadKbps * 1024) / 8,
    })
  }
  return { context, page, cdp }
}

export interface ScriptFile {
  file: string
  /** Bytes on the wire (CDP Network.loadingFinished encodedDataLength: body as sent + headers). */
  transferBytes: number
  /** The built file's size, and its gzip size (node zlib, level 9, as Vite's build report computes it). */
  rawBytes: number
  gzipBytes: number
  /** Requested after the feed's first post card was in the DOM (deferred or idle-time loads), not first-load. */
  afterFeed: boolean
  /** When it was requested, ms after navigation start (Resource Timing). */
  requestedAtMs: number
}

/** Collects every script response of the page from CDP, with its bytes on the wire. */
function trackScripts(cdp: CDPSession) {
  const requests = new Map<string, { url: string; script: boolean }>()
  const finished: Array<{ url: string; encoded: number }> = []
  cdp.on('Network.requestWillBeSent', (e) => {
    requests.set(e.requestId, { url: e.request.url, script: e.type === 'Script' })
  })
  cdp.on('Network.responseReceived', (e) => {
    const request = requests.get(e.requestId)
    if (request && (e.type === 'Script' || e.response.mimeType.includes('javascript'))) request.script = true
  })
  cdp.on('Network.loadingFinished', (e) => {
    const request = requests.get(e.requestId)
    if (request?.script) finished.push({ url: request.url, encoded: e.encodedDataLength })
  })
  return finished
}

export interface HomeLoad {
  /** Largest contentful paint in ms after navigation start, and what it was. */
  lcpMs: number
  lcpElement: string
  /** When the first post card was in the DOM, ms after navigation start (from the page's clock). */
  firstPostMs: number
  ttfbMs: number
  domContentLoadedMs: number
  scripts: ScriptFile[]
  /** Every request of the load (Resource Timing), ms after navigation start: the waterfall. */
  requests: Array<{ path: string; initiator: string; startMs: number; endMs: number }>
  /** The main thread's long tasks until measuring ended, and the longest. */
  longTasks: Array<{ startTime: number; duration: number }>
  longTaskMaxMs: number
}

const FEED_CARD = '[role=feed] article'

export async function loadHome(
  browser: Browser,
  profile: Profile,
  member: SeededMember,
  baseUrl: string,
  distDir: string,
): Promise<HomeLoad> {
  const { context, page, cdp } = await openSignedIn(browser, profile, member)
  try {
    const scripts = trackScripts(cdp)
    await page.goto(`${baseUrl}/`, { waitUntil: 'domcontentloaded', timeout: 60_000 })
    await page.waitForSelector(FEED_CARD, { timeout: 60_000 })
    const firstPostMs = await page.evaluate(() => performance.now())
    // LCP settles once the feed's first cards have painted; give late images and fonts time to count.
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined)
    await page.waitForTimeout(profile.network ? 2_000 : 800)
    const measured = await page.evaluate(() => {
      const bench = (
        window as unknown as {
          __bench: {
            lcp: Array<{ startTime: number; tag: string | null; text: string | null; size: number }>
            firstCardAt: number | null
            longtasks: Array<{ startTime: number; duration: number }>
          }
        }
      ).__bench
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
      return {
        lcp: bench.lcp.at(-1) ?? null,
        firstCardAt: bench.firstCardAt,
        resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
          name: r.name,
          startTime: r.startTime,
          responseEnd: r.responseEnd,
          initiator: r.initiatorType,
        })),
        longtasks: bench.longtasks,
        ttfb: nav ? nav.responseStart : 0,
        dcl: nav ? nav.domContentLoadedEventEnd : 0,
      }
    })
    const requestedAt = new Map(measured.resources.map((r) => [r.name, r.startTime]))
    const files: ScriptFile[] = []
    for (const s of scripts) {
      const pathname = new URL(s.url).pathname
      let raw = Buffer.alloc(0)
      try {
        raw = await readFile(path.join(distDir, pathname))
      } catch {
        // not a built file (none expected)
      }
      files.push({
        file: pathname,
        transferBytes: s.encoded,
        rawBytes: raw.length,
        gzipBytes: raw.length > 0 ? gzipSync(raw, { level: 9 }).length : 0,
        afterFeed: (requestedAt.get(s.url) ?? 0) > (measured.firstCardAt ?? firstPostMs),
        requestedAtMs: round(requestedAt.get(s.url) ?? 0, 0),
      })
    }
    return {
      lcpMs: measured.lcp?.startTime ?? Number.NaN,
      lcpElement: measured.lcp ? `${measured.lcp.tag ?? '?'} "${(measured.lcp.text ?? '').trim().slice(0, 40)}"` : 'none',
      firstPostMs: measured.firstCardAt ?? firstPostMs,
      ttfbMs: measured.ttfb,
      domContentLoadedMs: measured.dcl,
      scripts: files,
      requests: measured.resources
        .map((r) => ({ path: new URL(r.name).pathname, initiator: r.initiator, startMs: round(r.startTime, 0), endMs: round(r.responseEnd, 0) }))
        .sort((a, b) => a.startMs - b.startMs),
      longTasks: measured.longtasks.map((t) => ({ startTime: round(t.startTime, 0), duration: round(t.duration, 0) })),
      longTaskMaxMs: Math.max(0, ...measured.longtasks.map((t) => t.duration)),
    }
  } finally {
    await context.close()
  }
}

export interface ScrollResult {
  postsLoaded: number
  feedPages: number
  steps: number
  seconds: number
  maxDomNodes: number
  /** DOM elements with the first page only, for scale. */
  domNodesAtStart: number
  maxRenderedCards: number
  longTasks: number
  longTaskMaxMs: number
  longTasksOver50: number
  /** The five longest, ms. */
  longestTasks: number[]
  reachedEnd: boolean
}

/** Scrolls the home feed down, `step` viewports at a time (two frames each), until `target` posts have been loaded. */
export async function scrollFeed(
  browser: Browser,
  profile: Profile,
  member: SeededMember,
  baseUrl: string,
  target: number,
  timeoutMs: number,
  /** Each step scrolls this many viewport heights. */
  step: number,
): Promise<ScrollResult> {
  const { context, page } = await openSignedIn(browser, profile, member)
  try {
    let postsLoaded = 0
    let feedPages = 0
    let reachedEnd = false
    page.on('response', (res) => {
      if (!res.url().includes('/api/posts/feed') || res.request().method() !== 'GET') return
      res
        .json()
        .then((body: { posts?: unknown[]; nextCursor?: string | null }) => {
          feedPages += 1
          postsLoaded += body.posts?.length ?? 0
          if (body.nextCursor === null) reachedEnd = true
        })
        .catch(() => undefined)
    })
    await page.goto(`${baseUrl}/`, { waitUntil: 'domcontentloaded', timeout: 60_000 })
    await page.waitForSelector(FEED_CARD, { timeout: 60_000 })
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined)
    await page.waitForTimeout(500)
    const domNodesAtStart = await page.evaluate(() => document.getElementsByTagName('*').length)
    // From here on: long tasks and DOM size of the scroll only (the cold load is measured by loadHome).
    await page.evaluate(() => {
      const w = window as unknown as { __bench: { longtasks: unknown[]; maxNodes: number; maxCards: number; sampler: number } }
      w.__bench.longtasks = []
      w.__bench.maxNodes = document.getElementsByTagName('*').length
      w.__bench.maxCards = 0
      // Sampled between steps too, so a short-lived spike (a page of rows before virtualization trims) is seen.
      w.__bench.sampler = window.setInterval(() => {
        w.__bench.maxNodes = Math.max(w.__bench.maxNodes, document.getElementsByTagName('*').length)
        w.__bench.maxCards = Math.max(w.__bench.maxCards, document.querySelectorAll('[role=feed] article').length)
      }, 50)
    })
    const started = Date.now()
    let steps = 0
    let stalledSince = Date.now()
    let lastLoaded = postsLoaded
    while (Date.now() - started < timeoutMs) {
      const state = await page.evaluate(async (viewports) => {
        window.scrollBy(0, Math.round(window.innerHeight * viewports))
        // Two frames: the scroll handler's frame, then React's commit of the new window of rows.
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
        const w = window as unknown as { __bench: { maxNodes: number; maxCards: number } }
        w.__bench.maxNodes = Math.max(w.__bench.maxNodes, document.getElementsByTagName('*').length)
        w.__bench.maxCards = Math.max(w.__bench.maxCards, document.querySelectorAll('[role=feed] article').length)
        const atBottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 4
        return { atBottom }
      }, step)
      steps += 1
      if (postsLoaded !== lastLoaded) {
        lastLoaded = postsLoaded
        stalledSince = Date.now()
      }
      if (postsLoaded >= target && state.atBottom) break
      if (reachedEnd && state.atBottom) break
      if (state.atBottom) {
        // Waiting for the next page (the list asks for it a few rows from the end).
        if (Date.now() - stalledSince > 20_000) throw new Error(`the feed stopped loading at ${postsLoaded} posts`)
        await page.waitForTimeout(50)
      }
    }
    await page.waitForTimeout(300)
    const seconds = (Date.now() - started) / 1000
    const collected = await page.evaluate(() => {
      const w = window as unknown as {
        __bench: { longtasks: Array<{ duration: number }>; maxNodes: number; maxCards: number; sampler: number }
      }
      clearInterval(w.__bench.sampler)
      return { longtasks: w.__bench.longtasks.map((t) => t.duration), maxNodes: w.__bench.maxNodes, maxCards: w.__bench.maxCards }
    })
    const sorted = [...collected.longtasks].sort((a, b) => b - a)
    return {
      postsLoaded,
      feedPages,
      steps,
      seconds,
      maxDomNodes: collected.maxNodes,
      domNodesAtStart,
      maxRenderedCards: collected.maxCards,
      longTasks: sorted.length,
      longTaskMaxMs: sorted[0] ?? 0,
      longTasksOver50: sorted.filter((d) => d > 50).length,
      longestTasks: sorted.slice(0, 5).map((d) => Math.round(d)),
      reachedEnd,
    }
  } finally {
    await context.close()
  }
}

export interface LikeResult {
  clicks: number
  /** Interactions the Event Timing API reported (those of 16 ms or more; shorter ones are not reported). */
  interactionsObserved: number
  /** Per interaction: the longest event of it (pointerdown, pointerup, click), ms, in click order. */
  durations: number[]
  inpMs: number
  p98Ms: number
  maxMs: number
  /** The slowest interaction's parts. */
  worst: { inputDelayMs: number; processingMs: number } | null
}

/**
 * Clicks the like button of the first card `clicks` times (like, unlike, like, ...), each after the previous toggle
 * has settled, and takes each interaction's latency from the Event Timing API (`event` entries of 16 ms or more, grouped
 * by interactionId). INP is the p98 of interactions, which for fewer than 50 is the worst one.
 */
export async function likeLatency(
  browser: Browser,
  profile: Profile,
  member: SeededMember,
  baseUrl: string,
  clicks: number,
): Promise<LikeResult> {
  const { context, page } = await openSignedIn(browser, profile, member)
  try {
    await page.goto(`${baseUrl}/`, { waitUntil: 'domcontentloaded', timeout: 60_000 })
    await page.waitForSelector(FEED_CARD, { timeout: 60_000 })
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined)
    await page.waitForTimeout(1_000)
    await page.evaluate(() => {
      ;(window as unknown as { __bench: { events: unknown[] } }).__bench.events = []
    })
    // The like button's name is its words and count ('Like, 3 likes', 'Unlike, 1 like': PostActions.tsx).
    const button = page.locator(FEED_CARD).first().getByRole('button', { name: /^(Like|Unlike),/ })
    for (let i = 0; i < clicks; i += 1) {
      const before = await button.getAttribute('aria-pressed', { timeout: 15_000 })
      // The next click must wait for this one's answer: while a like is on its way the post ignores another toggle
      // (src/machines/posts canReact), so clicking again too soon times the click of a button that does nothing.
      const answered = page.waitForResponse((r) => /\/api\/posts\/[^/]+\/like$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST', {
        timeout: 30_000,
      })
      await button.click({ timeout: 15_000 })
      await page.waitForFunction(
        ([selector, previous]) => {
          const card = document.querySelector(selector ?? '')
          const like = [...(card?.querySelectorAll('button[aria-pressed]') ?? [])].find((b) =>
            /^(Like|Unlike),/.test(b.getAttribute('aria-label') ?? ''),
          )
          return like?.getAttribute('aria-pressed') !== previous
        },
        [FEED_CARD, before] as const,
        { timeout: 15_000 },
      )
      await answered
      // Let the card settle (the answer's count) before the next click.
      await page.waitForTimeout(250)
    }
    await page.waitForTimeout(500)
    const events = await page.evaluate(
      () =>
        (
          window as unknown as {
            __bench: { events: Array<{ name: string; duration: number; interactionId: number; processing: number; inputDelay: number }> }
          }
        ).__bench.events,
    )
    const byInteraction = new Map<number, { duration: number; processing: number; inputDelay: number }>()
    for (const e of events) {
      if (!e.interactionId) continue
      const current = byInteraction.get(e.interactionId)
      if (!current || e.duration > current.duration) {
        byInteraction.set(e.interactionId, { duration: e.duration, processing: e.processing, inputDelay: e.inputDelay })
      }
    }
    const durations = [...byInteraction.values()].map((v) => v.duration)
    const sorted = [...durations].sort((a, b) => a - b)
    // INP: ignore one highest interaction per 50 (web-vitals); under 50 interactions, the worst.
    const skip = Math.floor(clicks / 50)
    const inp = sorted[sorted.length - 1 - skip] ?? 0
    const worstEntry = [...byInteraction.values()].sort((a, b) => b.duration - a.duration)[0]
    return {
      clicks,
      interactionsObserved: byInteraction.size,
      durations,
      inpMs: inp,
      p98Ms: percentile(sorted, 0.98),
      maxMs: sorted.at(-1) ?? 0,
      worst: worstEntry ? { inputDelayMs: round(worstEntry.inputDelay), processingMs: round(worstEntry.processing) } : null,
    }
  } finally {
    await context.close()
  }
}

export const round = (n: number, digits = 1) => Number(n.toFixed(digits))

/** Nearest-rank percentile of an ascending list; 0 when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))
  return sorted[rank] ?? 0
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return 0
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}
