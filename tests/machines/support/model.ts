import { expect } from 'vitest'
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, AnyStateMachine, InspectionEvent, StateValue } from 'xstate'
import { listStateNodes, listTransitions, transitionKey } from '../../../docs/tools/machine-graph'
import type { Calls } from './controlled-actors'

// Replays graph paths on real actors and records what they actually did (transitions taken, states entered), so a
// test can assert that the paths together exercise the whole machine. The paths themselves come from ./walks (no
// vitest there, so docs/tools/paths.ts can print them).

export {
  describeEvent,
  describePath,
  modelPaths,
  walkPaths,
  type EventLabel,
  type MachineModel,
  type ModelOptions,
  type Path,
  type TitledPath,
  type Walk,
} from './walks'

/**
 * Lets the promise callbacks and the actor's event queue run. setImmediate runs once every queued promise callback
 * has: all a step needs, without setTimeout's 1 ms floor (paid on every step of every path, it was most of the
 * machine suite's time).
 */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

/** 'a' -> ['m.a']; { open: 'editing' } -> ['m.open', 'm.open.editing']. */
export function stateIds(machineId: string, value: StateValue): string[] {
  if (typeof value === 'string') return [`${machineId}.${value}`]
  return Object.entries(value).flatMap(([key, child]) => {
    const id = `${machineId}.${key}`
    return child === undefined ? [id] : [id, ...stateIds(id, child)]
  })
}

export class Coverage {
  readonly states = new Set<string>()
  readonly transitions = new Set<string>()

  constructor(private readonly machine: AnyStateMachine) {}

  /** The `inspect` option for createActor: records the root actor's microsteps. */
  inspector = (event: InspectionEvent) => {
    // Only the machine under test: invoked promise actors report no microsteps, but be explicit.
    if (event.type !== '@xstate.microstep' || event.actorRef.sessionId !== event.rootId) return
    for (const transition of event._transitions) {
      this.transitions.add(transitionKey(transition))
      this.states.add(transition.source.id)
    }
    const snapshot = event.snapshot as AnyMachineSnapshot
    for (const id of stateIds(this.machine.id, snapshot.value)) this.states.add(id)
  }

  see(snapshot: AnyMachineSnapshot) {
    for (const id of stateIds(this.machine.id, snapshot.value)) this.states.add(id)
  }

  expectComplete() {
    const allStates = listStateNodes(this.machine).map((node) => node.id)
    const allTransitions = listTransitions(this.machine).map((t) => t.key)
    expect([...this.states].sort(), 'every state is entered by some path').toEqual(expect.arrayContaining(allStates))
    expect(allStates.filter((id) => !this.states.has(id)), 'states never entered').toEqual([])
    expect(allTransitions.filter((key) => !this.transitions.has(key)), 'transitions never taken').toEqual([])
  }
}

/** Performs one path step on the real actor: internal actor events drive the controlled calls, others are sent. */
export async function perform(actor: AnyActorRef, calls: Calls, event: AnyEventObject) {
  const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type)
  const failed = /^xstate\.error\.actor\.(.+)$/.exec(event.type)
  if (done?.[1]) calls.resolve(done[1], event.output)
  else if (failed?.[1]) calls.reject(failed[1], event.error)
  else if (event.type !== 'xstate.init') actor.send(event)
  await settle()
}
