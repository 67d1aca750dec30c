// Analytics' constants, for both sides: the server ranks and cuts lists with them, the SPA's rules
// (src/machines/analytics/analytics.rules.ts) show them. openapi.yaml's TimeRange enum and maxItems say the same.

export const TIME_RANGES = ['7d', '30d', '90d'] as const
export type TimeRange = (typeof TIME_RANGES)[number]

export const ANALYTICS = {
  /** The range when none is asked for. */
  defaultRange: '30d' as TimeRange,
  /** Days in each range: today (UTC) and the days before it. */
  days: { '7d': 7, '30d': 30, '90d': 90 } satisfies Record<TimeRange, number>,
  /** Top posts by engagement, and recent posts. */
  topPosts: 5,
  recentPosts: 5,
  /** The dashboard's chart shows this many last days of the daily figures. */
  chartDays: 7,
  /** A post's text in analytics lists, in characters, before an ellipsis. */
  postTextPreview: 100,
} as const
