import type { AnyEventObject, SnapshotFrom } from 'xstate'
import { toastsMachine } from '../../../src/machines/toasts/toasts.machine'
import type { MachineModel } from '../support/walks'

// The toasts' model: add (with and without an id, with and without a lifetime), replace, dismiss, clear and the
// toasts' own timers (current and outlived). Walked by
// tests/machines/toasts.machine.test.ts and printed by `npm run paths -- toasts`.

type Snapshot = SnapshotFrom<typeof toastsMachine>

const events: AnyEventObject[] = [
  { type: 'toast.add', kind: 'success', message: 'Saved' },
  { type: 'toast.add', kind: 'loading', message: 'Loading…' },
  { type: 'toast.add', id: 'upload', kind: 'loading', message: 'Uploading…' },
  { type: 'toast.add', id: 'upload', kind: 'error', message: 'Upload failed' },
  { type: 'toast.dismiss', id: 'upload' },
  { type: 'toast.dismiss', id: 'toast-1' },
  { type: 'toast.clear' },
  // Timers: the first add's (stamp 1) and the second's; a timer outlived by a replacement or dismissal finds nothing.
  { type: 'toast.expire', id: 'toast-1', stamp: 1 },
  { type: 'toast.expire', id: 'upload', stamp: 2 },
]

const label = (e: AnyEventObject) =>
  e.type === 'toast.add' ? `add(${String(e.id ?? 'new')} ${String(e.kind)})` : e.type === 'toast.dismiss'
      ? `dismiss(${String(e.id)})`
      : e.type === 'toast.expire'
        ? `expire(${String(e.id)} #${String(e.stamp)})`
        : undefined

export const toastsModel = {
  name: 'toasts',
  machine: toastsMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events,
        label,
        serializeState: (s: { context: unknown }) => JSON.stringify(s.context),
        // Every add grows the list or the stamps: the shortest path to every state and through every edge is plenty,
        // and three adds show everything there is to see (a replacement's old timer included).
        edgesOnly: 'toasts queue and leave in any order, each a new context',
        stopWhen: (s: { context: unknown }) => (s as Snapshot).context.added >= 3,
      }),
    },
  ],
} satisfies MachineModel
