import { expect, it } from 'vitest'
import { type ActorRefFrom, createActor, createMachine, sendTo, setup, spawnChild, stopChild } from 'xstate'
import { draftsMachine } from '../../src/machines/drafts/drafts.machine'
import { DRAFTS_MESSAGES, rescheduleError } from '../../src/machines/drafts/drafts.rules'
import { selectDrafts, selectIsBusy, selectIsLoading, selectLoadFailed, selectRescheduling, selectTab } from '../../src/machines/drafts/drafts.selectors'
import { draftsModel, offline, refused } from './models/drafts.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The Drafts & Scheduled screen. After each step of the model's walks: the spinner or the failure, the rows, what was
// asked of the server (which tab, which change and its time), and every toast.

const toastOf = { delete: DRAFTS_MESSAGES.deleted, unschedule: DRAFTS_MESSAGES.cancelled, reschedule: DRAFTS_MESSAGES.rescheduled } as const

describeWalks('drafts and scheduled', draftsModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = draftsMachine.provide({ actors: { load: calls.invoked(), change: calls.actor('change') } })
  const actor = withToasts(createActor(machine, { inspect })).start()
  expect(selectIsLoading(actor.getSnapshot()), 'the list is read when the screen opens').toBe(true)
  expect(calls.started).toEqual([{ id: 'load', input: { tab: 'drafts', cursor: null } }])

  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls })) {
    const started = calls.started.slice(startedBefore)
    const toasts = shownToasts().slice(toastsBefore)

    expect(selectIsBusy(snapshot)).toBe(snapshot.matches({ ready: 'changing' }) || snapshot.matches({ ready: 'loadingMore' }))
    expect(selectLoadFailed(snapshot)).toBe(snapshot.matches('failed'))

    if (event.type === 'drafts.tab') {
      expect(selectTab(snapshot)).toBe(event.tab)
      expect(selectDrafts(snapshot)).toEqual([])
      expect(started).toEqual([{ id: 'load', input: { tab: event.tab, cursor: null } }])
    }
    if (event.type === 'drafts.more' && before.matches({ ready: 'idle' }) && before.context.nextCursor) {
      expect(started).toEqual([{ id: 'loadMore', input: { tab: before.context.tab, cursor: before.context.nextCursor } }])
    }
    if (event.type === 'xstate.done.actor.loadMore') {
      expect(selectDrafts(snapshot)).toEqual([...before.context.drafts, ...event.output.drafts])
    }
    if (event.type === 'xstate.error.actor.loadMore') expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: DRAFTS_MESSAGES.loadFailed })])
    if (event.type === 'xstate.error.actor.load') expect(offline.message).toBeTruthy()

    if ((event.type === 'draft.delete' || event.type === 'draft.unschedule') && before.matches({ ready: 'idle' })) {
      expect(started).toEqual([{ id: 'change', input: { kind: event.type === 'draft.delete' ? 'delete' : 'unschedule', id: event.id } }])
    }
    if (event.type === 'draft.reschedule.save' && before.matches({ ready: 'idle' }) && before.context.rescheduling) {
      const r = before.context.rescheduling
      if (!rescheduleError(r.date, r.time, new Date())) {
        expect(started).toEqual([{ id: 'change', input: { kind: 'reschedule', id: r.id, at: new Date(`${r.date}T${r.time}`).toISOString() } }])
      } else {
        // A time outside the window is said under the form; nothing is asked of the server.
        expect(started).toEqual([])
        expect(selectRescheduling(snapshot)?.error).toBeTruthy()
      }
    }
    if (event.type === 'xstate.done.actor.change') {
      expect(selectIsLoading(snapshot), 'the list is read again after a change').toBe(true)
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: toastOf[(event.output as { kind: keyof typeof toastOf }).kind] })])
      expect(selectRescheduling(snapshot)).toBeNull()
    }
    if (event.type === 'xstate.error.actor.change') expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: refused.message })])
  }
  actor.stop()
})

it('reads the list again each time the app composer saves or posts, and no longer once the screen is gone', async () => {
  const calls = new Calls()
  // The app as the screen sees it: a composer with systemId 'composer' that arrives in `posted` after a save or a
  // post, and the screen's actor spawned and stopped beside it (src/views/actors.tsx).
  const composer = createMachine({ initial: 'open', states: { open: { on: { done: 'posted' } }, posted: { on: { open: 'open' } } } })
  const drafts = draftsMachine.provide({ actors: { load: calls.invoked(), change: calls.actor('change') } })
  const app = createActor(
    setup({ actors: { composer, drafts } }).createMachine({
      entry: spawnChild('composer', { id: 'composer', systemId: 'composer' }),
      on: {
        open: { actions: spawnChild('drafts', { id: 'screen' }) },
        close: { actions: stopChild('screen') },
        done: { actions: sendTo('composer', { type: 'done' }) },
        reopen: { actions: sendTo('composer', { type: 'open' }) },
      },
    }),
  ).start()
  app.send({ type: 'open' })
  const screen = app.getSnapshot().children.screen as ActorRefFrom<typeof draftsMachine>
  calls.resolve('load', { drafts: [], nextCursor: null })
  await Promise.resolve()
  expect(screen.getSnapshot().matches('ready')).toBe(true)
  expect(calls.started).toHaveLength(1)

  app.send({ type: 'done' })
  expect(selectIsLoading(screen.getSnapshot()), 'a saved draft shows without a reload by hand').toBe(true)
  expect(calls.started).toHaveLength(2)
  calls.resolve('load', { drafts: [], nextCursor: null })
  await Promise.resolve()
  app.send({ type: 'reopen' })
  expect(calls.started, 'opening the composer again reads nothing').toHaveLength(2)

  app.send({ type: 'close' })
  app.send({ type: 'reopen' })
  app.send({ type: 'done' })
  expect(calls.started, 'a closed screen no longer listens').toHaveLength(2)
  app.stop()
})
