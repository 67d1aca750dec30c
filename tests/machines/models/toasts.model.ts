import type { AnyEventObject, SnapshotFrom } from 'xstate'
import { toastsMachine } from '../../../src/machines/toasts/toasts.machine'
import type { MachineModel } from '../support/walks'

// The toasts' model: add (with and without an id), replace, dismiss and clear. Walked by
// tests/machines/toasts.machine.test.ts and printed by `npm run paths -- toasts`.

type Snapshot = SnapshotFrom<typeof toastsMachine>

const events: AnyEventObject[] = [
  { type: 'toast.add', kind: 'success', message: 'Saved' },
  { type: 'toast.add', id: 'upload', kind: 'loading', message: 'Uploading…' },
  { type: 'toast.add', id: 'upload', kind: 'error', message: 'Upload failed' },
  { type: 'toast.dismiss', id: 'upload' },
  { type: 'toast.dismiss', id: 'toast-1' },
  { type: 'toast.clear' },
]

const label = (e: AnyEventObject) =>
  e.type === 'toast.add' ? `add(${String(e.id ?? 'new')} ${String(e.kind)})` : e.type === 'toast.dismiss' ? `dismiss(${String(e.id)})` : undefined

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
        // Adding without an id grows the list: the shortest path to every state and through every edge is plenty,
        // and two id-less toasts show everything there is to see.
        simplePaths: false,
        stopWhen: (s: { context: unknown }) => (s as Snapshot).context.sequence >= 2,
      }),
    },
  ],
} satisfies MachineModel
