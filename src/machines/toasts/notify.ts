import type { ToastType, ToastsEvent } from './toasts.machine'

// How any machine shows a toast, from an action (`notifyDeleted: ({ system }) => showToast(system, 'success', ...)`):
// it sends `toast.add` to the app's toasts actor (systemId 'toasts'), found through the actor system, so no machine
// imports a global store. A machine running without the app around it (a unit test that does not care about toasts)
// shows none.

/** What an action's `system` offers that this needs: actors by systemId. */
interface SystemLike {
  get(systemId: 'toasts'): { send(event: ToastsEvent): void } | undefined
}

/** Sends one toast to the system's toasts actor, if there is one. */
export function showToast(system: SystemLike, kind: ToastType, message: string): void {
  system.get('toasts')?.send({ type: 'toast.add', kind, message } satisfies ToastsEvent)
}
