import { createStore } from '@xstate/store'
import { browserScheduler, type Scheduler, type TimerHandle } from '../lib/scheduler'

// Toasts (docs/product.md, "Toasts"): five types, fixed lifetimes, at most 20 on screen. The store is plain data; each
// toast's expiry is a timer owned by the store's scheduler, cleared when the toast goes early.

export type ToastType = 'blank' | 'error' | 'success' | 'loading' | 'custom'

export interface Toast {
  readonly id: string
  readonly type: ToastType
  readonly message: string
  readonly createdAt: number
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

export interface ToastStoreOptions {
  scheduler?: Scheduler
  now?: () => number
}

export function createToastStore({ scheduler = browserScheduler, now = Date.now }: ToastStoreOptions = {}) {
  const timers = new Map<string, TimerHandle>()
  let sequence = 0

  const stopTimer = (id: string) => {
    const handle = timers.get(id)
    if (handle !== undefined) scheduler.clear(handle)
    timers.delete(id)
  }

  const store = createStore({
    context: { toasts: [] as ReadonlyArray<Toast> },
    on: {
      // The payload says `kind`, not `type`: `type` is the event's own name.
      'toast.add': (context, event: { id: string; kind: ToastType; message: string }, enqueue) => {
        const toast: Toast = { id: event.id, type: event.kind, message: event.message, createdAt: now() }
        // Re-adding an id replaces that toast in place (a loading toast becoming success/error).
        const others = context.toasts.filter((t) => t.id !== event.id)
        const all = [...others, toast]
        const dropped = all.slice(0, Math.max(0, all.length - TOAST_LIMIT))
        const duration = TOAST_DURATIONS[event.kind]
        enqueue.effect(() => {
          for (const old of dropped) stopTimer(old.id)
          stopTimer(toast.id)
          if (duration !== null) {
            timers.set(toast.id, scheduler.set(() => store.trigger['toast.dismiss']({ id: toast.id }), duration))
          }
        })
        return { toasts: all.slice(-TOAST_LIMIT) }
      },
      'toast.dismiss': (context, event: { id: string }, enqueue) => {
        if (!context.toasts.some((t) => t.id === event.id)) return context
        enqueue.effect(() => stopTimer(event.id))
        return { toasts: context.toasts.filter((t) => t.id !== event.id) }
      },
      'toast.clear': (context, _event, enqueue) => {
        enqueue.effect(() => {
          for (const id of [...timers.keys()]) stopTimer(id)
        })
        return context.toasts.length === 0 ? context : { toasts: [] }
      },
    },
  })

  const show = (kind: ToastType) => (message: string, options: { id?: string } = {}) => {
    const id = options.id ?? `toast-${++sequence}`
    store.trigger['toast.add']({ id, kind, message })
    return id
  }

  /** The familiar toast API: `toast('Saved')`, `toast.success(...)`, `toast.error(...)`, `toast.dismiss(id)`. */
  const toast = Object.assign(show('blank'), {
    success: show('success'),
    error: show('error'),
    loading: show('loading'),
    custom: show('custom'),
    dismiss: (id: string) => store.trigger['toast.dismiss']({ id }),
    clear: () => store.trigger['toast.clear'](),
  })

  return { store, toast }
}

export type ToastStore = ReturnType<typeof createToastStore>['store']

const app = createToastStore()

/** The app's toasts. */
export const toastStore: ToastStore = app.store
export const toast = app.toast
