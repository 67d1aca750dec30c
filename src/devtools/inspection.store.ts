import { createStore } from '@xstate/store'
import type { AnyActorRef, InspectionEvent } from 'xstate'

// Development only. Collects what xstate's `inspect` option reports (actors appearing, their snapshots, the events
// they receive) into a store the inspector panel renders. Secrets in events are masked before they are kept.

export interface LoggedEvent {
  readonly seq: number
  readonly type: string
  readonly payload: string
  readonly at: number
}

export interface InspectedActor {
  readonly sessionId: string
  readonly id: string
  readonly machineId: string | null
  readonly value: string
  readonly status: string
  readonly events: ReadonlyArray<LoggedEvent>
  readonly updatedAt: number
}

const EVENT_LOG_SIZE = 25
const ACTOR_LIMIT = 40
const SECRET = /password|token|privatekey|authorization/i

/** Copies an event with secrets masked, deep enough for our payloads (auth.token, auth.privateKey). */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1))
  if (value instanceof Error) return { error: '_tag' in value ? value._tag : value.name, message: value.message }
  if ('sessionId' in value && 'send' in value) return `[actor ${String(value.sessionId)}]`
  const copy: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    copy[key] = SECRET.test(key) && field !== null ? '•••' : redact(field, depth + 1)
  }
  return copy
}

function describeValue(snapshot: unknown): { value: string; status: string; machineId: string | null } {
  if (typeof snapshot !== 'object' || snapshot === null) return { value: '—', status: 'unknown', machineId: null }
  const status = 'status' in snapshot && typeof snapshot.status === 'string' ? snapshot.status : 'active'
  const machine = 'machine' in snapshot ? (snapshot.machine as { id?: unknown } | undefined) : undefined
  const machineId = typeof machine?.id === 'string' ? machine.id : null
  const value = 'value' in snapshot && snapshot.value !== undefined ? JSON.stringify(snapshot.value) : status
  return { value, status, machineId }
}

export function createInspectionStore(now: () => number = Date.now) {
  let seq = 0
  const store = createStore({
    context: { actors: {} as Readonly<Record<string, InspectedActor>> },
    on: {
      'actor.seen': (context, event: { sessionId: string; id: string; snapshot: unknown }) => {
        const existing = context.actors[event.sessionId]
        const described = describeValue(event.snapshot)
        const actor: InspectedActor = {
          sessionId: event.sessionId,
          id: event.id,
          machineId: described.machineId ?? existing?.machineId ?? null,
          value: described.value,
          status: described.status,
          events: existing?.events ?? [],
          updatedAt: now(),
        }
        const all = { ...context.actors, [event.sessionId]: actor }
        // Keep the newest actors; a long session spawns many short-lived ones.
        const ids = Object.keys(all)
        if (ids.length > ACTOR_LIMIT) {
          const oldest = ids.sort((a, b) => (all[a]?.updatedAt ?? 0) - (all[b]?.updatedAt ?? 0))[0]
          if (oldest) delete all[oldest]
        }
        return { actors: all }
      },
      'actor.received': (context, event: { sessionId: string; eventType: string; payload: string }) => {
        const actor = context.actors[event.sessionId]
        if (!actor) return context
        const logged: LoggedEvent = { seq: ++seq, type: event.eventType, payload: event.payload, at: now() }
        return {
          actors: {
            ...context.actors,
            [event.sessionId]: { ...actor, events: [...actor.events, logged].slice(-EVENT_LOG_SIZE), updatedAt: now() },
          },
        }
      },
      'inspection.clear': () => ({ actors: {} }),
    },
  })

  const idOf = (ref: InspectionEvent['actorRef']): string => {
    const id = (ref as Partial<AnyActorRef>).id
    return typeof id === 'string' ? id : ref.sessionId
  }

  // Actors are created while React renders (useActorRef), so updating the panel right away would set state during
  // another component's render. Events are queued and applied in a microtask instead.
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

  /** The observer to pass as `inspect` to createActor / useActorRef. */
  const inspect = (event: InspectionEvent) => enqueue(() => record(event))

  const record = (event: InspectionEvent) => {
    const ref = event.actorRef
    // An actor is listed from its first snapshot: React creates (and throws away) actors in renders it never
    // commits, and those never start. Events that arrive before the first snapshot (xstate.init) wait for it.
    if (event.type === '@xstate.snapshot') {
      store.trigger['actor.seen']({ sessionId: ref.sessionId, id: idOf(ref), snapshot: event.snapshot })
      const waiting = early.get(ref.sessionId)
      early.delete(ref.sessionId)
      for (const received of waiting ?? []) store.trigger['actor.received'](received)
    } else if (event.type === '@xstate.event') {
      const { type, ...rest } = event.event
      const received = {
        sessionId: ref.sessionId,
        eventType: type,
        payload: Object.keys(rest).length ? JSON.stringify(redact(rest)) : '',
      }
      if (store.getSnapshot().context.actors[ref.sessionId]) store.trigger['actor.received'](received)
      else {
        if (early.size > 200) early.clear()
        early.set(ref.sessionId, [...(early.get(ref.sessionId) ?? []), received])
      }
    }
  }

  return { store, inspect }
}

export type InspectionStore = ReturnType<typeof createInspectionStore>['store']
