import { createActor, type AnyActorRef } from 'xstate'
import { toastsMachine, type Toast, type ToastsRef } from '../../../src/machines/toasts/toasts.machine'

// Machines show toasts by sending them to the system's toasts actor (src/machines/toasts/notify.ts). A machine under
// test is its own root, so a test gives its system a toasts actor, as the app actor would, and reads what it showed.

let current: ToastsRef | null = null

/** Puts a fresh toasts actor into the actor's system (before it starts) and returns the actor. */
export function withToasts<TActor extends AnyActorRef>(actor: TActor): TActor {
  current = createActor(toastsMachine, { parent: actor, systemId: 'toasts' }).start()
  return actor
}

/** The toasts the last `withToasts` actor's system is showing, oldest first. */
export function shownToasts(): ReadonlyArray<Toast> {
  return current?.getSnapshot().context.toasts ?? []
}
