import { describe, expect, it } from 'vitest'
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, AnyStateMachine, InspectionEvent, StateValue } from 'xstate'
import { listStateNodes, listTransitions, transitionKey } from '../../../docs/tools/machine-graph'
import { Calls } from './controlled-actors'
import { shownToasts } from './toasts'
import { walkPaths, type MachineModel, type Path, type Walk } from './walks'

// Replays graph paths on real actors and records what they actually did (transitions taken, states entered), so a
// test can assert that the paths together exercise the whole machine. The paths themselves come from ./walks (no
// vitest there, so docs/tools/paths.ts can print them). A model's test is `describeWalks`: it starts the actor for each
// path and checks what the member sees after each step; the walking, recording and checking against the model is here.

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

const isMachine = (logic: unknown): logic is AnyStateMachine =>
  typeof logic === 'object' && logic !== null && 'root' in logic && 'provide' in logic

/**
 * The state machines a machine can spawn or invoke: the machine logic among its setup's actors, by src name. Logic a
 * machine is handed at run time (the app's screens, the member's conversation list) is not known here; its own model
 * walks it.
 */
export function childMachines(machine: AnyStateMachine): Map<string, AnyStateMachine> {
  const actors = (machine.implementations.actors ?? {}) as Record<string, unknown>
  return new Map(Object.entries(actors).filter((entry): entry is [string, AnyStateMachine] => isMachine(entry[1])))
}

/**
 * What a machine's walks did: the states entered and transitions taken by the machine under test, the actors it
 * started (by src name), and the transitions its child machines took while the walks ran.
 *
 * Spawned and invoked machines (the rule `expectComplete` holds a walk to): a child machine's inside is walked by its
 * own model test, which must take every one of its transitions (every-machine-modelled.test.ts fails for a child
 * machine with no model, so no child transition can go untaken by every walk). The parent's walks must start every
 * child machine it declares at least once: that is the parent's part (what it spawns, with which input, and what it
 * does with the child's answers), and a stand-in may play the child, since the child's own walk checks the rest.
 * Where the real child runs, the transitions it takes are recorded under its machine id (`childTransitions`).
 */
export class Coverage {
  readonly states = new Set<string>()
  readonly transitions = new Set<string>()
  /** The src names of the actors the machine under test started (spawned or invoked). */
  readonly started = new Set<string>()
  /** Transitions taken by machines running below the machine under test, by machine id. */
  readonly childTransitions = new Map<string, Set<string>>()

  constructor(private readonly machine: AnyStateMachine) {}

  /** The `inspect` option for createActor: records the root actor's microsteps, what it starts and what they do. */
  inspector = (event: InspectionEvent) => {
    const ref = event.actorRef as AnyActorRef & { _parent?: AnyActorRef; src?: unknown; logic?: unknown }
    if (event.type === '@xstate.actor') {
      if (ref._parent?.sessionId === event.rootId && typeof ref.src === 'string') this.started.add(ref.src)
      return
    }
    if (event.type !== '@xstate.microstep') return
    if (ref.sessionId !== event.rootId) {
      // Promise and callback actors report no microsteps; a machine below the root does.
      if (!isMachine(ref.logic)) return
      const taken = this.childTransitions.get(ref.logic.id) ?? new Set<string>()
      for (const transition of event._transitions) taken.add(transitionKey(transition))
      this.childTransitions.set(ref.logic.id, taken)
      return
    }
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
    const children = [...childMachines(this.machine).keys()]
    expect(children.filter((src) => !this.started.has(src)), 'child machines never started').toEqual([])
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

/** What one replayed step did: the event, the snapshots either side, and how much was shown and asked before it. */
export interface Replayed<TSnapshot, TMark> {
  readonly event: AnyEventObject
  readonly before: TSnapshot
  readonly snapshot: TSnapshot
  /** How many toasts were showing before the step (support/toasts; 0 for an actor without them). */
  readonly toastsBefore: number
  /** How many calls had started before the step. */
  readonly startedBefore: number
  /** What the test's `mark` read before the step (its own recorders' lengths). */
  readonly marked: TMark
}

export interface ReplayOptions<TSnapshot, TMark> {
  /** The controlled calls the path's actor events settle; a fresh, unused set by default. */
  readonly calls?: Calls
  /**
   * What of the snapshot must be the model's after each step: its context by default; a part of it (without the actors
   * it holds, or the model's own state key) or `false` where the test checks what the member sees instead.
   */
  readonly context?: ((snapshot: TSnapshot) => unknown) | false
  /** Read before each step, for the step's checks (how many events a recorder had heard). */
  readonly mark?: () => TMark
}

/** One path's test, as `describeWalks` runs it. */
export interface PathTest<W extends Walk> {
  readonly walk: W
  readonly path: Path
  /** The `inspect` option for the actor under test. */
  readonly inspect: Coverage['inspector']
  /**
   * Replays the path on the started actor, one step at a time: performs the step, records it, checks the actor is in
   * the model's state (and context), then hands the step to the loop's body for the test's own checks.
   */
  readonly replay: <TActor extends AnyActorRef, TMark = undefined>(
    actor: TActor,
    options?: ReplayOptions<ReturnType<TActor['getSnapshot']>, TMark>,
  ) => AsyncGenerator<Replayed<ReturnType<TActor['getSnapshot']>, TMark>>
}

export interface WalksOptions {
  /**
   * Every walk must enter every state and take every transition by itself, checked in its own `describe`: walks that
   * start the machine from different inputs, each a way in that must reach everything.
   */
  readonly eachWalk?: boolean
  /**
   * Tests whose actors count toward the walks' one coverage too (a self-loop the graph cannot show), run before its
   * check. Not with `eachWalk`.
   */
  readonly alsoCovered?: (coverage: Coverage) => void
}

/**
 * A machine's model test: one `describe` per walk (`<name>: <walk>`, or `<name>` for a walk without a name), one test
 * per path of the walk, and then, in `describe(name)`, the test that the paths together entered every state and took
 * every transition (`Coverage.expectComplete`), of the model's machine as the model gives it. What a path's test
 * starts and checks is the test's own (`test`).
 */
export function describeWalks<W extends Walk>(
  name: string,
  model: MachineModel<W>,
  test: (run: PathTest<W>) => Promise<void>,
  { eachWalk = false, alsoCovered }: WalksOptions = {},
): void {
  const complete = (coverage: Coverage) =>
    it('paths enter every state and take every transition', () => {
      coverage.expectComplete()
    })
  const shared = new Coverage(model.machine)
  for (const walk of model.walks) {
    describe(walk.name ? `${name}: ${walk.name}` : name, () => {
      const coverage = eachWalk ? new Coverage(model.machine) : shared
      it.each(walkPaths(model, walk).map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
        await test({ walk, path, inspect: coverage.inspector, replay: (actor, options) => replay(coverage, path, actor, options) })
      })
      if (eachWalk) complete(coverage)
    })
  }
  if (eachWalk) return
  describe(name, () => {
    alsoCovered?.(shared)
    complete(shared)
  })
}

async function* replay<TActor extends AnyActorRef, TMark>(
  coverage: Coverage,
  path: Path,
  actor: TActor,
  { calls = new Calls(), context = (snapshot) => (snapshot as AnyMachineSnapshot).context, mark }: ReplayOptions<ReturnType<TActor['getSnapshot']>, TMark> = {},
): AsyncGenerator<Replayed<ReturnType<TActor['getSnapshot']>, TMark>> {
  type Snapshot = ReturnType<TActor['getSnapshot']>
  coverage.see(actor.getSnapshot() as AnyMachineSnapshot)
  for (const step of path.steps) {
    const before = actor.getSnapshot() as Snapshot
    const toastsBefore = shownToasts().length
    const startedBefore = calls.started.length
    const marked = mark?.() as TMark
    await perform(actor, calls, step.event)
    const snapshot = actor.getSnapshot() as Snapshot
    coverage.see(snapshot as AnyMachineSnapshot)
    expect((snapshot as AnyMachineSnapshot).value).toEqual(step.state.value)
    if (context) expect(context(snapshot)).toEqual(context(step.state as Snapshot))
    yield { event: step.event, before, snapshot, toastsBefore, startedBefore, marked }
  }
}
