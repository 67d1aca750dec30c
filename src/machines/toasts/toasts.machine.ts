import { assign, raise, setup, type ActorRefFrom } from 'xstate'

// Toasts (docs/product.md, "Toasts"): five types with fixed lifetimes, at most 20 on screen. One actor for the whole
// app (systemId 'toasts', a child of the app actor). Each toast's expiry is a delayed `toast.dismiss` raised under the
// toast's own id, stamped with the moment the toast was (re)added: a timer whose stamp is not the toast's current
// one finds nothing to do, so a toast that goes early (dismissed, replaced) is never removed by an old timer, and a
// replaced toast (a loading toast becoming success) gets a fresh lifetime. Stamps, not cancelled timers: the timer is
// a static `raise` (a timer id cannot be computed per toast), because toasts are added from other machines' actions
// and XState refuses a `raise()` made while another actor's action runs.

export type ToastType = 'blank' | 'error' | 'success' | 'loading' | 'custom'

export interface Toast {
  readonly id: string
  readonly type: ToastType
  readonly message: string
}

/** Lifetime per type in ms; `null` stays until dismissed (a loading toast is replaced when its work ends). */
export const TOAST_DURATIONS: Readonly<Record<ToastType, number | null>> = {
  blank: 4_000,
  error: 4_000,
  custom: 4_000,
  success: 2_000,
  loading: null,
}

export const TOAST_LIMIT = 20

export type ToastsEvent =
  /**
   * `kind`, not `type`: `type` is the event's own name. Without an id the toast gets the next one; re-adding an id
   * replaces that toast in place.
   */
  | { type: 'toast.add'; id?: string; kind: ToastType; message: string }
  | { type: 'toast.dismiss'; id: string }
  | { type: 'toast.clear' }
  /** The toast's own timer (internal): removes it if it is still the toast stamped `stamp`. */
  | { type: 'toast.expire'; id: string; stamp: number }

export interface ToastsContext {
  toasts: ReadonlyArray<Toast>
  /** How many toasts were added without an id (their ids are `toast-1`, `toast-2`, ...). */
  sequence: number
  /** When each shown toast was last (re)added, counted in adds. */
  stamps: Readonly<Record<string, number>>
  /** How many toasts were added or replaced: the next stamp. */
  added: number
}

/** What `scheduleExpiry` needs: the toast's id and type. */
interface Expiry {
  id: string
  kind: ToastType
}

/** The stamps of the toasts still shown. */
function stampsOf(toasts: ReadonlyArray<Toast>, stamps: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(toasts.flatMap((t) => (t.id in stamps ? [[t.id, stamps[t.id] as number]] : [])))
}

const idOf = (sequence: number) => `toast-${sequence}`


export const toastsMachine = setup({
  types: {
    context: {} as ToastsContext,
    events: {} as ToastsEvent,
  },
  actions: {
    /** The new toast goes last, with a fresh stamp; past the limit the oldest go (their timers find nothing). */
    add: assign(({ context }, toast: Toast) => {
      const toasts = [...context.toasts.filter((t) => t.id !== toast.id), toast].slice(-TOAST_LIMIT)
      const added = context.added + 1
      return { toasts, added, stamps: stampsOf(toasts, { ...context.stamps, [toast.id]: added }) }
    }),
    /** Gives an id-less toast the next id, so its timer and its Dismiss button can name it. */
    count: assign(({ context }) => ({ sequence: context.sequence + 1 })),
    remove: assign(({ context }, id: string) => {
      const toasts = context.toasts.filter((t) => t.id !== id)
      return { toasts, stamps: stampsOf(toasts, context.stamps) }
    }),
    removeAll: assign({ toasts: [], stamps: {} }),
    /** The toast's expiry, stamped with its current add: taken only for types with a lifetime (`expires`). */
    scheduleExpiry: raise(
      ({ context }, params) => {
        const { id } = params as Expiry
        return { type: 'toast.expire' as const, id, stamp: context.stamps[id] ?? 0 }
      },
      { delay: (_, params) => TOAST_DURATIONS[(params as Expiry).kind] ?? 0 },
    ),
  },
  guards: {
    hasId: (_, id: string | undefined) => id !== undefined,
    isShown: ({ context }, id: string) => context.toasts.some((t) => t.id === id),
    anyShown: ({ context }) => context.toasts.length > 0,
    /** The timer belongs to the toast as it is now (not replaced or dismissed since). */
    isCurrent: ({ context }, { id, stamp }: { id: string; stamp: number }) => context.stamps[id] === stamp,
    /** The toast's type has a lifetime (a loading toast stays until replaced or dismissed). */
    expires: (_, kind: ToastType) => TOAST_DURATIONS[kind] !== null,
    hasIdAndExpires: (_, { id, kind }: { id?: string; kind: ToastType }) => id !== undefined && TOAST_DURATIONS[kind] !== null,
  },
}).createMachine({
  id: 'toasts',
  context: { toasts: [], sequence: 0, stamps: {}, added: 0 },
  initial: 'active',
  states: {
    active: {
      on: {
        // Four cases: with or without an id (an id-less toast gets the next one), with or without a lifetime.
        'toast.add': [
          {
            guard: { type: 'hasIdAndExpires', params: ({ event }) => event },
            actions: [
              { type: 'add', params: ({ event }) => ({ id: event.id ?? '', type: event.kind, message: event.message }) },
              { type: 'scheduleExpiry', params: ({ event }) => ({ id: event.id ?? '', kind: event.kind }) },
            ],
          },
          {
            guard: { type: 'hasId', params: ({ event }) => event.id },
            actions: { type: 'add', params: ({ event }) => ({ id: event.id ?? '', type: event.kind, message: event.message }) },
          },
          {
            guard: { type: 'expires', params: ({ event }) => event.kind },
            actions: [
              'count',
              { type: 'add', params: ({ context, event }) => ({ id: idOf(context.sequence), type: event.kind, message: event.message }) },
              { type: 'scheduleExpiry', params: ({ context, event }) => ({ id: idOf(context.sequence), kind: event.kind }) },
            ],
          },
          {
            actions: [
              'count',
              { type: 'add', params: ({ context, event }) => ({ id: idOf(context.sequence), type: event.kind, message: event.message }) },
            ],
          },
        ],
        'toast.dismiss': {
          guard: { type: 'isShown', params: ({ event }) => event.id },
          actions: { type: 'remove', params: ({ event }) => event.id },
        },
        'toast.expire': {
          guard: { type: 'isCurrent', params: ({ event }) => event },
          actions: { type: 'remove', params: ({ event }) => event.id },
        },
        // Pending expiries of cleared toasts fire later and find nothing to remove.
        'toast.clear': { guard: 'anyShown', actions: 'removeAll' },
      },
    },
  },
})

export type ToastsMachine = typeof toastsMachine
export type ToastsRef = ActorRefFrom<ToastsMachine>
