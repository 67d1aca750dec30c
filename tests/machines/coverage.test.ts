import { describe, expect, it } from 'vitest'
import { createActor, createMachine, setup, type AnyStateMachine } from 'xstate'
import { childMachines, Coverage, settle } from './support/model'

// The rule a walk's Coverage holds spawned machines to (support/model.ts): the parent's walks must start every child
// machine it declares; the child's own transitions are its own model's to take, and are recorded where it runs.

const child = createMachine({ id: 'child', initial: 'idle', states: { idle: { on: { go: 'done' } }, done: {} } })

const parent = setup({ actors: { child } }).createMachine({
  id: 'parent',
  initial: 'closed',
  states: {
    closed: { on: { open: 'open' } },
    open: { invoke: { id: 'form', src: 'child' }, on: { forward: { actions: ({ self }) => self.getSnapshot().children.form?.send({ type: 'go' }) } } },
  },
})

async function walk(machine: AnyStateMachine, events: ReadonlyArray<string>) {
  const coverage = new Coverage(machine)
  const actor = createActor(machine, { inspect: coverage.inspector }).start()
  coverage.see(actor.getSnapshot())
  for (const type of events) {
    actor.send({ type })
    await settle()
    coverage.see(actor.getSnapshot())
  }
  actor.stop()
  return coverage
}

describe('coverage of spawned machines', () => {
  it('knows the machines a machine can start, by src', () => {
    expect([...childMachines(parent)]).toEqual([['child', child]])
  })

  it('fails a walk that never starts a child machine the parent declares', async () => {
    const closedOnly = setup({ actors: { child } }).createMachine({ id: 'parent', initial: 'closed', states: { closed: {} } })
    const coverage = await walk(closedOnly, [])
    expect(() => coverage.expectComplete()).toThrow(/child machines never started/)
  })

  it('passes once the walk starts it, and records what the child did', async () => {
    const coverage = await walk(parent, ['open', 'forward'])
    expect(coverage.started).toEqual(new Set(['child']))
    expect(coverage.childTransitions.get('child')).toEqual(new Set(['child.idle :: go #0']))
    expect(coverage.transitions).not.toContain('child.idle :: go #0')
    coverage.expectComplete()
  })
})
