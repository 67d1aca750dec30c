import { ANALYTICS, type TimeRange } from '../../../src/api/contract/analytics'
import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { Forbidden, NotFound } from '../../lib/domain-errors'
import { findVisiblePost } from '../posts/queries'
import { POST_NOT_FOUND } from '../visibility/visibility'
import { memberDays, memberTotals, postDays, postHeader, recentPosts, topPosts } from './queries'

// The product's words (docs/product.md, "Analytics").
export const NOT_YOUR_POST_ANALYTICS = "Only a post's author can see its analytics"

/** What AnalyticsService needs, by the names of the services registry (server/services.ts). */
export interface AnalyticsDeps {
  db: Database
}

/** (likes + replies + reposts) / views, as a fraction; 0 without views. */
export function engagementRate(c: { likes: number; replies: number; reposts: number; views: number }): number {
  return c.views > 0 ? (c.likes + c.replies + c.reposts) / c.views : 0
}

/**
 * A member's own statistics over 7, 30 or 90 days (docs/product.md, "Analytics"): private to them, read from the
 * per-day counters the posts module keeps (server/modules/analytics/daily-stats.ts). Nothing here writes.
 */
export class AnalyticsService {
  private readonly db: Database

  constructor(deps: AnalyticsDeps) {
    this.db = deps.db
  }

  async user(viewer: UserRow, timeRange: TimeRange): Promise<Schemas['UserAnalyticsResponse']> {
    const t = await memberTotals(this.db, viewer.id, ANALYTICS.days[timeRange])
    return {
      timeRange,
      userStats: {
        totalPosts: t.posts,
        totalFollowers: t.followers,
        totalViews: t.views,
        totalLikes: t.likes,
        totalReplies: t.replies,
        totalReposts: t.reposts,
        engagementRate: engagementRate(t),
      },
    }
  }

  async engagement(viewer: UserRow, timeRange: TimeRange): Promise<Schemas['EngagementAnalyticsResponse']> {
    const days = ANALYTICS.days[timeRange]
    const [top, recent] = await Promise.all([
      topPosts(this.db, viewer.id, days, ANALYTICS.topPosts),
      recentPosts(this.db, viewer.id, days, ANALYTICS.recentPosts),
    ])
    return { timeRange, topPosts: top, recentPosts: recent }
  }

  async trends(viewer: UserRow, timeRange: TimeRange): Promise<Schemas['TrendAnalyticsResponse']> {
    const rows = await memberDays(this.db, viewer.id, ANALYTICS.days[timeRange])
    return { timeRange, dailyStats: rows.map(({ date, posts, likes, views }) => ({ date, posts, likes, views })) }
  }

  /** One post: its author only (403); a post the viewer may not see, or none, is 404 as everywhere. */
  async post(viewer: UserRow, postId: string, timeRange: TimeRange): Promise<Schemas['PostAnalyticsResponse']> {
    const ref = await findVisiblePost(this.db, viewer.id, postId)
    if (!ref) throw new NotFound(POST_NOT_FOUND)
    if (ref.authorId !== viewer.id) throw new Forbidden(NOT_YOUR_POST_ANALYTICS)
    const [header, rows] = await Promise.all([
      postHeader(this.db, ref.id),
      postDays(this.db, ref.id, ANALYTICS.days[timeRange]),
    ])
    if (!header) throw new NotFound(POST_NOT_FOUND)
    const sum = (key: 'likes' | 'views' | 'replies' | 'reposts') => rows.reduce((n, r) => n + r[key], 0)
    const post = { ...header, likes: sum('likes'), views: sum('views'), replies: sum('replies'), reposts: sum('reposts') }
    return {
      timeRange,
      post,
      engagementRate: engagementRate(post),
      dailyStats: rows.map(({ date, likes, views, replies, reposts }) => ({ date, likes, views, replies, reposts })),
    }
  }
}
