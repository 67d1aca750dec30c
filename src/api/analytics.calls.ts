import { Effect } from 'effect'
import { query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { TimeRange } from './contract/analytics'
import type { components } from './contract/schema'

// A member's own analytics (openapi.yaml tag `analytics`): four reads, each over a time range, each retried once on
// a transient failure. The dashboard asks three of them at once.

type Schemas = components['schemas']

export type { TimeRange }
export type UserAnalytics = Schemas['UserAnalytics']
export type PostStats = Schemas['PostStats']
export type DailyStat = Schemas['DailyStat']
export type PostDailyStat = Schemas['PostDailyStat']
export type PostAnalytics = Schemas['PostAnalyticsResponse']

/** What the Analytics Dashboard shows for one range. */
export interface Dashboard {
  timeRange: TimeRange
  userStats: UserAnalytics
  topPosts: ReadonlyArray<PostStats>
  recentPosts: ReadonlyArray<PostStats>
  dailyStats: ReadonlyArray<DailyStat>
}

export function makeAnalyticsCalls(client: ApiClient) {
  const params = (timeRange: TimeRange) => ({ query: { timeRange } })
  const calls = {
    user: (timeRange: TimeRange): Effect.Effect<Schemas['UserAnalyticsResponse'], ApiError> =>
      query<Schemas['UserAnalyticsResponse']>((signal) => client.GET('/analytics/user', { params: params(timeRange), signal })),

    engagement: (timeRange: TimeRange): Effect.Effect<Schemas['EngagementAnalyticsResponse'], ApiError> =>
      query<Schemas['EngagementAnalyticsResponse']>((signal) =>
        client.GET('/analytics/engagement', { params: params(timeRange), signal }),
      ),

    trends: (timeRange: TimeRange): Effect.Effect<Schemas['TrendAnalyticsResponse'], ApiError> =>
      query<Schemas['TrendAnalyticsResponse']>((signal) => client.GET('/analytics/trends', { params: params(timeRange), signal })),

    /** One of the member's posts (403 for someone else's, 404 for one they cannot see). */
    post: (postId: string, timeRange: TimeRange): Effect.Effect<PostAnalytics, ApiError> =>
      query<PostAnalytics>((signal) =>
        client.GET('/analytics/posts/{id}', { params: { path: { id: postId }, query: { timeRange } }, signal }),
      ),
  }
  return {
    ...calls,
    /** Totals, top and recent posts, and daily figures, asked at once; fails if any of them fails. */
    dashboard: (timeRange: TimeRange): Effect.Effect<Dashboard, ApiError> =>
      Effect.all([calls.user(timeRange), calls.engagement(timeRange), calls.trends(timeRange)], {
        concurrency: 'unbounded',
      }).pipe(
        Effect.map(([user, engagement, trends]) => ({
          timeRange,
          userStats: user.userStats,
          topPosts: engagement.topPosts,
          recentPosts: engagement.recentPosts,
          dailyStats: trends.dailyStats,
        })),
      ),
  }
}

export type AnalyticsCalls = ReturnType<typeof makeAnalyticsCalls>

/** The app's analytics calls on the app's client. */
export const analyticsCalls: AnalyticsCalls = makeAnalyticsCalls(api)
