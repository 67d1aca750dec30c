import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate'
import { getAdjacencyMap, getShortestPaths, getSimplePaths, type SerializedSnapshot, type StatePath, type TraversalOptions } from '@xstate/graph'

// The paths a model-based machine test walks, and their names. Kept apart from the test runner (no vitest here), so
// `npm run paths -- <machine>` (docs/tools/paths.ts) prints exactly the paths the tests replay: both read the same
// model from tests/machines/models/.

export type Path = StatePath<AnyMachineSnapshot, AnyEventObject>

/** A test's own name for an event (e.g. which page a `done` carried); undefined keeps the default name. */
export type EventLabel = (event: AnyEventObject) => string | undefined

export type ModelOptions = Omit<TraversalOptions<AnyMachineSnapshot, AnyEventObject, unknown>, 'events'> & {
  events: ReadonlyArray<AnyEventObject>
  serializeState: (snapshot: AnyMachineSnapshot) => string
  /** Paths are told apart by name: label events that differ only in their payload, or all but one are dropped. */
  label?: EventLabel
  /**
   * Why this walk leaves out the simple paths. By default a walk takes every simple path (no state twice) plus one path
   * through every edge. Where the context makes many distinct states (pages that grow, text typed, rows toggled in any
   * order), the simple paths run to thousands, each the same steps in another order; such a walk takes only the
   * shortest path to every state and one path through every edge, which still enter every state and take every
   * transition (the tests' Coverage check). The reason is required, so every walk that does this says why.
   */
  edgesOnly?: string
  /** Not an option: a walk without simple paths says why, in `edgesOnly`. */
  simplePaths?: never
  /**
   * Which of the events a state is offered, beyond the ones it handles (e.g. only the answer the running call could
   * give). Absent: every event the state handles.
   */
  offer?: (snapshot: AnyMachineSnapshot, event: AnyEventObject) => boolean
}

/** One group of paths a test walks (one `describe` block): a name, and the `modelPaths` options. */
export interface Walk {
  /** Says which group this is ('first visit', 'text'); empty when the machine has a single walk. */
  readonly name: string
  /** Built when the group is walked, not on import: graph inputs (actors) are created then, as in the test. */
  readonly options: () => ModelOptions
}

/** Everything a machine's model test walks. Listed in tests/machines/models/index.ts for `npm run paths`. */
export interface MachineModel<W extends Walk = Walk> {
  /** What `npm run paths -- <name>` takes: the name of the machine's chart, docs/machines/<name>.md. */
  readonly name: string
  readonly machine: AnyStateMachine
  readonly walks: ReadonlyArray<W>
}

/** A state's key where every difference of its context makes a state of its own: its value and its whole context. */
export const valueAndContext = (snapshot: { value: unknown; context: unknown }) => JSON.stringify({ value: snapshot.value, context: snapshot.context })

interface Scenario<TInput> {
  readonly name: string
  readonly events: ReadonlyArray<AnyEventObject>
  /** The machine's input for this walk, also kept on the walk for the test. */
  readonly input?: TInput
}

/**
 * One walk a scenario (its name, the events it offers, its input if it has one of its own), the rest of the options
 * shared by all of them (`{ name: events }` where no scenario has an input of its own). Only for options that hold no actors: the shared options are
 * made once, for every walk, where a walk's own `options` makes its inputs afresh each time it is walked.
 */
export function scenarioWalks<TInput = undefined>(
  scenarios: Readonly<Record<string, ReadonlyArray<AnyEventObject>>> | ReadonlyArray<Scenario<TInput>>,
  shared: Omit<ModelOptions, 'events'>,
): Array<Walk & { readonly input: TInput }> {
  const named: ReadonlyArray<Scenario<TInput>> = Array.isArray(scenarios)
    ? scenarios
    : Object.entries(scenarios).map(([name, events]) => ({ name, events }))
  return named.map(({ name, events, input }) => ({
    name,
    input: input as TInput,
    options: () => ({ ...shared, events, ...(input === undefined ? {} : { input }) }),
  }))
}

/** A path with the name the test gives it (and the walk's labels, to name its steps the same way). */
export interface TitledPath {
  readonly title: string
  readonly path: Path
  readonly label?: EventLabel
}

/**
 * The paths a machine test replays: every simple path (no state visited twice), plus, for every edge of the state
 * graph, the shortest path to its source followed by that edge. Simple paths alone never take an edge back into a
 * state they already visited (failed -> submitting), so the edge paths are what make "every transition" true.
 */
export function modelPaths(machine: AnyStateMachine, { events, label, edgesOnly, offer, ...rest }: ModelOptions): Path[] {
  // Offer each state only the events it handles: an ignored event is a self-loop that tells nothing, and an actor
  // result for a call that is not running cannot be replayed.
  const options = { ...rest, events: (snapshot: AnyMachineSnapshot) => events.filter((event) => snapshot.can(event) && (offer?.(snapshot, event) ?? true)) }
  const simple = edgesOnly === undefined ? getSimplePaths(machine, options) : []
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

/** The paths of one walk of a model, each with its test title. */
export function walkPaths(model: Pick<MachineModel, 'machine'>, walk: Walk): TitledPath[] {
  const options = walk.options()
  return modelPaths(model.machine, options).map((path) => ({ title: describePath(path, options.label), path, label: options.label }))
}

/**
 * The fewest of a walk's paths that still take every transition its paths take (a tester's script): each step is a
 * transition `state --event--> state` (the chart's states, and events as the tests name them, so "a page with more"
 * and "the last page" stay two), and paths are picked greedily, the one taking
 * the most edges not yet taken first, until none is left. Greedy is within a small factor of the smallest set, and
 * the order it gives (longest tour first) is the order a tester would follow.
 */
export function coveringPaths(model: Pick<MachineModel, 'machine'>, walk: Walk): TitledPath[] {
  const options = walk.options()
  const paths = modelPaths(model.machine, options).map((path) => ({ title: describePath(path, options.label), path, label: options.label }))
  const edgesOf = (path: Path) => {
    const edges = new Set<string>()
    let before: AnyMachineSnapshot | undefined
    for (const step of path.steps) {
      if (before) edges.add(`${JSON.stringify(before.value)} ${describeEvent(step.event, options.label)} ${JSON.stringify(step.state.value)}`)
      before = step.state
    }
    return edges
  }
  const remaining = paths.map((titled) => ({ titled, edges: edgesOf(titled.path) }))
  const untaken = new Set(remaining.flatMap(({ edges }) => [...edges]))
  const chosen: TitledPath[] = []
  while (untaken.size > 0) {
    let best = remaining[0]
    let bestGain = -1
    for (const candidate of remaining) {
      let gain = 0
      for (const edge of candidate.edges) if (untaken.has(edge)) gain += 1
      if (gain > bestGain) {
        best = candidate
        bestGain = gain
      }
    }
    if (!best || bestGain <= 0) break
    chosen.push(best.titled)
    for (const edge of best.edges) untaken.delete(edge)
  }
  // A machine with no transitions at all still has its start to show.
  return chosen.length > 0 ? chosen : paths.slice(0, 1)
}

/** An event's name in path titles: the test's label, else its type (with the error's kind for a failed call). */
export function describeEvent(event: AnyEventObject, label?: EventLabel): string {
  const custom = label?.(event)
  if (custom !== undefined) return custom
  const error = event.error as { _tag?: string; status?: number } | undefined
  if (error?._tag) return `${event.type}(${error._tag}${error.status ? ` ${error.status}` : ''})`
  return event.type
}

/** A readable name for a path in test titles. */
export function describePath(path: Path, label?: EventLabel): string {
  const events = path.steps
    .map((step) => step.event)
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => describeEvent(event, label))
  return `${events.join(' -> ') || '(start)'} => ${JSON.stringify(path.state.value)}`
}
