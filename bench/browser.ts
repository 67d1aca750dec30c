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
 * --scroll-step V (viewports per scroll step, 0.5), --profiles unthrottled,mid-phone, --skip-build (use dist/ as it is),
 * --waterfall (print each profile's first cold load: every request's start and end, and the long tasks, on the page's
 * clock).
 *
 * A step that fails (a timeout, a selector that never shows) is recorded with its reason and the bench goes on with the
 * next one; the report's "every step completed" row fails.
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
  /** The mid phone's typical cold load (median of the runs). */
  lcpMidPhoneMedianMs: 2_000,
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
      waterfall: { type: 'boolean', default: false },
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
    waterfall: values.waterfall,
  }
}

/** One step of a profile: its result, or why it failed (the bench records that and goes on with the next step). */
type Step<T> = { ok: true; value: T } | { ok: false; reason: string }

async function step<T>(label: string, run: () => Promise<T>): Promise<Step<T>> {
  try {
    return { ok: true, value: await run() }
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'failed'
    console.log(`${label}: FAILED (${reason})`)
    return { ok: false, reason }
  }
}

const valueOf = <T>(s: Step<T> | undefined): T | undefined => (s?.ok ? s.value : undefined)

interface ProfileResult {
  profile: Profile
  /** The cold loads that finished; `loadFailures` says why the others did not. */
  loads: HomeLoad[]
  loadFailures: string[]
  scroll: Step<ScrollResult>
  like: Step<LikeResult>
  signIn: Step<SignInResult>
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

/** One cold load as a timeline: what was requested when, how long it took, and the main thread's long tasks. */
function printWaterfall(profile: string, load: HomeLoad) {
  console.log(`${profile} waterfall (ms after navigation start; TTFB ${fmt(load.ttfbMs, 0)}, DCL ${fmt(load.domContentLoadedMs, 0)}, first post ${fmt(load.firstPostMs, 0)}, LCP ${fmt(load.lcpMs, 0)}):`)
  for (const r of load.requests) {
    console.log(`  ${fmt(r.startMs, 0).padStart(6)} -> ${fmt(r.endMs, 0).padStart(6)}  ${r.initiator.padEnd(14)} ${r.path}`)
  }
  console.log(`  long tasks (start+duration): ${load.longTasks.map((t) => `${fmt(t.startTime, 0)}+${fmt(t.duration, 0)}`).join(', ') || 'none'}`)
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
      const loadFailures: string[] = []
      for (let i = 0; i < opts.runs; i += 1) {
        const load = await step(`${profile.name} load ${i + 1}`, () => loadHome(browser, profile, reader, app.baseUrl, distDir))
        if (!load.ok) {
          loadFailures.push(load.reason)
          continue
        }
        loads.push(load.value)
        console.log(
          `${profile.name} load ${i + 1}: LCP ${fmt(load.value.lcpMs, 0)} ms (${load.value.lcpElement}), first post ${fmt(load.value.firstPostMs, 0)} ms, ` +
            `JS ${jsSummary(load.value).gzipKb} KB gzip; load ${os.loadavg()[0]?.toFixed(2)}`,
        )
        if (opts.waterfall && i === 0) printWaterfall(profile.name, load.value)
      }
      const scroll = await step(`${profile.name} scroll`, () =>
        scrollFeed(browser, profile, reader, app.baseUrl, opts.posts, 8 * 60_000, opts.scrollStep),
      )
      if (scroll.ok) {
        const v = scroll.value
        console.log(
          `${profile.name} scroll: ${v.postsLoaded} posts in ${fmt(v.seconds)} s, max ${v.maxDomNodes} DOM elements, ` +
            `longest task ${fmt(v.longTaskMaxMs, 0)} ms (${v.longTasksOver50} over 50 ms)`,
        )
      }
      const like = await step(`${profile.name} like`, () => likeLatency(browser, profile, reader, app.baseUrl, opts.clicks))
      if (like.ok) {
        const v = like.value
        console.log(`${profile.name} like: INP ${v.inpMs} ms, max ${v.maxMs} ms (${v.interactionsObserved}/${v.clicks} interactions of 16 ms or more)`)
      }
      const signIn = await step(`${profile.name} sign-in`, () => signInTime(browser, profile, reader, PASSWORD, app.baseUrl))
      if (signIn.ok) {
        console.log(
          `${profile.name} sign-in: ${signIn.value.totalMs} ms to Home, ${signIn.value.deriveMs} ms of it before the login request (prelogin + argon2id)`,
        )
      }
      results.push({ profile, loads, loadFailures, scroll, like, signIn })
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
      loadsFinished: r.loads.length,
      loadFailures: r.loadFailures,
      lcpMedianMs: round(median(lcps), 0),
      lcpWorstMs: lcps.length ? round(Math.max(...lcps), 0) : 0,
      lcpRunsMs: lcps.map((v) => round(v, 0)),
      lcpElement: r.loads.at(-1)?.lcpElement ?? '',
      firstPostMedianMs: round(median(r.loads.map((l) => l.firstPostMs)), 0),
      ttfbMedianMs: round(median(r.loads.map((l) => l.ttfbMs)), 1),
      loadLongestTaskMedianMs: round(median(r.loads.map((l) => l.longTaskMaxMs)), 0),
      jsTransferKb: r.loads[0] ? jsSummary(r.loads[0]).transferKb : 0,
      scroll: valueOf(r.scroll),
      like: valueOf(r.like),
      signIn: valueOf(r.signIn),
      failedSteps: [
        ...r.loadFailures.map((reason) => `a cold load: ${reason}`),
        ...(['scroll', 'like', 'signIn'] as const).flatMap((name) => {
          const s = r[name]
          return s.ok ? [] : [`${name}: ${s.reason}`]
        }),
      ],
    }
  })
  for (const row of rows) {
    checks.push({
      name: `browser bench, ${row.profile}: every step completed`,
      pass: row.failedSteps.length === 0,
      detail: row.failedSteps.length === 0 ? 'loads, scroll, like and sign-in all finished' : row.failedSteps.join('; '),
    })
    if (row.profile === 'mid-phone') {
      checks.push({
        name: `LCP of the home feed, mid-phone: median < ${BUDGETS.lcpMidPhoneMedianMs} ms`,
        pass: row.loadsFinished > 0 && row.lcpMedianMs < BUDGETS.lcpMidPhoneMedianMs,
        detail: `median ${row.lcpMedianMs} ms over ${row.loadsFinished} cold loads (${row.lcpRunsMs.join(', ')})`,
      })
    }
    const lcpBudget = row.profile === 'mid-phone' ? BUDGETS.lcpMidPhoneMs : BUDGETS.lcpUnthrottledMs
    checks.push({
      name: `LCP of the home feed, ${row.profile}: worst < ${lcpBudget} ms`,
      pass: row.loadsFinished > 0 && row.lcpWorstMs < lcpBudget,
      detail: `median ${row.lcpMedianMs} ms, worst ${row.lcpWorstMs} ms over ${row.loadsFinished} cold loads`,
    })
    const scroll = row.scroll
    checks.push({
      name: `scroll through ${opts.posts} posts, ${row.profile}: DOM < ${BUDGETS.domNodes} elements`,
      pass: scroll !== undefined && scroll.maxDomNodes < BUDGETS.domNodes && scroll.postsLoaded >= opts.posts,
      detail: scroll ? `max ${scroll.maxDomNodes} elements (${scroll.maxRenderedCards} cards rendered at most), ${scroll.postsLoaded} posts loaded` : 'the scroll failed',
    })
    checks.push({
      name: `scroll, ${row.profile}: no long task over ${BUDGETS.longTaskMs} ms`,
      pass: scroll !== undefined && scroll.longTasksOver50 === 0,
      detail: scroll ? `longest ${fmt(scroll.longTaskMaxMs, 0)} ms, ${scroll.longTasksOver50} of ${scroll.longTasks} long tasks over 50 ms` : 'the scroll failed',
    })
    const like = row.like
    checks.push({
      name: `INP of a like, ${row.profile} < ${BUDGETS.inpMs} ms`,
      pass: like !== undefined && like.inpMs < BUDGETS.inpMs,
      detail: like ? `INP ${like.inpMs} ms, max ${like.maxMs} ms; ${like.interactionsObserved} of ${like.clicks} clicks took 16 ms or more` : 'the like step failed',
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

type Row = {
  profile: string
  loadsFinished: number
  lcpMedianMs: number
  lcpWorstMs: number
  lcpRunsMs: number[]
  lcpElement: string
  firstPostMedianMs: number
  ttfbMedianMs: number
  loadLongestTaskMedianMs: number
  jsTransferKb: number
  scroll: ScrollResult | undefined
  like: LikeResult | undefined
  signIn: SignInResult | undefined
  failedSteps: string[]
}

function toMarkdown(
  report: { date: string; environment: Record<string, string | number>; seed: Record<string, unknown>; settings: Record<string, unknown>; checks: Check[] },
  rows: Row[],
  reference: HomeLoad | undefined,
): string {
  const perFile = (reference?.scripts ?? []).map(
    (s) => `| ${s.file} | ${fmt(kb(s.rawBytes))} | ${fmt(kb(s.gzipBytes))} | ${fmt(kb(s.transferBytes))} | ${s.afterFeed ? 'idle prefetch' : 'first load'} |`,
  )
  const js = reference ? jsSummary(reference) : undefined
  const or = (v: number | undefined, digits = 0) => (v === undefined ? 'failed' : fmt(v, digits))
  return [
    `# Browser budgets, ${report.date}`,
    '',
    '| profile | LCP median ms | LCP worst ms | first post ms (median) | TTFB ms | longest task of a load ms (median) | max DOM elements | longest task of the scroll ms | tasks > 50 ms | INP of a like ms | like max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.profile} | ${r.lcpMedianMs} | ${r.lcpWorstMs} | ${r.firstPostMedianMs} | ${r.ttfbMedianMs} | ${r.loadLongestTaskMedianMs} | ${or(r.scroll?.maxDomNodes)} | ${or(r.scroll?.longTaskMaxMs)} | ${or(r.scroll?.longTasksOver50)} | ${or(r.like?.inpMs)} | ${or(r.like?.maxMs)} |`,
    ),
    '',
    '## Sign-in through the form (argon2id of the password included)',
    '',
    '| profile | click to Home ms | before the login request (prelogin + argon2id) ms |',
    '| --- | ---: | ---: |',
    ...rows.map((r) => `| ${r.profile} | ${or(r.signIn?.totalMs)} | ${or(r.signIn?.deriveMs)} |`),
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
      r.scroll
        ? `- scroll: ${r.scroll.postsLoaded} posts in ${r.scroll.feedPages} feed pages, ${r.scroll.steps} steps, ${fmt(r.scroll.seconds)} s; ` +
          `DOM elements ${r.scroll.domNodesAtStart} with the first page, at most ${r.scroll.maxDomNodes}; at most ${r.scroll.maxRenderedCards} cards rendered; ` +
          `${r.scroll.longTasks} long tasks, the longest (ms): ${r.scroll.longestTasks.join(', ') || 'none'}`
        : '- scroll: failed',
      r.like
        ? `- like: ${r.like.clicks} clicks, per interaction of 16 ms or more (ms): ${r.like.durations.join(', ') || 'none'}; ` +
          `slowest: ${r.like.worst ? `input delay ${r.like.worst.inputDelayMs} ms, handlers ${r.like.worst.processingMs} ms` : 'n/a'}`
        : '- like: failed',
      ...r.failedSteps.map((f) => `- FAILED ${f}`),
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
