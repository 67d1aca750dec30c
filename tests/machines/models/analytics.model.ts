import type { AnyEventObject } from 'xstate'
import type { Dashboard, PostAnalytics } from '../../../src/api/analytics.calls'
import { Forbidden, Network } from '../../../src/api/errors'
import { analyticsMachine, type AnalyticsInput } from '../../../src/machines/analytics/analytics.machine'
import { type MachineModel, scenarioWalks, valueAndContext } from '../support/walks'

// The analytics actor's model: the dashboard (opened by `?tab=analytics` or View Analytics; ranges, failures, Retry),
// a post's view from the dashboard (Back) and from an own post's menu (no Back; 403 cannot be retried). Walked by
// tests/machines/analytics.test.ts and printed by `npm run paths -- analytics`.

const day = (date: string, posts: number, likes: number, views: number) => ({ date, posts, likes, views })
const post = (id: string, likes: number, views: number) => ({
  id,
  content: `post ${id}`,
  createdAt: '2026-11-20T10:00:00.000Z',
  likes,
  views,
  replies: 1,
  reposts: 0,
})

export const dashboardFor = (timeRange: Dashboard['timeRange']): Dashboard => ({
  timeRange,
  userStats: {
    totalPosts: 3,
    totalFollowers: 1_250,
    totalViews: 2_000_000,
    totalLikes: 40,
    totalReplies: 3,
    totalReposts: 2,
    engagementRate: 45 / 2_000_000,
  },
  topPosts: [post('p1', 30, 900), post('p2', 10, 100)],
  recentPosts: [post('p2', 10, 100)],
  dailyStats: [day('2026-11-24', 1, 4, 10), day('2026-11-25', 2, 36, 1990)],
})

export const postAnalytics = (timeRange: Dashboard['timeRange']): PostAnalytics => ({
  timeRange,
  post: post('p1', 30, 900),
  engagementRate: 31 / 900,
  dailyStats: [{ date: '2026-11-25', likes: 30, views: 900, replies: 1, reposts: 0 }],
})

export const offline = new Network({ message: 'Unable to reach the server.' })
export const notYours = new Forbidden({ message: "Only a post's author can see its analytics", fromServer: true })

interface AnalyticsWalk {
  name: string
  input: AnalyticsInput
  events: AnyEventObject[]
}

const scenarios: AnalyticsWalk[] = [
  {
    name: 'dashboard',
    input: { open: false },
    events: [
      { type: 'analytics.open' },
      { type: 'xstate.done.actor.loadDashboard', output: dashboardFor('30d') },
      { type: 'xstate.error.actor.loadDashboard', error: offline },
      { type: 'analytics.retry' },
      { type: 'analytics.range', range: '7d' },
      { type: 'analytics.range', range: '30d' },
      { type: 'analytics.close' },
    ],
  },
  {
    name: 'a post from the dashboard',
    input: { open: true },
    events: [
      { type: 'xstate.done.actor.loadDashboard', output: dashboardFor('30d') },
      { type: 'analytics.post.open', postId: 'p1' },
      { type: 'xstate.done.actor.loadPost', output: postAnalytics('30d') },
      { type: 'xstate.error.actor.loadPost', error: offline },
      { type: 'analytics.retry' },
      { type: 'analytics.range', range: '90d' },
      { type: 'analytics.post.back' },
      { type: 'analytics.close' },
    ],
  },
  {
    name: "a post from its menu",
    input: {},
    events: [
      { type: 'analytics.post.open', postId: 'p1' },
      { type: 'xstate.done.actor.loadPost', output: postAnalytics('30d') },
      { type: 'xstate.error.actor.loadPost', error: notYours },
      { type: 'analytics.retry' },
      { type: 'analytics.post.back' },
      { type: 'analytics.close' },
    ],
  },
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'analytics.range') return `analytics.range(${event.range as string})`
  if (event.type === 'analytics.post.open') return `analytics.post.open(${event.postId as string})`
  if (event.type === 'xstate.done.actor.loadDashboard') return 'dashboard loaded'
  if (event.type === 'xstate.done.actor.loadPost') return 'post loaded'
  if (event.type.startsWith('xstate.error.actor.')) {
    return `${event.type.replace('xstate.error.actor.', '')} failed(${(event.error as { _tag: string })._tag})`
  }
  return undefined
}

export const analyticsModel = {
  name: 'analytics',
  machine: analyticsMachine,
  walks: scenarioWalks(scenarios, {
    label,
    serializeState: valueAndContext,
    edgesOnly: 'the range, the loaded dashboard and the post view are context: every order of ranges, failures and retries is its own state',
  }),
} satisfies MachineModel
