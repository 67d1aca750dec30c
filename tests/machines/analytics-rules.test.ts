import { describe, expect, it } from 'vitest'
import { Forbidden, Network, NotFound } from '../../src/api/errors'
import {
  chartDays,
  chartMax,
  dayLabel,
  formatRate,
  isTimeRange,
  LOAD_FAILED,
  loadFailure,
  POST_UNAVAILABLE,
  previewText,
  RANGE_LABELS,
  TIME_RANGES,
} from '../../src/machines/analytics/analytics.rules'
import { formatCount } from '../../src/views/post/format'

// What the Analytics Dashboard shows (ranges 7d, 30d (default), 90d; numbers abbreviate at 1K and
// 1M; engagement rate as a percent with one decimal; post text truncated at 100; the last 7 days of daily stats).

describe('ranges', () => {
  it('are 7, 30 and 90 days, in that order, and nothing else', () => {
    expect(TIME_RANGES).toEqual(['7d', '30d', '90d'])
    expect(Object.values(RANGE_LABELS)).toEqual(['Last 7 days', 'Last 30 days', 'Last 90 days'])
    expect(isTimeRange('30d')).toBe(true)
    expect(isTimeRange('1y')).toBe(false)
  })
})

describe('numbers', () => {
  it('abbreviate at 1K and 1M (the post card formatter)', () => {
    expect(formatCount(999)).toBe('999')
    expect(formatCount(1_000)).toBe('1K')
    expect(formatCount(1_250)).toBe('1.2K')
    expect(formatCount(999_999)).toBe('999.9K')
    expect(formatCount(2_000_000)).toBe('2M')
  })

  it('the engagement rate reads as a percent with one decimal', () => {
    expect(formatRate(0)).toBe('0.0%')
    expect(formatRate(0.0375)).toBe('3.8%')
    expect(formatRate(9 / 24)).toBe('37.5%')
    expect(formatRate(1.75)).toBe('175.0%')
    expect(formatRate(Number.NaN)).toBe('0.0%')
  })
})

describe('post text', () => {
  it('is cut at 100 characters with an ellipsis, counting emoji as one', () => {
    expect(previewText('short')).toBe('short')
    expect(previewText('a'.repeat(100))).toBe('a'.repeat(100))
    expect(previewText('a'.repeat(101))).toBe(`${'a'.repeat(100)}…`)
    expect(previewText('🙂'.repeat(120))).toBe(`${'🙂'.repeat(100)}…`)
  })
})

describe('chart', () => {
  it('shows the last 7 days of the daily figures, oldest first', () => {
    const days = Array.from({ length: 30 }, (_, i) => i)
    expect(chartDays(days)).toEqual([23, 24, 25, 26, 27, 28, 29])
    expect(chartDays([1, 2])).toEqual([1, 2])
  })

  it('its top is a round number at or above the largest value', () => {
    expect(chartMax([])).toBe(4)
    expect(chartMax([0, 3])).toBe(4)
    expect(chartMax([7])).toBe(8)
    expect(chartMax([13])).toBe(20)
    expect(chartMax([36])).toBe(40)
    expect(chartMax([1990])).toBe(2000)
    for (const v of [5, 13, 99, 101, 777, 12_345]) expect(chartMax([v])).toBeGreaterThanOrEqual(v)
  })

  it('labels days by weekday and date, in UTC', () => {
    expect(dayLabel('2026-11-25')).toBe('Wed 25')
  })
})

describe('failures', () => {
  it("someone else's or a missing post will not come back; anything else may", () => {
    expect(loadFailure(new Forbidden({ message: 'x', fromServer: true }))).toEqual({ message: POST_UNAVAILABLE, retryable: false })
    expect(loadFailure(new NotFound({ message: 'x', fromServer: true }))).toEqual({ message: POST_UNAVAILABLE, retryable: false })
    expect(loadFailure(new Network({ message: 'offline' }))).toEqual({ message: LOAD_FAILED, retryable: true })
  })
})
