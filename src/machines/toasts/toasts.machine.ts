import { assign, cancel, enqueueActions, setup, type ActorRefFrom } from 'xstate'

// Toasts (docs/product.md, "Toasts"): five types with fixed lifetimes, at most 20 on screen. One actor for the whole
// app (systemId 'toasts', a child of the app actor). Each toast's expiry is a delayed `toast.dismiss` raised under the
// toast's own id, so a toast that goes early (dismissed, replaced) cancels its timer, and a replaced toast (a loading
// toast becoming success) gets a fresh lifetime.

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

export interface ToastsContext {
  toasts: ReadonlyArray<Toast>
  /** How many toasts were added without an id (their ids are `toast-1`, `toast-2`, ...). */
  sequence: number
}

const idOf = (sequence: number) => `toast-${sequence}`

/** The timer id of a toast's expiry. */
const expiryOf = (id: string) => `toast-expiry:${id}`

export const toastsMachine = setup({
  types: {
    context: {} as ToastsContext,
    events: {} as ToastsEvent,
  },
  actions: {
    /** The new toast goes last; past the limit the oldest go (their timers fire later and find nothing). */
    add: assign(({ context }, toast: Toast) => ({
      toasts: [...context.toasts.filter((t) => t.id !== toast.id), toast].slice(-TOAST_LIMIT),
    })),
    /** Gives an id-less toast the next id, so its timer and its Dismiss button can name it. */
    count: assign(({ context }) => ({ sequence: context.sequence + 1 })),
    remove: assign(({ context }, id: string) => ({ toasts: context.toasts.filter((t) => t.id !== id) })),
    removeAll: assign({ toasts: [] }),
    cancelExpiry: cancel((_, id: string) => expiryOf(id)),
    /** A delayed `toast.dismiss` under the toast's own timer id (so `cancelExpiry` can stop it). */
    scheduleExpiry: enqueueActions(({ enqueue }, { id, kind }: { id: string; kind: ToastType }) => {
      const delay = TOAST_DURATIONS[kind]
      if (delay !== null) enqueue.raise({ type: 'toast.dismiss', id }, { id: expiryOf(id), delay })
    }),
  },
  guards: {
    hasId: (_, id: string | undefined) => id !== undefined,
    isShown: ({ context }, id: string) => context.toasts.some((t) => t.id === id),
    anyShown: ({ context }) => context.toasts.length > 0,
  },
}).createMachine({
  id: 'toasts',
  context: { toasts: [], sequence: 0 },
  initial: 'active',
  states: {
    active: {
      on: {
        'toast.add': [
          {
            guard: { type: 'hasId', params: ({ event }) => event.id },
            actions: [
              { type: 'cancelExpiry', params: ({ event }) => event.id ?? '' },
              { type: 'add', params: ({ event }) => ({ id: event.id ?? '', type: event.kind, message: event.message }) },
              { type: 'scheduleExpiry', params: ({ event }) => ({ id: event.id ?? '', kind: event.kind }) },
            ],
          },
          {
            actions: [
              'count',
              { type: 'add', params: ({ context, event }) => ({ id: idOf(context.sequence), type: event.kind, message: event.message }) },
              { type: 'scheduleExpiry', params: ({ context, event }) => ({ id: idOf(context.sequence), kind: event.kind }) },
            ],
          },
        ],
        'toast.dismiss': {
          guard: { type: 'isShown', params: ({ event }) => event.id },
          actions: [
            { type: 'cancelExpiry', params: ({ event }) => event.id },
            { type: 'remove', params: ({ event }) => event.id },
          ],
        },
        // Pending expiries of cleared toasts fire later and find nothing to remove.
        'toast.clear': { guard: 'anyShown', actions: 'removeAll' },
      },
    },
  },
})

export type ToastsMachine = typeof toastsMachine
export type ToastsRef = ActorRefFrom<ToastsMachine>
