// How numbers and times read on a post card (docs/product.md, "Post card").

/**
 * Counts abbreviate at 1K and 1M with at most one decimal, rounded down so a count is never overstated
 * (1,999 reads 1.9K, 999,999 reads 999.9K, 1,000,000 reads 1M).
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '0'
  const whole = Math.floor(n)
  if (whole < 1_000) return String(whole)
  const [unit, suffix] = whole < 1_000_000 ? [1_000, 'K'] : [1_000_000, 'M']
  // Integer arithmetic: tenths of the unit, floored (no 0.1 + 0.2 surprises).
  const tenths = Math.floor(whole / (unit / 10))
  const text = tenths % 10 === 0 ? String(tenths / 10) : `${Math.floor(tenths / 10)}.${tenths % 10}`
  return `${text}${suffix}`
}

const MINUTE_MS = 60_000
const MINUTES_IN_DAY = 1_440
const MINUTES_IN_MONTH = 43_200
const MINUTES_IN_YEAR = 525_600

/** Math.round without a negative zero. */
const round = (n: number): number => Math.round(n) || 0

/** How far the local clock is from UTC on that date, in ms (date-fns' getTimezoneOffsetInMilliseconds). */
function zoneOffsetMs(date: Date): number {
  const utc = new Date(
    Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds()),
  )
  utc.setUTCFullYear(date.getFullYear())
  return date.getTime() - utc.getTime()
}

const plural = (count: number, unit: string): string => (count === 1 ? `1 ${unit}` : `${count} ${unit}s`)

/**
 * '3 minutes ago' (date-fns' formatDistanceStrict with addSuffix, en-US, written out here so the post card does not
 * bring date-fns and its locale into the first load; tests/machines/post-text.test.ts holds it to the same
 * words); under a minute, 'a few seconds ago' rather than a count that the minute clock would leave stale. A time
 * slightly in the future (the server's clock ahead of ours) counts as now.
 */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const then = new Date(iso).getTime()
  if (Number.isNaN(then)) return ''
  if (now - then < 60_000) return 'a few seconds ago'
  const ms = now - then
  const minutes = ms / MINUTE_MS
  // Days, months and years count calendar time: a daylight-saving change in between does not move them.
  const calendarMinutes = (ms - (zoneOffsetMs(new Date(now)) - zoneOffsetMs(new Date(then)))) / MINUTE_MS
  let text: string
  if (minutes < 60) text = plural(round(minutes), 'minute')
  else if (minutes < MINUTES_IN_DAY) text = plural(round(minutes / 60), 'hour')
  else if (calendarMinutes < MINUTES_IN_MONTH) text = plural(round(calendarMinutes / MINUTES_IN_DAY), 'day')
  else if (calendarMinutes < MINUTES_IN_YEAR) {
    const months = round(calendarMinutes / MINUTES_IN_MONTH)
    text = months === 12 ? plural(1, 'year') : plural(months, 'month')
  } else text = plural(round(calendarMinutes / MINUTES_IN_YEAR), 'year')
  return `${text} ago`
}

// One formatter for every card: `toLocaleString(undefined, options)` builds a new Intl.DateTimeFormat on each call
// (about a millisecond each), which made mounting a screenful of cards a long task while scrolling.
let fullDateFormat: Intl.DateTimeFormat | undefined

/** The full date and time for the timestamp's tooltip. */
export function fullDate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  fullDateFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
  return fullDateFormat.format(date)
}
