import { expect } from 'vitest'
import { createActor } from 'xstate'
import { auditLogMachine } from '../../src/machines/admin/audit-log.machine'
import { auditLogModel } from './models/audit-log.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'

// The audit log under the admin panel: what it lists after each step (newest first, no entry twice), whether Load more
// is offered, and what it asked the server.

describeWalks('the audit log', auditLogModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const actor = createActor(auditLogMachine.provide({ actors: { loadLog: calls.invoked() } }), { inspect }).start()
  expect(calls.started).toEqual([{ id: 'loadLog', input: { cursor: null } }])
  for await (const { event, before, snapshot, startedBefore } of replay(actor, { calls })) {
    const ids = snapshot.context.entries.map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
    const started = calls.started.slice(startedBefore)
    if (event.type === 'audit.more') expect(started).toEqual([{ id: 'loadMore', input: { cursor: before.context.nextCursor } }])
    if (event.type === 'audit.retry') expect(started).toEqual([{ id: 'loadLog', input: { cursor: null } }])
    if (event.type === 'xstate.done.actor.loadMore') expect(ids).toEqual(['e2', 'e1', 'e0'])
    if (event.type === 'xstate.error.actor.loadMore') expect(snapshot.context.entries).toEqual(before.context.entries)
  }
  actor.stop()
})

