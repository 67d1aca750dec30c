import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate'

// Reads a machine's own definition (machine.root and its transitions), for the state-chart docs
// (docs/tools/charts.ts) and for the model-based tests' coverage checks. Never imported by the app itself.
//
// Names: a guard or action given by name (`'canReact'`, `{ type: 'flip', params }`) reads as that name. xstate's own
// action creators read as what they do (`assign(error)`, `spawnChild(reactionCall)`, `stopChild`, `emit(post.created)`,
// `send post.created to parent`, `raise(tick)`, `cancel(timer)`, `enqueueActions`), guard combinators as words
// (`not isOwner`, `hasMore and isIdle`, `in loaded.idle`), and a function written in place as `inline guard` /
// `inline action` (or its own name when it has one). The timers xstate adds for `after` are left out of entry/exit:
// the `after` transition itself says when it fires.

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
  /** `after` transitions: the delay as written (milliseconds, or the name of a delay from setup). */
  readonly delay: number | string | null
  /** `reenter: true`: the source state is left and entered again (its exit and entry actions run). */
  readonly reenter: boolean
}

export interface StateInfo {
  readonly id: string
  readonly tags: ReadonlyArray<string>
  readonly entry: ReadonlyArray<string>
  readonly exit: ReadonlyArray<string>
  /** What the state runs while it is active: `src`, or `src as id` when the invoke has its own id. */
  readonly invokes: ReadonlyArray<string>
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

/** Names JavaScript gives a function written in place (`guard: () => ...` is called 'guard'): they say nothing. */
const INFERRED_NAMES = new Set(['', 'anonymous', 'guard', 'actions', 'entry', 'exit'])

function ownName(fn: { name: string }): string | null {
  return INFERRED_NAMES.has(fn.name) ? null : fn.name.replace(/^bound /, '')
}

/** 'a' -> 'a'; { loaded: 'idle' } -> 'loaded.idle'; { a: 'x', b: 'y' } -> '(a.x, b.y)'. */
export function stateValueText(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value !== 'object' || value === null) return String(value)
  const parts = Object.entries(value).map(([key, child]) => {
    if (child === undefined || (typeof child === 'object' && child !== null && Object.keys(child).length === 0)) return key
    const inner = stateValueText(child)
    return inner.startsWith('(') ? `${key}${inner}` : `${key}.${inner}`
  })
  return parts.length === 1 ? (parts[0] ?? '') : `(${parts.join(', ')})`
}

function guardText(guard: unknown, nested: boolean): string | null {
  if (guard === undefined || guard === null) return null
  if (typeof guard === 'string') return guard
  if (typeof guard === 'object') return 'type' in guard && typeof guard.type === 'string' ? guard.type : 'inline guard'
  if (typeof guard !== 'function') return 'inline guard'
  const combined = guard as { name: string; guards?: unknown; stateValue?: unknown }
  if (Array.isArray(combined.guards)) {
    const parts = combined.guards.map((inner: unknown) => guardText(inner, true) ?? 'inline guard')
    if (combined.name === 'not') return `not ${parts[0] ?? 'inline guard'}`
    const text = parts.join(` ${combined.name} `)
    return nested && parts.length > 1 ? `(${text})` : text
  }
  if ('stateValue' in combined) return `in ${stateValueText(combined.stateValue)}`
  return ownName(combined) ?? 'inline guard'
}

/** A guard's name: its type, xstate's combinators in words, `inline guard` for a function written in place. */
export function guardName(guard: unknown): string | null {
  return guardText(guard, false)
}

/** '5000' -> '5 s'; 500 -> '500 ms'; 120000 -> '2 min'; a named delay stays its name. */
export function delayText(delay: number | string): string {
  if (typeof delay === 'string') return delay
  if (delay < 1000) return `${delay} ms`
  if (delay % 60_000 === 0) return `${delay / 60_000} min`
  return `${delay / 1000} s`
}

const eventTypeOf = (event: unknown): string | null =>
  typeof event === 'object' && event !== null && 'type' in event && typeof event.type === 'string' ? event.type : null

const later = (delay: unknown) => (typeof delay === 'number' || typeof delay === 'string' ? ` after ${delayText(delay)}` : '')

/** The timer xstate adds to a state's entry (and cancels on exit) for each `after` delay. */
function isAfterTimer(action: Record<string, unknown>): boolean {
  const id = action.type === 'xstate.raise' ? action.id : action.type === 'xstate.cancel' ? action.sendId : null
  return typeof id === 'string' && id.startsWith('xstate.after.')
}

function builtInName(action: Record<string, unknown> & { type: string }): string | null {
  if (isAfterTimer(action)) return null
  switch (action.type) {
    case 'xstate.assign': {
      const { assignment } = action
      const keys = typeof assignment === 'object' && assignment !== null ? Object.keys(assignment) : []
      return keys.length ? `assign(${keys.join(', ')})` : 'assign'
    }
    case 'xstate.raise': {
      const event = eventTypeOf(action.event)
      return `${event ? `raise(${event})` : 'raise'}${later(action.delay)}`
    }
    case 'xstate.sendTo': {
      const event = eventTypeOf(action.event)
      const to = action.to === '#_parent' ? 'parent' : typeof action.to === 'string' ? action.to : null
      const text = event && to ? `send ${event} to ${to}` : event ? `send ${event}` : to ? `send to ${to}` : 'sendTo'
      return `${text}${later(action.delay)}`
    }
    case 'xstate.emit': {
      const event = eventTypeOf(action.event)
      return event ? `emit(${event})` : 'emit'
    }
    case 'xstate.spawnChild': {
      const src = typeof action.src === 'string' ? action.src : null
      const id = typeof action.id === 'string' && action.id !== src ? action.id : null
      return src ? `spawnChild(${src}${id ? ` as ${id}` : ''})` : id ? `spawnChild(${id})` : 'spawnChild'
    }
    case 'xstate.stopChild':
      return typeof action.actorRef === 'string' ? `stopChild(${action.actorRef})` : 'stopChild'
    case 'xstate.cancel':
      return typeof action.sendId === 'string' ? `cancel(${action.sendId})` : 'cancel'
    default:
      // enqueueActions, log and any creator added later: its own name.
      return action.type.replace(/^xstate\./, '')
  }
}

/**
 * An action's name for the charts: the name it is given (`'persist'`, `{ type: 'setError', params }`), what xstate's
 * own creators do, or `inline action`. Null for what is not an action of the machine's own (the `after` timers).
 */
export function actionName(action: unknown): string | null {
  if (typeof action === 'string') return action
  if (typeof action === 'function') {
    const fn = action as unknown as Record<string, unknown> & { name: string }
    if (typeof fn.type === 'string' && fn.type.startsWith('xstate.')) return builtInName({ ...fn, type: fn.type })
    return ownName(fn) ?? 'inline action'
  }
  if (typeof action === 'object' && action !== null && 'type' in action && typeof action.type === 'string') return action.type
  return null
}

/** Names of the actions, in order (see `actionName`). */
export function actionNames(actions: ReadonlyArray<unknown>): string[] {
  return actions.map(actionName).filter((name): name is string => name !== null)
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

/** A named delay from setup reads as its length (`after 10 s`); tests may still provide another under that name. */
function delayOf(transition: AnyTransitionDefinition): unknown {
  const delay: unknown = (transition as { delay?: unknown }).delay
  if (typeof delay !== 'string') return delay
  const named: unknown = (transition.source.machine.implementations.delays as Record<string, unknown>)[delay]
  return typeof named === 'number' ? named : delay
}

export function describeTransition(transition: AnyTransitionDefinition): TransitionInfo {
  const targets = (transition.target ?? []).map((node: AnyStateNode) => node.id)
  const delay = delayOf(transition)
  return {
    key: transitionKey(transition),
    source: transition.source.id,
    targets,
    event: transition.eventType === '' ? 'always' : transition.eventType,
    guard: guardName(transition.guard),
    index: candidatesOf(transition).indexOf(transition),
    actions: actionNames(transition.actions),
    internal: targets.length === 0,
    delay: typeof delay === 'number' || typeof delay === 'string' ? delay : null,
    reenter: transition.reenter === true,
  }
}

/**
 * Every transition the machine defines, the root's own first (`on` of the whole machine), then each state's in
 * definition order: `on`, invoke onDone/onError, `after` and `always`.
 */
export function listTransitions(machine: AnyStateMachine): TransitionInfo[] {
  const all: TransitionInfo[] = []
  for (const node of [machine.root, ...listStateNodes(machine)]) {
    for (const candidates of node.transitions.values()) {
      for (const transition of candidates) all.push(describeTransition(transition))
    }
    for (const transition of node.always ?? []) all.push(describeTransition(transition))
  }
  return all
}

/** What a state does besides its transitions: tags, entry and exit actions, and the actors it invokes. */
export function describeState(node: AnyStateNode): StateInfo {
  const invokes = node.invoke.map((invoke, i) => {
    const src = typeof invoke.src === 'string' && !invoke.src.startsWith('xstate.invoke.') ? invoke.src : 'inline actor'
    const ownId = invoke.id !== `${i}.${node.id}` && invoke.id !== src
    return ownId ? `${src} as ${invoke.id}` : src
  })
  return {
    id: node.id,
    tags: [...node.tags],
    entry: actionNames(node.entry),
    exit: actionNames(node.exit),
    invokes,
  }
}

/** How a transition is triggered, in words: `(immediately)`, `after 10 s`, `(when done)`, or the event's type. */
export function triggerText(t: Pick<TransitionInfo, 'event' | 'delay'>): string {
  if (t.event === 'always') return '(immediately)'
  if (t.delay !== null) return `after ${delayText(t.delay)}`
  if (t.event.startsWith('xstate.done.state.')) return '(when done)'
  if (t.event === '*') return '(any event)'
  return t.event
}
