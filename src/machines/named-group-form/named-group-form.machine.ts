import { assign, enqueueActions, setup, type ActorRefFrom } from 'xstate'
import { checkGroupDraft, emptyDraft, type GroupDraft } from '../lib/named-group.rules'

// The list / collection form (docs/product.md, "Lists" and "Bookmarks"): one child actor that the Manage Lists and
// the Bookmarks dialogs both run while their form is open, so both forms keep one submit rule. It holds what was
// typed and checks it with named-group.rules.ts: a submit that breaks a rule says which under the form and sends
// nothing; a valid one goes to the dialog trimmed (`form.submitted`) and the form waits, fields locked, for the
// dialog's answer. The dialog saves and closes the form, or sends `form.refused` with why (the server's words, else
// its own default), which the form shows under it, keeping what was typed. Typing again clears the message.

export type NamedGroupFormEvent =
  | { type: 'form.name'; value: string }
  | { type: 'form.description'; value: string }
  | { type: 'form.private'; value: boolean }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  /** From the dialog: its save was refused, and why. */
  | { type: 'form.refused'; message: string }

/** What the form tells the dialog that runs it. */
export type NamedGroupFormReport = { type: 'form.submitted'; fields: GroupDraft } | { type: 'form.cancelled' }

export interface NamedGroupFormInput {
  /** The list or collection being edited as it is now; absent: a new one. */
  editing?: GroupDraft
}

export interface NamedGroupFormContext {
  draft: GroupDraft
  /** Editing an existing one (Save) rather than making a new one (Create). */
  editing: boolean
  /** Why the last submit was refused, by the rules or by the server; cleared by typing. */
  error: string | null
}

/** Tells the dialog; a form running on its own (the state graph the tests walk) has no one to tell. */
const report = (make: (context: NamedGroupFormContext) => NamedGroupFormReport) =>
  enqueueActions<NamedGroupFormContext, NamedGroupFormEvent, undefined, NamedGroupFormEvent, never, never, never, never, never>(
    ({ context, self, enqueue }) => {
      if (self._parent) enqueue.sendParent(make(context))
    },
  )

export const namedGroupFormMachine = setup({
  types: {
    context: {} as NamedGroupFormContext,
    events: {} as NamedGroupFormEvent,
    input: {} as NamedGroupFormInput,
    tags: {} as 'busy',
  },
  actions: {
    typeName: assign(({ context }, value: string) => ({ draft: { ...context.draft, name: value }, error: null })),
    typeDescription: assign(({ context }, value: string) => ({ draft: { ...context.draft, description: value }, error: null })),
    setPrivate: assign(({ context }, value: boolean) => ({ draft: { ...context.draft, isPrivate: value } })),
    /** The first rule the draft breaks, under the form. */
    reject: assign(({ context }) => {
      const checked = checkGroupDraft(context.draft)
      return { error: checked.ok ? null : checked.message }
    }),
    refuse: assign((_, message: string) => ({ error: message })),
    reportSubmitted: report((context) => {
      const checked = checkGroupDraft(context.draft)
      return { type: 'form.submitted', fields: checked.ok ? checked.value : context.draft }
    }),
    reportCancelled: report(() => ({ type: 'form.cancelled' })),
  },
  guards: {
    isValid: ({ context }) => checkGroupDraft(context.draft).ok,
  },
}).createMachine({
  id: 'namedGroupForm',
  context: ({ input }) => ({ draft: input.editing ?? emptyDraft, editing: input.editing !== undefined, error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'form.name': { actions: { type: 'typeName', params: ({ event }) => event.value } },
        'form.description': { actions: { type: 'typeDescription', params: ({ event }) => event.value } },
        'form.private': { actions: { type: 'setPrivate', params: ({ event }) => event.value } },
        'form.submit': [{ guard: 'isValid', target: 'submitted', actions: 'reportSubmitted' }, { actions: 'reject' }],
        'form.cancel': { actions: 'reportCancelled' },
      },
    },
    /** The dialog is saving it: the fields and buttons wait. */
    submitted: {
      tags: ['busy'],
      on: {
        'form.refused': { target: 'editing', actions: { type: 'refuse', params: ({ event }) => event.message } },
      },
    },
  },
})

export type NamedGroupFormMachine = typeof namedGroupFormMachine
export type NamedGroupFormRef = ActorRefFrom<NamedGroupFormMachine>
