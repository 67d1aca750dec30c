import { expect } from 'vitest'
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, AnyStateMachine, InspectionEvent, StateValue } from 'xstate'
import { getAdjacencyMap, getShortestPaths, getSimplePaths, type SerializedSnapshot, type StatePath, type TraversalOptions } from '@xstate/graph'
import { listStateNodes, listTransitions, transitionKey } from '../../../docs/tools/machine-graph'
import type { Calls } from './controlled-actors'

// Replays graph paths on real actors and records what they actually did (transitions taken, states entered), so a
// test can assert that the paths together exercise the whole machine.

export type Path = StatePath<AnyMachineSnapshot, AnyEventObject>

/** Lets the promise callbacks and the actor's event queue run. */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

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

/** A test's own name for an event (e.g. which page a `done` carried); undefined keeps the default name. */
export type EventLabel = (event: AnyEventObject) => string | undefined

type Options = Omit<TraversalOptions<AnyMachineSnapshot, AnyEventObject, unknown>, 'events'> & {
  events: ReadonlyArray<AnyEventObject>
  serializeState: (snapshot: AnyMachineSnapshot) => string
  /** Paths are told apart by name: label events that differ only in their payload, or all but one are dropped. */
  label?: EventLabel
  /**
   * Include every simple path (default). Machines whose context makes many distinct states (lists that grow and
   * shrink) can turn it off: the shortest path to every state plus one path through every edge still reach every state
   * and transition, without the combinatorial explosion.
   */
  simplePaths?: boolean
}

/**
 * The paths a machine test replays: every simple path (no state visited twice), plus, for every edge of the state
 * graph, the shortest path to its source followed by that edge. Simple paths alone never take an edge back into a
 * state they already visited (failed -> submitting), so the edge paths are what make "every transition" true.
 */
export function modelPaths(machine: AnyStateMachine, { events, label, simplePaths = true, ...rest }: Options): Path[] {
  // Offer each state only the events it handles: an ignored event is a self-loop that tells nothing, and an actor
  // result for a call that is not running cannot be replayed.
  const options = { ...rest, events: (snapshot: AnyMachineSnapshot) => events.filter((event) => snapshot.can(event)) }
  const simple = simplePaths ? getSimplePaths(machine, options) : []
  const shortest = getShortestPaths(machine, options)
  const adjacency = getAdjacencyMap(machine, options)
  const edges: Path[] = []
  for (const path of shortest) {
    const entry = adjacency[options.serializeState(path.state) as SerializedSnapshot]
    const transitions: Record<string, { event: AnyEventObject; state: AnyMachineSnapshot }> = entry?.transitions ?? {}
    for (const { event, state } of Object.values(transitions)) {
      edges.push({ state, steps: [...path.steps, { state, event }], weight: path.weight + 1 })
    }
  }
  const unique = new Map<string, Path>()
  for (const path of [...simple, ...edges]) unique.set(describePath(path, label), path)
  return [...unique.values()]
}

/** A readable name for a path in test titles. */
export function describePath(path: Path, label?: EventLabel): string {
  const events = path.steps
    .map((step) => step.event)
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => {
      const custom = label?.(event)
      if (custom !== undefined) return custom
      const error = event.error as { _tag?: string; status?: number } | undefined
      if (error?._tag) return `${event.type}(${error._tag}${error.status ? ` ${error.status}` : ''})`
      return event.type
    })
  return `${events.join(' -> ') || '(start)'} => ${JSON.stringify(path.state.value)}`
}
