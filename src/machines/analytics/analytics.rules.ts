import { ANALYTICS, TIME_RANGES, type TimeRange } from '../../api/contract/analytics'
import { isApiError } from '../../api/errors'

// What the Analytics Dashboard shows and how (docs/product.md, "Analytics"): a range of 7, 30
// (the default) or 90 days; the engagement rate as a percent with one decimal; post text cut at 100 characters; the
// chart over the last 7 days of the daily figures. Counts abbreviate at 1K and 1M with the post card's formatCount.

export { ANALYTICS, TIME_RANGES, type TimeRange }

export const RANGE_LABELS: Record<TimeRange, string> = {
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
}

export const isTimeRange = (value: string): value is TimeRange => (TIME_RANGES as readonly string[]).includes(value)

/** 0.0375 reads '3.8%'; 1.75 (more engagements than views: likes without a counted view) reads '175.0%'. */
export function formatRate(rate: number): string {
  if (!Number.isFinite(rate) || rate < 0) return '0.0%'
  return `${(Math.round(rate * 1000) / 10).toFixed(1)}%`
}

/** A post's text in analytics lists: at most 100 characters (code points), then an ellipsis. */
export function previewText(content: string, max: number = ANALYTICS.postTextPreview): string {
  const chars = [...content]
  return chars.length <= max ? content : `${chars.slice(0, max).join('').trimEnd()}…`
}

/** The days the chart shows: the last 7 of the range's daily figures, oldest first. */
export function chartDays<T>(daily: ReadonlyArray<T>, days: number = ANALYTICS.chartDays): T[] {
  return daily.slice(Math.max(0, daily.length - days))
}

/** A 'YYYY-MM-DD' day (UTC) as a short label: 'Mon 24'. */
export function dayLabel(date: string): string {
  const d = new Date(`${date}T00:00:00Z`)
  if (Number.isNaN(d.getTime())) return date
  return `${d.toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' })} ${d.getUTCDate()}`
}

/** The same day in full, for tooltips and the table: 'Monday, November 24'. */
export function dayLong(date: string): string {
  const d = new Date(`${date}T00:00:00Z`)
  if (Number.isNaN(d.getTime())) return date
  return d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' })
}

/** A chart's top: four equal whole steps of 1, 2 or 5 times a power of ten, at or above the largest value. */
export function chartMax(values: ReadonlyArray<number>): number {
  const quarter = Math.max(0, ...values) / 4
  if (quarter <= 1) return 4
  const magnitude = 10 ** Math.floor(Math.log10(quarter))
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= quarter) ?? 10 * magnitude
  return step * 4
}

export const LOAD_FAILED = 'Could not load your analytics.'
export const POST_UNAVAILABLE = "This post's analytics are not available."

/** What the failed state says: a post that is not the member's (403) or is gone (404) will not come back. */
export function loadFailure(error: unknown): { message: string; retryable: boolean } {
  if (isApiError(error) && (error._tag === 'Forbidden' || error._tag === 'NotFound')) {
    return { message: POST_UNAVAILABLE, retryable: false }
  }
  return { message: LOAD_FAILED, retryable: true }
}
