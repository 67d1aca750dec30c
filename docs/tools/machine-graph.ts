import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate'

// Reads a machine's own definition (machine.root and its transitions), for the state-chart docs
// (docs/tools/charts.ts) and for the model-based tests' coverage checks. Never imported by the app itself.

export interface TransitionInfo {
  /** Stable across machine.provide(): source id, event, position among that event's candidates. */
  readonly key: string
  readonly source: string
  readonly targets: ReadonlyArray<string>
  readonly event: string
  readonly guard: string | null
  /** Position among the candidates for the same event (later ones apply when earlier guards fail). */
  readonly index: number
  readonly actions: ReadonlyArray<string>
  /** Targetless transitions only run actions (or reenter nothing). */
  readonly internal: boolean
}

/** Every state node below the root, depth first, in definition order. */
export function listStateNodes(machine: AnyStateMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = []
  const visit = (node: AnyStateNode) => {
    for (const child of Object.values(node.states)) {
      nodes.push(child)
      visit(child)
    }
  }
  visit(machine.root)
  return nodes
}

function nameOf(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (typeof value === 'function') return value.name || 'inline'
  if (typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string') return value.type
  return null
}

/** Names of named actions (inline functions read as their function name, or 'inline'). */
export function actionNames(actions: ReadonlyArray<unknown>): string[] {
  return actions.map(nameOf).filter((name): name is string => name !== null)
}

function candidatesOf(transition: AnyTransitionDefinition): ReadonlyArray<AnyTransitionDefinition> {
  const source = transition.source
  if (transition.eventType === '') return source.always ?? []
  return source.transitions.get(transition.eventType) ?? []
}

/** The key of a transition definition, as `describeTransition` would report it. */
export function transitionKey(transition: AnyTransitionDefinition): string {
  const index = candidatesOf(transition).indexOf(transition)
  const event = transition.eventType === '' ? 'always' : transition.eventType
  return `${transition.source.id} :: ${event} #${index}`
}

export function describeTransition(transition: AnyTransitionDefinition): TransitionInfo {
  const targets = (transition.target ?? []).map((node: AnyStateNode) => node.id)
  return {
    key: transitionKey(transition),
    source: transition.source.id,
    targets,
    event: transition.eventType === '' ? 'always' : transition.eventType,
    guard: nameOf(transition.guard),
    index: candidatesOf(transition).indexOf(transition),
    actions: actionNames(transition.actions),
    internal: targets.length === 0,
  }
}

/** Every transition the machine defines: `on`, invoke onDone/onError, `after` and `always`. */
export function listTransitions(machine: AnyStateMachine): TransitionInfo[] {
  const all: TransitionInfo[] = []
  for (const node of listStateNodes(machine)) {
    for (const candidates of node.transitions.values()) {
      for (const transition of candidates) all.push(describeTransition(transition))
    }
    for (const transition of node.always ?? []) all.push(describeTransition(transition))
  }
  return all
}
