import { afterAll, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { auditLogMachine } from '../../src/machines/admin/audit-log.machine'
import { auditLogModel } from './models/audit-log.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, walkPaths } from './support/model'

// The audit log under the admin panel: what it lists after each step (newest first, no entry twice), whether Load more
// is offered, and what it asked the server.

const coverage = new Coverage(auditLogMachine)

describe('the audit log', () => {
  const [walk] = auditLogModel.walks
  it.each(walkPaths(auditLogModel, walk!).map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
    const calls = new Calls()
    const actor = createActor(auditLogMachine.provide({ actors: { loadLog: calls.invoked() } }), { inspect: coverage.inspector }).start()
    coverage.see(actor.getSnapshot())
    expect(calls.started).toEqual([{ id: 'loadLog', input: { cursor: null } }])
    for (const step of path.steps) {
      const before = actor.getSnapshot()
      const startedBefore = calls.started.length
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      const ids = snapshot.context.entries.map((e) => e.id)
      expect(new Set(ids).size).toBe(ids.length)
      const started = calls.started.slice(startedBefore)
      if (step.event.type === 'audit.more') expect(started).toEqual([{ id: 'loadMore', input: { cursor: before.context.nextCursor } }])
      if (step.event.type === 'audit.retry') expect(started).toEqual([{ id: 'loadLog', input: { cursor: null } }])
      if (step.event.type === 'xstate.done.actor.loadMore') expect(ids).toEqual(['e2', 'e1', 'e0'])
      if (step.event.type === 'xstate.error.actor.loadMore') expect(snapshot.context.entries).toEqual(before.context.entries)
    }
    actor.stop()
  })
})

afterAll(() => coverage.expectComplete())
