import type { ErrorActorEvent } from 'xstate'
import type { GroupDraft } from '../lib/named-group.rules'
import type { NamedGroupFormInput } from './named-group-form.machine'

// The state a dialog is in while its list / collection form is open (Manage Lists, Bookmarks), so both dialogs open,
// save and close the form alike: it runs the form child (`form`, named-group-form.machine.ts) from the row being
// edited, or empty for a new one; Cancel goes back to the dialog's `ready.idle`. A submitted draft is saved as a create
// or an update by the dialog's `change` actor (tag `busy`): saved, the dialog toasts, shows it and closes the form;
// refused, it toasts and tells the form why (which keeps what was typed), and the member can submit again.
// The dialog's setup supplies the `form` and `change` actors and the `begin`, `apply`, `notifySaved`, `notifyRefused`,
// `tellFormRefused` and `settle` actions this names.

/** A list or collection as its dialog holds it. */
export interface HeldGroup extends GroupDraft {
  id: string
}

/** What a submitted form asks the dialog to save. */
export type GroupSave = { kind: 'create'; fields: GroupDraft } | { kind: 'update'; id: string; fields: GroupDraft }

export interface FormHostContext<TChange> {
  /** The row the form edits; null: a new one. */
  editingId: string | null
  change: TChange | null
}

export function namedGroupFormState<TContext extends FormHostContext<TChange>, TChange, TOutput>(dialog: {
  /** The machine's id: a saved form closes to its `ready.idle`. */
  machineId: string
  /** The rows the edited one is found among. */
  rows: (context: TContext) => ReadonlyArray<HeldGroup>
}) {
  return {
    invoke: {
      id: 'form',
      src: 'form',
      input: ({ context }: { context: TContext }): NamedGroupFormInput => {
        const row = dialog.rows(context).find((held) => held.id === context.editingId)
        return row ? { editing: { name: row.name, description: row.description, isPrivate: row.isPrivate } } : {}
      },
    },
    on: { 'form.cancelled': { target: 'idle' } },
    initial: 'editing',
    states: {
      editing: {
        on: {
          'form.submitted': {
            target: 'saving',
            actions: {
              type: 'begin',
              params: ({ context, event }: { context: TContext; event: { fields: GroupDraft } }): GroupSave =>
                context.editingId
                  ? { kind: 'update', id: context.editingId, fields: event.fields }
                  : { kind: 'create', fields: event.fields },
            },
          },
        },
      },
      saving: {
        tags: ['busy'],
        invoke: {
          id: 'saveForm',
          src: 'change',
          input: ({ context }: { context: TContext }) => context.change as TChange,
          onDone: {
            target: `#${dialog.machineId}.ready.idle`,
            actions: ['notifySaved', { type: 'apply', params: ({ event }: { event: { output: TOutput } }) => event.output }],
          },
          onError: {
            target: 'editing',
            actions: [
              { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
              { type: 'tellFormRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
              'settle',
            ],
          },
        },
      },
    },
  } as const
}
