import { createStore } from '@xstate/store'
import type { AnyActorRef, InspectionEvent } from 'xstate'

// Development only. Collects what xstate's `inspect` option reports for the app's whole actor system (actors
// appearing, their snapshots, the events they receive) into a store the inspector panel renders as a tree: each actor
// under its parent, with its systemId, state, context and recent events, and every event since it started, ready to
// copy as a model-test path. Secrets (passwords, tokens, keys) are masked before anything is kept.

export interface LoggedEvent {
  readonly seq: number
  readonly type: string
  /** The event without its type, redacted, as JSON ('' when it carries nothing). */
  readonly payload: string
  readonly at: number
}

export interface InspectedActor {
  readonly sessionId: string
  readonly id: string
  readonly parentId: string | null
  readonly systemId: string | null
  readonly machineId: string | null
  readonly value: string
  readonly status: string
  /** The context, redacted, as indented JSON (cut at CONTEXT_LIMIT characters). */
  readonly context: string
  /** The most recent events, for reading. */
  readonly events: ReadonlyArray<LoggedEvent>
  /** Every event since the actor started (up to PATH_LIMIT), for "copy as test path". */
  readonly path: ReadonlyArray<LoggedEvent>
  readonly updatedAt: number
}

const EVENT_LOG_SIZE = 25
const PATH_LIMIT = 500
const ACTOR_LIMIT = 60
const CONTEXT_LIMIT = 4_000
// Two-factor: the otpauth URI holds the secret; codes, recovery codes and sign-in tickets each prove the member.
const SECRET = /password|token|privatekey|authorization|secret|^uri$|^code$|recoverycodes|ticket/i

/** Copies a value with secrets masked and actors, machines, files and cycles named instead of walked. */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? '[function]' : value
  if (seen.has(value)) return '[circular]'
  if (depth > 5) return '[…]'
  seen.add(value)
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => redact(item, depth + 1, seen))
  if (value instanceof Error) return { error: '_tag' in value ? value._tag : value.name, message: value.message }
  if (typeof File !== 'undefined' && value instanceof File) return `[file ${value.name}]`
  if ('sessionId' in value && 'send' in value) return `[actor ${String((value as { id?: unknown }).id ?? value.sessionId)}]`
  if ('transition' in value && 'getInitialSnapshot' in value) return `[logic ${String((value as { id?: unknown }).id ?? '')}]`
  const copy: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    copy[key] = SECRET.test(key) && field !== null && field !== undefined ? '•••' : redact(field, depth + 1, seen)
  }
  return copy
}

function describeSnapshot(snapshot: unknown): { value: string; status: string; machineId: string | null; context: string | null } {
  if (typeof snapshot !== 'object' || snapshot === null) return { value: '—', status: 'unknown', machineId: null, context: null }
  const status = 'status' in snapshot && typeof snapshot.status === 'string' ? snapshot.status : 'active'
  const machine = 'machine' in snapshot ? (snapshot.machine as { id?: unknown } | undefined) : undefined
  const machineId = typeof machine?.id === 'string' ? machine.id : null
  const value = 'value' in snapshot && snapshot.value !== undefined ? JSON.stringify(snapshot.value) : status
  const raw = 'context' in snapshot && snapshot.context !== undefined ? JSON.stringify(redact(snapshot.context), null, 2) : null
  const context = raw && raw.length > CONTEXT_LIMIT ? `${raw.slice(0, CONTEXT_LIMIT)}\n…` : raw
  return { value, status, machineId, context }
}

/**
 * The events an actor received since it started, as a path a model test can replay with `perform(actor, calls,
 * event)` (tests/machines/support/model.ts): invoked calls' results appear as `xstate.done.actor.<id>` /
 * `xstate.error.actor.<id>` events with their output, which `perform` hands to the controlled call.
 */
export function testPath(actor: InspectedActor): string {
  const name = actor.systemId ?? actor.machineId ?? actor.id
  const steps = actor.path
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => `  { type: ${JSON.stringify(event.type)}${event.payload ? `, ...${event.payload}` : ''} },`)
  return [`// ${name}: ${steps.length} events since it started, ending in ${actor.value}`, 'const path = [', ...steps, ']'].join('\n')
}

export function createInspectionStore(now: () => number = Date.now) {
  let seq = 0
  const store = createStore({
    context: { actors: {} as Readonly<Record<string, InspectedActor>> },
    on: {
      'actor.seen': (
        context,
        event: { sessionId: string; id: string; parentId: string | null; systemId: string | null; snapshot: unknown },
      ) => {
        const existing = context.actors[event.sessionId]
        const described = describeSnapshot(event.snapshot)
        const actor: InspectedActor = {
          sessionId: event.sessionId,
          id: event.id,
          parentId: event.parentId,
          systemId: event.systemId,
          machineId: described.machineId ?? existing?.machineId ?? null,
          value: described.value,
          status: described.status,
          context: described.context ?? existing?.context ?? '',
          events: existing?.events ?? [],
          path: existing?.path ?? [],
          updatedAt: now(),
        }
        const all = { ...context.actors, [event.sessionId]: actor }
        // Keep the newest actors; a long session spawns many short-lived ones (stopped ones go first).
        const ids = Object.keys(all)
        if (ids.length > ACTOR_LIMIT) {
          const rank = (id: string) => (all[id]?.status === 'active' ? 1 : 0) * 1e15 + (all[id]?.updatedAt ?? 0)
          const oldest = ids.sort((a, b) => rank(a) - rank(b))[0]
          if (oldest) delete all[oldest]
        }
        return { actors: all }
      },
      'actor.received': (context, event: { sessionId: string; eventType: string; payload: string }) => {
        const actor = context.actors[event.sessionId]
        if (!actor) return context
        const logged: LoggedEvent = { seq: ++seq, type: event.eventType, payload: event.payload, at: now() }
        const updated: InspectedActor = {
          ...actor,
          events: [...actor.events, logged].slice(-EVENT_LOG_SIZE),
          path: actor.path.length < PATH_LIMIT ? [...actor.path, logged] : actor.path,
          updatedAt: now(),
        }
        return { actors: { ...context.actors, [event.sessionId]: updated } }
      },
      'inspection.clear': () => ({ actors: {} }),
    },
  })

  const describeRef = (ref: InspectionEvent['actorRef']) => {
    const actor = ref as Partial<AnyActorRef> & { systemId?: unknown }
    return {
      sessionId: ref.sessionId,
      id: typeof actor.id === 'string' ? actor.id : ref.sessionId,
      parentId: actor._parent?.sessionId ?? null,
      systemId: typeof actor.systemId === 'string' ? actor.systemId : null,
    }
  }

  // Actors are created while React renders, so updating the panel right away would set state during another
  // component's render. Events are queued and applied in a microtask instead.
  let queue: Array<() => void> = []
  const early = new Map<string, Array<{ sessionId: string; eventType: string; payload: string }>>()
  const enqueue = (apply: () => void) => {
    queue.push(apply)
    if (queue.length > 1) return
    queueMicrotask(() => {
      const batch = queue
      queue = []
      for (const run of batch) run()
    })
  }

  /** The observer to pass as `inspect` to the root actor: it sees every actor of the system. */
  const inspect = (event: InspectionEvent) => {
    // Payloads are redacted now, while they are what the actor received (later they may have changed).
    if (event.type === '@xstate.event') {
      const { type, ...rest } = event.event
      const received = { sessionId: event.actorRef.sessionId, eventType: type, payload: Object.keys(rest).length ? JSON.stringify(redact(rest)) : '' }
      enqueue(() => recordEvent(received))
    } else if (event.type === '@xstate.snapshot') {
      const seen = { ...describeRef(event.actorRef), snapshot: event.snapshot }
      enqueue(() => recordSnapshot(seen))
    }
  }

  // An actor is listed from its first snapshot; events that arrive before it (xstate.init) wait for it.
  const recordSnapshot = (seen: Parameters<(typeof store.trigger)['actor.seen']>[0]) => {
    store.trigger['actor.seen'](seen)
    const waiting = early.get(seen.sessionId)
    early.delete(seen.sessionId)
    for (const received of waiting ?? []) store.trigger['actor.received'](received)
  }
  const recordEvent = (received: { sessionId: string; eventType: string; payload: string }) => {
    if (store.getSnapshot().context.actors[received.sessionId]) store.trigger['actor.received'](received)
    else {
      if (early.size > 200) early.clear()
      early.set(received.sessionId, [...(early.get(received.sessionId) ?? []), received])
    }
  }

  return { store, inspect }
}

export type InspectionStore = ReturnType<typeof createInspectionStore>['store']

/** The actors as a tree: roots first, each followed by its children (depth for indentation). */
export function actorTree(actors: Readonly<Record<string, InspectedActor>>): Array<{ actor: InspectedActor; depth: number }> {
  const all = Object.values(actors)
  const children = new Map<string | null, InspectedActor[]>()
  for (const actor of all) {
    const parent = actor.parentId && actors[actor.parentId] ? actor.parentId : null
    children.set(parent, [...(children.get(parent) ?? []), actor])
  }
  const order = (list: InspectedActor[]) =>
    [...list].sort((a, b) => Number(b.status === 'active') - Number(a.status === 'active') || a.sessionId.localeCompare(b.sessionId, undefined, { numeric: true }))
  const rows: Array<{ actor: InspectedActor; depth: number }> = []
  const visit = (actor: InspectedActor, depth: number) => {
    rows.push({ actor, depth })
    for (const child of order(children.get(actor.sessionId) ?? [])) visit(child, depth + 1)
  }
  for (const root of order(children.get(null) ?? [])) visit(root, 0)
  return rows
}
