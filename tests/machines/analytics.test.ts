import { expect } from 'vitest'
import { createActor } from 'xstate'
import { analyticsMachine } from '../../src/machines/analytics/analytics.machine'
import { LOAD_FAILED, POST_UNAVAILABLE } from '../../src/machines/analytics/analytics.rules'
import {
  selectCanGoBack,
  selectCanRetry,
  selectDashboard,
  selectFailure,
  selectLoading,
  selectOpen,
  selectPost,
  selectRange,
  selectView,
} from '../../src/machines/analytics/analytics.selectors'
import { analyticsModel, notYours } from './models/analytics.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'

// The Analytics Dashboard dialog and a post's analytics. What the member sees after each step: whether the dialog is
// open, which view (dashboard or post) and range, the spinner, the numbers last read (kept while another range
// loads), the failure and whether Retry and Back are offered, and exactly what was asked of the server.

describeWalks('analytics', analyticsModel, async ({ walk, inspect, replay }) => {
  const calls = new Calls()
  const machine = analyticsMachine.provide({
    actors: { loadDashboard: calls.actor('loadDashboard'), loadPost: calls.actor('loadPost') },
  })
  const actor = createActor(machine, { input: walk.input, inspect }).start()
  // `?tab=analytics` opens the dashboard and reads it at once, over 30 days; otherwise nothing shows or loads.
  expect(selectOpen(actor.getSnapshot())).toBe(walk.input.open === true)
  expect(calls.started).toEqual(walk.input.open ? [{ id: 'loadDashboard', input: { range: '30d' } }] : [])

  for await (const { event, before, snapshot, startedBefore } of replay(actor, { calls })) {
    const open = selectOpen(snapshot)
    const view = selectView(snapshot)
    const range = selectRange(snapshot)
    const loading = selectLoading(snapshot)
    const failure = selectFailure(snapshot)
    const started = calls.started.slice(startedBefore)
    expect(loading).toBe(snapshot.matches({ dashboard: 'loading' }) || snapshot.matches({ post: 'loading' }))
    expect(failure !== null).toBe(snapshot.matches({ dashboard: 'failed' }) || snapshot.matches({ post: 'failed' }))
    // Retry only after a failure that may go away; Back only in a post opened from the dashboard.
    expect(selectCanRetry(snapshot)).toBe(failure?.retryable === true)
    expect(selectCanGoBack(snapshot)).toBe(view === 'post' && open && snapshot.context.fromDashboard)

    switch (event.type) {
      case 'analytics.open':
        expect(open).toBe(true)
        expect(view).toBe('dashboard')
        expect(range, 'each opening starts on 30 days').toBe('30d')
        expect(selectDashboard(snapshot), 'nothing old shows').toBeNull()
        expect(started).toEqual([{ id: 'loadDashboard', input: { range: '30d' } }])
        break
      case 'analytics.close':
        expect(open).toBe(false)
        expect(range).toBe('30d')
        expect(started).toEqual([])
        break
      case 'analytics.range':
        expect(range).toBe(event.range)
        expect(loading).toBe(true)
        // One read for the new range; what was shown stays until it answers.
        expect(started).toEqual([
          view === 'post'
            ? { id: 'loadPost', input: { postId: snapshot.context.postId, range: event.range } }
            : { id: 'loadDashboard', input: { range: event.range } },
        ])
        expect(selectDashboard(snapshot)).toEqual(selectDashboard(before))
        break
      case 'analytics.retry':
        expect(before.context.error?.retryable).toBe(true)
        expect(loading).toBe(true)
        expect(failure).toBeNull()
        expect(started).toHaveLength(1)
        expect(started[0]?.input).toMatchObject({ range })
        break
      case 'analytics.post.open':
        expect(open).toBe(true)
        expect(view).toBe('post')
        expect(selectPost(snapshot)).toBeNull()
        expect(started).toEqual([{ id: 'loadPost', input: { postId: event.postId, range } }])
        // The dashboard it came from is kept for Back.
        expect(selectDashboard(snapshot)).toEqual(selectDashboard(before))
        break
      case 'analytics.post.back': {
        expect(view).toBe('dashboard')
        const current = before.context.dashboard?.timeRange === range
        // The dashboard as it was, or a fresh read when the range changed in the post's view.
        expect(started).toEqual(current ? [] : [{ id: 'loadDashboard', input: { range } }])
        expect(snapshot.matches({ dashboard: current ? 'loaded' : 'loading' })).toBe(true)
        break
      }
      case 'xstate.done.actor.loadDashboard':
        expect(selectDashboard(snapshot)).toEqual(event.output)
        expect(failure).toBeNull()
        break
      case 'xstate.done.actor.loadPost':
        expect(selectPost(snapshot)).toEqual(event.output)
        expect(failure).toBeNull()
        break
      case 'xstate.error.actor.loadDashboard':
      case 'xstate.error.actor.loadPost': {
        const final = event.error === notYours
        expect(failure).toEqual({ message: final ? POST_UNAVAILABLE : LOAD_FAILED, retryable: !final })
        // The last numbers read stay in hand (the dialog shows the failure instead).
        expect(selectDashboard(snapshot)).toEqual(selectDashboard(before))
        break
      }
    }
  }
  actor.stop()
})

