import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import { buildWebApp, repoRoot, startApp } from './lib/browser-app'
import {
  type HomeLoad,
  type LikeResult,
  likeLatency,
  loadHome,
  median,
  PROFILES,
  type Profile,
  round,
  type ScrollResult,
  scrollFeed,
} from './lib/browser-measure'
import { PASSWORD, seedBrowserData } from './lib/browser-seed'
import { signInTime, type SignInResult } from './lib/browser-signin'
import { type Check, writeResultFiles } from './lib/report'

/**
 * `npm run bench -- --only browser`: the front-end budgets, measured in Debian's Chromium.
 *
 * 1. Builds the production bundle and starts the real server (`tsx server/main.ts`) on a free loopback port with a
 *    fresh DATA_DIR, the embedded database and rate limits off (bench/lib/browser-app.ts).
 * 2. Seeds through the API: a reader following 50 authors with 2,000+ posts between them (bench/lib/browser-seed.ts).
 * 3. Measures, signed in as the reader (session in localStorage as the SPA keeps it), in two profiles:
 *    `unthrottled` (1280x800) and `mid-phone` (412x823, CPU 4x slower, Slow 4G: 1.6 Mbps / 750 Kbps / 150 ms RTT):
 *    - first-load JS: every script the home feed's cold load requests before its first posts show, gzip -9 of the
 *      built files (and the bytes on the wire, which are uncompressed unless the server compresses);
 *    - LCP of the home feed, `--runs` cold loads per profile (median and worst);
 *    - a scroll through `--scroll-posts` posts (pages of 20 as the SPA asks for them): the most DOM elements at any time and
 *      the long tasks;
 *    - INP of a like: `--clicks` like/unlike clicks timed by the Event Timing API.
 * 4. Checks the budgets and writes bench/results/<date>-browser.{json,md}.
 *
 * Flags: --runs N (5), --scroll-posts N (2,000: seeded, and scrolled through), --authors N (50), --clicks N (10),
 * --scroll-step V (viewports per scroll step, 0.5), --profiles unthrottled,mid-phone, --skip-build (use dist/ as it is).
 */

const resultsDir = fileURLToPath(new URL('./results', import.meta.url))
const distDir = path.join(repoRoot, 'dist')

/** The flags of tests/e2e/playwright.config.ts. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
]

const BUDGETS = {
  firstLoadJsGzipKb: 150,
  lcpUnthrottledMs: 1_000,
  lcpMidPhoneMs: 2_500,
  domNodes: 1_400,
  longTaskMs: 50,
  inpMs: 100,
}

function options() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      'scroll-posts': { type: 'string', default: '2000' },
      authors: { type: 'string', default: '50' },
      clicks: { type: 'string', default: '10' },
      'scroll-step': { type: 'string', default: '0.5' },
      profiles: { type: 'string', default: 'unthrottled,mid-phone' },
      'skip-build': { type: 'boolean', default: false },
    },
    strict: true,
  })
  const int = (name: string, raw: string, min: number, max: number) => {
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`)
    return n
  }
  const profiles = values.profiles.split(',').map((p) => {
    if (p !== 'unthrottled' && p !== 'mid-phone') throw new Error(`--profiles takes unthrottled and/or mid-phone (got "${p}")`)
    return PROFILES[p]
  })
  return {
    runs: int('runs', values.runs, 1, 50),
    posts: int('scroll-posts', values['scroll-posts'], 20, 100_000),
    authors: int('authors', values.authors, 1, 1_000),
    clicks: int('clicks', values.clicks, 1, 200),
    scrollStep: (() => {
      const n = Number(values['scroll-step'])
      if (!(n > 0 && n <= 5)) throw new Error('--scroll-step takes a number of viewports from 0 to 5')
      return n
    })(),
    profiles,
    skipBuild: values['skip-build'],
  }
}

interface ProfileResult {
  profile: Profile
  loads: HomeLoad[]
  scroll: ScrollResult
  like: LikeResult
  signIn: SignInResult
}

const kb = (bytes: number) => bytes / 1024
const fmt = (n: number, digits = 1) => n.toFixed(digits)

function jsSummary(load: HomeLoad) {
  const first = load.scripts.filter((s) => !s.afterFeed)
  const later = load.scripts.filter((s) => s.afterFeed)
  const sum = (list: typeof first, key: 'gzipBytes' | 'rawBytes' | 'transferBytes') => list.reduce((a, s) => a + s[key], 0)
  return {
    files: first.length,
    gzipKb: round(kb(sum(first, 'gzipBytes'))),
    rawKb: round(kb(sum(first, 'rawBytes'))),
    transferKb: round(kb(sum(first, 'transferBytes'))),
    afterFeed: later.map((s) => s.file),
    afterFeedGzipKb: round(kb(sum(later, 'gzipBytes'))),
  }
}

async function main() {
  const opts = options()
  const loadBefore = os.loadavg()[0] ?? 0
  const started = performance.now()
  console.log(`load average (1 min) before: ${loadBefore.toFixed(2)} on ${os.cpus().length} cores`)

  const buildSeconds = opts.skipBuild ? 0 : await buildWebApp()
  if (!opts.skipBuild) console.log(`built in ${buildSeconds.toFixed(1)} s`)
  const app = await startApp()
  console.log(`server at ${app.baseUrl} (data in ${app.dataDir})`)
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  const chromiumVersion = browser.version()
  const results: ProfileResult[] = []
  let seed: Awaited<ReturnType<typeof seedBrowserData>> | undefined
  try {
    seed = await seedBrowserData(app.baseUrl, { authors: opts.authors, posts: opts.posts })
    console.log(`seeded ${seed.posts} posts by ${seed.authors} authors in ${seed.seconds.toFixed(1)} s`)
    const reader = seed.reader
    // One throwaway load: the server's first answers (route compilation, cold caches) are not what a member sees.
    await loadHome(browser, PROFILES.unthrottled, reader, app.baseUrl, distDir)

    for (const profile of opts.profiles) {
      const loads: HomeLoad[] = []
      for (let i = 0; i < opts.runs; i += 1) {
        const load = await loadHome(browser, profile, reader, app.baseUrl, distDir)
        loads.push(load)
        console.log(
          `${profile.name} load ${i + 1}: LCP ${fmt(load.lcpMs, 0)} ms (${load.lcpElement}), first post ${fmt(load.firstPostMs, 0)} ms, ` +
            `JS ${jsSummary(load).gzipKb} KB gzip`,
        )
      }
      const scroll = await scrollFeed(browser, profile, reader, app.baseUrl, opts.posts, 8 * 60_000, opts.scrollStep)
      console.log(
        `${profile.name} scroll: ${scroll.postsLoaded} posts in ${fmt(scroll.seconds)} s, max ${scroll.maxDomNodes} DOM elements, ` +
          `longest task ${fmt(scroll.longTaskMaxMs, 0)} ms (${scroll.longTasksOver50} over 50 ms)`,
      )
      const like = await likeLatency(browser, profile, reader, app.baseUrl, opts.clicks)
      console.log(`${profile.name} like: INP ${like.inpMs} ms, max ${like.maxMs} ms (${like.interactionsObserved}/${like.clicks} interactions of 16 ms or more)`)
      const signIn = await signInTime(browser, profile, reader, PASSWORD, app.baseUrl)
      console.log(`${profile.name} sign-in: ${signIn.totalMs} ms to Home, ${signIn.deriveMs} ms of it before the login request (prelogin + argon2id)`)
      results.push({ profile, loads, scroll, like, signIn })
    }
  } finally {
    await browser.close()
    await app.stop()
  }

  const date = new Date().toISOString().slice(0, 10)
  const checks: Check[] = []
  const reference = results[0]?.loads[0]
  const js = reference ? jsSummary(reference) : undefined
  if (js) {
    checks.push({
      name: `first-load JS <= ${BUDGETS.firstLoadJsGzipKb} KB gzip`,
      pass: js.gzipKb <= BUDGETS.firstLoadJsGzipKb,
      detail: `${js.gzipKb} KB gzip in ${js.files} files (${js.rawKb} KB minified)`,
    })
  }
  const rows = results.map((r) => {
    const lcps = r.loads.map((l) => l.lcpMs)
    return {
      profile: r.profile.name,
      lcpMedianMs: round(median(lcps), 0),
      lcpWorstMs: round(Math.max(...lcps), 0),
      lcpRunsMs: lcps.map((v) => round(v, 0)),
      lcpElement: r.loads.at(-1)?.lcpElement ?? '',
      firstPostMedianMs: round(median(r.loads.map((l) => l.firstPostMs)), 0),
      ttfbMedianMs: round(median(r.loads.map((l) => l.ttfbMs)), 1),
      jsTransferKb: jsSummary(r.loads[0] as HomeLoad).transferKb,
      scroll: r.scroll,
      like: r.like,
      signIn: r.signIn,
    }
  })
  for (const row of rows) {
    const lcpBudget = row.profile === 'mid-phone' ? BUDGETS.lcpMidPhoneMs : BUDGETS.lcpUnthrottledMs
    checks.push({
      name: `LCP of the home feed, ${row.profile} < ${lcpBudget} ms`,
      pass: row.lcpWorstMs < lcpBudget,
      detail: `median ${row.lcpMedianMs} ms, worst ${row.lcpWorstMs} ms over ${row.lcpRunsMs.length} cold loads`,
    })
    checks.push({
      name: `scroll through ${row.scroll.postsLoaded} posts, ${row.profile}: DOM < ${BUDGETS.domNodes} elements`,
      pass: row.scroll.maxDomNodes < BUDGETS.domNodes && row.scroll.postsLoaded >= opts.posts,
      detail: `max ${row.scroll.maxDomNodes} elements (${row.scroll.maxRenderedCards} cards rendered at most)`,
    })
    checks.push({
      name: `scroll, ${row.profile}: no long task over ${BUDGETS.longTaskMs} ms`,
      pass: row.scroll.longTasksOver50 === 0,
      detail: `longest ${fmt(row.scroll.longTaskMaxMs, 0)} ms, ${row.scroll.longTasksOver50} of ${row.scroll.longTasks} long tasks over 50 ms`,
    })
    checks.push({
      name: `INP of a like, ${row.profile} < ${BUDGETS.inpMs} ms`,
      pass: row.like.inpMs < BUDGETS.inpMs,
      detail: `INP ${row.like.inpMs} ms, max ${row.like.maxMs} ms; ${row.like.interactionsObserved} of ${row.like.clicks} clicks took 16 ms or more`,
    })
  }

  const environment = {
    node: process.version,
    chromium: chromiumVersion,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    loadAverage1mBefore: Number(loadBefore.toFixed(2)),
    loadAverage1mAfter: Number((os.loadavg()[0] ?? 0).toFixed(2)),
    seconds: Math.round((performance.now() - started) / 1000),
  }
  const report = {
    date,
    environment,
    seed: { authors: seed?.authors, posts: seed?.posts, seedSeconds: seed ? round(seed.seconds) : null },
    settings: { runs: opts.runs, clicks: opts.clicks, scrollStepViewports: opts.scrollStep, profiles: opts.profiles.map((p) => p.name).join(','), buildSeconds: round(buildSeconds) },
    budgets: BUDGETS,
    profiles: opts.profiles,
    firstLoadJs: js ? { ...js, perFile: reference?.scripts } : null,
    results: rows,
    loads: Object.fromEntries(results.map((r) => [r.profile.name, r.loads.map(({ scripts: _scripts, ...rest }) => rest)])),
    checks,
  }
  const files = await writeResultFiles(resultsDir, date, 'browser', report, toMarkdown(report, rows, reference))
  for (const c of checks) console.log(`${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`)
  console.log(`\nwrote ${files.json} and ${files.markdown}`)
  if (checks.some((c) => !c.pass)) process.exitCode = 2
}

function toMarkdown(
  report: { date: string; environment: Record<string, string | number>; seed: Record<string, unknown>; settings: Record<string, unknown>; checks: Check[] },
  rows: Array<{
    profile: string
    lcpMedianMs: number
    lcpWorstMs: number
    lcpRunsMs: number[]
    lcpElement: string
    firstPostMedianMs: number
    ttfbMedianMs: number
    jsTransferKb: number
    scroll: ScrollResult
    like: LikeResult
    signIn: SignInResult
  }>,
  reference: HomeLoad | undefined,
): string {
  const perFile = (reference?.scripts ?? []).map(
    (s) => `| ${s.file} | ${fmt(kb(s.rawBytes))} | ${fmt(kb(s.gzipBytes))} | ${fmt(kb(s.transferBytes))} | ${s.afterFeed ? 'idle prefetch' : 'first load'} |`,
  )
  const js = reference ? jsSummary(reference) : undefined
  return [
    `# Browser budgets, ${report.date}`,
    '',
    '| profile | LCP median ms | LCP worst ms | first post ms (median) | TTFB ms | max DOM elements | longest task ms | tasks > 50 ms | INP of a like ms | like max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.profile} | ${r.lcpMedianMs} | ${r.lcpWorstMs} | ${r.firstPostMedianMs} | ${r.ttfbMedianMs} | ${r.scroll.maxDomNodes} | ${fmt(r.scroll.longTaskMaxMs, 0)} | ${r.scroll.longTasksOver50} | ${r.like.inpMs} | ${r.like.maxMs} |`,
    ),
    '',
    '## Sign-in through the form (argon2id of the password included)',
    '',
    '| profile | click to Home ms | before the login request (prelogin + argon2id) ms |',
    '| --- | ---: | ---: |',
    ...rows.map((r) => `| ${r.profile} | ${r.signIn.totalMs} | ${r.signIn.deriveMs} |`),
    '',
    '## Budgets',
    '',
    ...report.checks.map((c) => `- ${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`),
    '',
    '## First-load JS (signed-in member, home feed, cold cache)',
    '',
    js
      ? `${js.files} files before the first posts show: **${js.gzipKb} KB gzip** (gzip -9 of the built files), ${js.rawKb} KB minified, ${js.transferKb} KB on the wire (CDP encodedDataLength, headers included).`
      : '',
    '',
    '| file | KB minified | KB gzip | KB on the wire | when |',
    '| --- | ---: | ---: | ---: | --- |',
    ...perFile,
    '',
    '## Details',
    '',
    ...rows.flatMap((r) => [
      `### ${r.profile}`,
      '',
      `- LCP per cold load (ms): ${r.lcpRunsMs.join(', ')}; the LCP element: ${r.lcpElement}`,
      `- scroll: ${r.scroll.postsLoaded} posts in ${r.scroll.feedPages} feed pages, ${r.scroll.steps} steps, ${fmt(r.scroll.seconds)} s; ` +
        `DOM elements ${r.scroll.domNodesAtStart} with the first page, at most ${r.scroll.maxDomNodes}; at most ${r.scroll.maxRenderedCards} cards rendered; ` +
        `${r.scroll.longTasks} long tasks, the longest (ms): ${r.scroll.longestTasks.join(', ') || 'none'}`,
      `- like: ${r.like.clicks} clicks, per interaction of 16 ms or more (ms): ${r.like.durations.join(', ') || 'none'}; ` +
        `slowest: ${r.like.worst ? `input delay ${r.like.worst.inputDelayMs} ms, handlers ${r.like.worst.processingMs} ms` : 'n/a'}`,
      '',
    ]),
    '## Data, settings and machine',
    '',
    ...Object.entries({ ...report.seed, ...report.settings, ...report.environment }).map(([k, v]) => `- ${k}: ${v}`),
    '',
  ].join('\n')
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err)
  process.exitCode = 1
})
