import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { LoadResult } from './load'
import type { LoopResult } from './loop'
import type { CapacitySearch } from './open-loop'

/** The numbers of one benchmark run, the targets they are held to, and the files they are written to. */

export interface Scenario {
  name: string
  kind: 'http' | 'sql'
  /** Latencies in milliseconds; rate is requests (HTTP) or queries (SQL) per second. */
  p50: number
  p90: number
  p99: number
  max: number
  rate: number
  count: number
  /** non-2xx answers + socket errors + timeouts (HTTP), failed queries (SQL). */
  failures: number
  note?: string
  /** The warm-up before the measured run: cold connections and plans. */
  warmup?: { p50: number; p99: number; count: number; seconds: number }
}

export function fromHttp(name: string, r: LoadResult, note?: string): Scenario {
  return {
    name,
    kind: 'http',
    p50: r.p50,
    p90: r.p90,
    p99: r.p99,
    max: r.max,
    rate: r.requestsPerSecond,
    count: r.requests,
    failures: r.non2xx + r.errors + r.timeouts,
    ...(note ? { note } : {}),
    ...(r.warmup
      ? { warmup: { p50: r.warmup.p50, p99: r.warmup.p99, count: r.warmup.requests, seconds: r.warmup.durationSeconds } }
      : {}),
  }
}

export function fromLoop(name: string, r: LoopResult, note?: string): Scenario {
  return {
    name,
    kind: 'sql',
    p50: r.p50,
    p90: r.p90,
    p99: r.p99,
    max: r.max,
    rate: r.queriesPerSecond,
    count: r.queries,
    failures: r.errors,
    ...(note ? { note } : {}),
    ...(r.warmup
      ? { warmup: { p50: r.warmup.p50, p99: r.warmup.p99, count: r.warmup.queries, seconds: r.warmup.durationSeconds } }
      : {}),
  }
}

/**
 * A capacity search's row (bench/lib/open-loop.ts): `rate` is the highest arrival rate that held the limits, the
 * latencies and counts those of the step at that rate (all request kinds; a failed request counts as infinitely late).
 */
export function fromCapacity(name: string, kind: 'http' | 'sql', search: CapacitySearch): Scenario {
  const at = search.steps.find((s) => s.pass && s.rate === search.capacity)
  const failed = search.steps.find((s) => s.rate === search.failedAt)
  return {
    name,
    kind,
    p50: at?.all.p50 ?? 0,
    p90: at?.all.p90 ?? 0,
    p99: at?.all.p99 ?? 0,
    max: at?.all.max ?? 0,
    rate: search.capacity,
    count: at?.sent ?? 0,
    failures: at?.all.failed ?? 0,
    note:
      (at ? `at ${search.capacity} req/s: ${at.verdict}` : 'no rate held the limits') +
      (failed ? `; at ${failed.rate} req/s: ${failed.verdict}` : '; the highest rate tried held'),
  }
}

export interface Check {
  name: string
  pass: boolean
  detail: string
}

export interface BenchReport {
  date: string
  environment: Record<string, string | number>
  seed: Record<string, unknown>
  settings: Record<string, number | string>
  scenarios: Scenario[]
  ratios: Record<string, number>
  checks: Check[]
  plans?: Record<string, string>
  pending: string[]
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : 'failed')
const int = (n: number) => Math.round(n).toLocaleString('en-US')

export function scenarioTable(scenarios: Scenario[]): string {
  const header = '| scenario | p50 ms | p90 ms | p99 ms | max ms | per second | total | failures |'
  const rule = '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |'
  const rows = scenarios.map(
    (s) =>
      `| ${s.name} | ${ms(s.p50)} | ${ms(s.p90)} | ${ms(s.p99)} | ${ms(s.max)} | ${int(s.rate)} | ${int(s.count)} | ${s.failures} |`,
  )
  return [header, rule, ...rows].join('\n')
}

/** What the warm-ups cost: the first requests on fresh connections (custom plans, cold caches). */
export function warmupTable(scenarios: Scenario[]): string {
  const rows = scenarios.flatMap((s) =>
    s.warmup ? [`| ${s.name} | ${int(s.warmup.count)} | ${s.warmup.seconds.toFixed(1)} | ${ms(s.warmup.p50)} | ${ms(s.warmup.p99)} |`] : [],
  )
  return ['| warm-up of | requests | seconds | p50 ms | p99 ms |', '| --- | ---: | ---: | ---: | ---: |', ...rows].join('\n')
}

/** A small bench's report: its scenarios, their warm-ups, its targets, and the settings and machine it ran on. */
export function simpleMarkdown(title: string, scenarios: Scenario[], checks: Check[], settings: Record<string, unknown>): string {
  return [
    `# ${title}`,
    '',
    scenarioTable(scenarios),
    '',
    ...(scenarios.some((s) => s.note) ? ['## Scenarios', '', ...scenarios.flatMap((s) => (s.note ? [`- ${s.name}: ${s.note}`] : [])), ''] : []),
    '## Warm-up (not measured above)',
    '',
    warmupTable(scenarios),
    '',
    '## Targets',
    '',
    ...checks.map((c) => `- ${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`),
    '',
    '## Settings and machine',
    '',
    ...Object.entries(settings).map(([k, v]) => `- ${k}: ${String(v)}`),
    '',
  ].join('\n')
}

export function toMarkdown(report: BenchReport): string {
  const lines = [
    `# Home feed benchmark, ${report.date}`,
    '',
    scenarioTable(report.scenarios),
    '',
    '## Warm-up (not measured above)',
    '',
    warmupTable(report.scenarios),
    '',
    '## Ratios',
    '',
    ...Object.entries(report.ratios).map(([k, v]) => `- ${k}: ${v.toFixed(2)}`),
    '',
    '## Targets',
    '',
    ...report.checks.map((c) => `- ${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`),
    ...(report.pending.length > 0 ? ['', '## Pending', '', ...report.pending.map((p) => `- ${p}`)] : []),
    '',
    '## Data',
    '',
    '```json',
    JSON.stringify(report.seed, null, 2),
    '```',
    '',
    '## Settings and machine',
    '',
    ...Object.entries({ ...report.settings, ...report.environment }).map(([k, v]) => `- ${k}: ${v}`),
    ...(report.plans
      ? [
          '',
          '## Feed query plans (EXPLAIN ANALYZE, first page, warm cache)',
          '',
          ...Object.entries(report.plans).flatMap(([k, v]) => [`### ${k}`, '', '```', v, '```', '']),
        ]
      : []),
    '',
  ]
  return lines.join('\n')
}

export function writeReport(dir: string, report: BenchReport): Promise<{ json: string; markdown: string }> {
  return writeResultFiles(dir, report.date, 'feed', report, toMarkdown(report))
}

/** `<dir>/<date>-<bench>.{json,md}`, any bench's report and its markdown. */
export async function writeResultFiles(
  dir: string,
  date: string,
  bench: string,
  report: unknown,
  markdown: string,
): Promise<{ json: string; markdown: string }> {
  await mkdir(dir, { recursive: true })
  // Several runs a day each keep their file (a before/after pair stays side by side): -2, -3, ... after the first.
  let base = path.join(dir, `${date}-${bench}`)
  for (let n = 2; existsSync(`${base}.json`); n += 1) base = path.join(dir, `${date}-${bench}-${n}`)
  await writeFile(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`)
  await writeFile(`${base}.md`, markdown)
  return { json: `${base}.json`, markdown: `${base}.md` }
}
