import { and, assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { analyticsCalls, type Dashboard, type PostAnalytics } from '../../api/analytics.calls'
import { run } from '../../api/calls'
import { ANALYTICS, loadFailure, type TimeRange } from './analytics.rules'

// The Analytics Dashboard dialog ("Analytics Dashboard: time range selector") and the analytics of
// one post. Settings -> Analytics makes one with `open` (`?tab=analytics` opens it at once) and its View Analytics
// button sends `analytics.open`; an own post's card menu makes one with `postId` and sends `analytics.post.open`.
// Each opening reads afresh; a range change reads again (the last answer stays on screen, dimmed, until the new one
// arrives), a failure offers Retry. From the dashboard a top or recent post opens its own view, and Back returns to
// the dashboard as it was. Nothing here writes.

export type AnalyticsEvent =
  | { type: 'analytics.open' }
  | { type: 'analytics.close' }
  | { type: 'analytics.range'; range: TimeRange }
  | { type: 'analytics.retry' }
  | { type: 'analytics.post.open'; postId: string }
  | { type: 'analytics.post.back' }

export interface AnalyticsInput {
  /** Opened at once (`?tab=analytics`: the tab parameter auto-opens the matching dialog). */
  open?: boolean
}

export interface AnalyticsContext {
  open: boolean
  range: TimeRange
  /** The dashboard last read, for the range it says (kept while another range loads). */
  dashboard: Dashboard | null
  /** The post shown in the post view, and its analytics once read. */
  postId: string | null
  post: PostAnalytics | null
  /** Whether the post view was opened from the dashboard (then Back returns there), or from a post's menu. */
  fromDashboard: boolean
  error: { message: string; retryable: boolean } | null
}

type RangeEvent = { event: { range: TimeRange } }

/** Another range reads the open view again; the last answer stays on screen, dimmed, until the new one arrives. */
const rangeChange = {
  guard: { type: 'isOtherRange', params: ({ event }: RangeEvent) => event.range },
  target: '.loading',
  reenter: true,
  actions: { type: 'pickRange', params: ({ event }: RangeEvent) => event.range },
} as const

export const analyticsMachine = setup({
  types: {
    context: {} as AnalyticsContext,
    events: {} as AnalyticsEvent,
    input: {} as AnalyticsInput,
    tags: {} as 'loading',
  },
  actors: {
    loadDashboard: fromPromise<Dashboard, { range: TimeRange }>(({ input, signal }) =>
      run(analyticsCalls.dashboard(input.range), signal),
    ),
    loadPost: fromPromise<PostAnalytics, { postId: string; range: TimeRange }>(({ input, signal }) =>
      run(analyticsCalls.post(input.postId, input.range), signal),
    ),
  },
  actions: {
    pickRange: assign((_, range: TimeRange) => ({ range })),
    showDashboard: assign((_, dashboard: Dashboard) => ({ dashboard, error: null })),
    showPost: assign((_, post: PostAnalytics) => ({ post, error: null })),
    showFailure: assign((_, error: unknown) => ({ error: loadFailure(error) })),
    choosePost: assign((_, postId: string) => ({ postId, post: null, error: null })),
    /** From the dashboard: Back returns to it. */
    cameFromDashboard: assign({ fromDashboard: true }),
    /** From a post's menu: the view is the whole dialog. */
    cameFromMenu: assign({ fromDashboard: false }),
    forgetPost: assign({ postId: null, post: null, error: null }),
    /** A new opening starts on the default range with nothing shown. */
    reset: assign({ range: ANALYTICS.defaultRange, dashboard: null, post: null, error: null }),
  },
  guards: {
    opensAtOnce: ({ context }) => context.open,
    isOtherRange: ({ context }, range: TimeRange) => range !== context.range,
    canRetry: ({ context }) => context.error?.retryable ?? false,
    canGoBack: ({ context }) => context.fromDashboard,
    /** The dashboard in hand is for the range now chosen (the range may have changed in the post view). */
    dashboardIsCurrent: ({ context }) => context.dashboard !== null && context.dashboard.timeRange === context.range,
  },
}).createMachine({
  id: 'analytics',
  context: ({ input }) => ({
    open: input.open ?? false,
    range: ANALYTICS.defaultRange,
    dashboard: null,
    postId: null,
    post: null,
    fromDashboard: false,
    error: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'opensAtOnce', target: 'dashboard' }, { target: 'closed' }],
    },
    closed: {
      entry: 'reset',
      on: {
        'analytics.open': 'dashboard',
        'analytics.post.open': {
          target: 'post',
          actions: [{ type: 'choosePost', params: ({ event }) => event.postId }, 'cameFromMenu'],
        },
      },
    },
    dashboard: {
      initial: 'loading',
      on: {
        'analytics.close': 'closed',
        'analytics.range': rangeChange,
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadDashboard',
            src: 'loadDashboard',
            input: ({ context }) => ({ range: context.range }),
            onDone: { target: 'loaded', actions: { type: 'showDashboard', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'showFailure', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            },
          },
        },
        loaded: {
          on: {
            'analytics.post.open': {
              target: '#analytics.post',
              actions: [{ type: 'choosePost', params: ({ event }) => event.postId }, 'cameFromDashboard'],
            },
          },
        },
        failed: {
          on: { 'analytics.retry': 'loading' },
        },
      },
    },
    post: {
      initial: 'loading',
      on: {
        'analytics.close': 'closed',
        // Back to the dashboard as it was, or read again when the range changed meanwhile.
        'analytics.post.back': [
          { guard: and(['canGoBack', 'dashboardIsCurrent']), target: '#analytics.dashboard.loaded', actions: 'forgetPost' },
          { guard: 'canGoBack', target: '#analytics.dashboard', actions: 'forgetPost' },
        ],
        'analytics.range': rangeChange,
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadPost',
            src: 'loadPost',
            input: ({ context }) => ({ postId: context.postId ?? '', range: context.range }),
            onDone: { target: 'loaded', actions: { type: 'showPost', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'showFailure', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            },
          },
        },
        loaded: {},
        failed: {
          on: { 'analytics.retry': { guard: 'canRetry', target: 'loading' } },
        },
      },
    },
  },
})

export type AnalyticsMachine = typeof analyticsMachine
export type AnalyticsRef = ActorRefFrom<AnalyticsMachine>
