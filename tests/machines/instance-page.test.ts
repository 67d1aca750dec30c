import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { instancePageMachine, PAGE_LOAD_FAILED } from '../../src/machines/instance-page/instance-page.machine'
import { instancePageModel, offline, termsPage } from './models/instance-page.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, perform } from './support/model'

// /terms and /privacy: what the visitor sees after each step (the page, or why not) and what was asked of the server.

describeWalks('an instance page', instancePageModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const actor = createActor(instancePageMachine.provide({ actors: { loadPage: calls.invoked() } }), {
    input: { slug: 'terms' },
    inspect,
  }).start()
  expect(calls.started).toEqual([{ id: 'loadPage', input: { slug: 'terms' } }])
  for await (const { event, snapshot, startedBefore } of replay(actor, { calls })) {
    if (event.type === 'page.retry') expect(calls.started.slice(startedBefore)).toEqual([{ id: 'loadPage', input: { slug: 'terms' } }])
    if (event.type === 'xstate.done.actor.loadPage') expect(snapshot.context).toMatchObject({ page: termsPage, error: null })
    if (event.type === 'xstate.error.actor.loadPage') expect(snapshot.context.error).toBe(offline.message)
  }
  actor.stop()
})

describe('an instance page', () => {
  it('says it could not load the page in its own words when the server gave none', async () => {
    const calls = new Calls()
    const actor = createActor(instancePageMachine.provide({ actors: { loadPage: calls.invoked() } }), { input: { slug: 'privacy' } }).start()
    await perform(actor, calls, { type: 'xstate.error.actor.loadPage', error: new Error('boom') })
    expect(actor.getSnapshot().context.error).toBe(PAGE_LOAD_FAILED)
    actor.stop()
  })
})

