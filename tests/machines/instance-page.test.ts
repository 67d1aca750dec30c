import { afterAll, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { instancePageMachine, PAGE_LOAD_FAILED } from '../../src/machines/instance-page/instance-page.machine'
import { instancePageModel, offline, termsPage } from './models/instance-page.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, walkPaths } from './support/model'

// /terms and /privacy: what the visitor sees after each step (the page, or why not) and what was asked of the server.

const coverage = new Coverage(instancePageMachine)

describe('an instance page', () => {
  const [walk] = instancePageModel.walks
  it.each(walkPaths(instancePageModel, walk!).map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
    const calls = new Calls()
    const actor = createActor(instancePageMachine.provide({ actors: { loadPage: calls.invoked() } }), {
      input: { slug: 'terms' },
      inspect: coverage.inspector,
    }).start()
    coverage.see(actor.getSnapshot())
    expect(calls.started).toEqual([{ id: 'loadPage', input: { slug: 'terms' } }])
    for (const step of path.steps) {
      const startedBefore = calls.started.length
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      if (step.event.type === 'page.retry') expect(calls.started.slice(startedBefore)).toEqual([{ id: 'loadPage', input: { slug: 'terms' } }])
      if (step.event.type === 'xstate.done.actor.loadPage') expect(snapshot.context).toMatchObject({ page: termsPage, error: null })
      if (step.event.type === 'xstate.error.actor.loadPage') expect(snapshot.context.error).toBe(offline.message)
    }
    actor.stop()
  })

  it('says it could not load the page in its own words when the server gave none', async () => {
    const calls = new Calls()
    const actor = createActor(instancePageMachine.provide({ actors: { loadPage: calls.invoked() } }), { input: { slug: 'privacy' } }).start()
    await perform(actor, calls, { type: 'xstate.error.actor.loadPage', error: new Error('boom') })
    expect(actor.getSnapshot().context.error).toBe(PAGE_LOAD_FAILED)
    actor.stop()
  })
})

afterAll(() => coverage.expectComplete())
