import { assign, setup, type AnyEventObject } from 'xstate'
import { namedGroupFormMachine } from '../../../src/machines/named-group-form/named-group-form.machine'
import { type MachineModel, valueAndContext } from '../support/walks'

// The list / collection form's model (the child actor the Manage Lists and Bookmarks dialogs both run): typing,
// each rule a submit can break, a valid submit, Cancel, and the dialog's refusal; new and edit. Walked by
// tests/machines/named-group-form.test.ts and printed by `npm run paths -- named-group-form`.

/** Stands in for the form in the dialogs' own tests: keeps its input and what the dialog told it. */
export const formStandIn = setup({ types: { context: {} as { input: unknown; heard: AnyEventObject[] }, input: {} as unknown } }).createMachine({
  context: ({ input }) => ({ input, heard: [] }),
  on: { '*': { actions: assign(({ context, event }) => ({ heard: [...context.heard, event] })) } },
})

export const birds = { name: 'Birds', description: 'Garden birds', isPrivate: false }
export const serverSays = 'Name already used'

const events: AnyEventObject[] = [
  { type: 'form.name', value: '  Shorebirds ' },
  { type: 'form.name', value: 'x'.repeat(51) },
  { type: 'form.description', value: 'd'.repeat(201) },
  { type: 'form.private', value: true },
  { type: 'form.submit' },
  { type: 'form.cancel' },
  { type: 'form.refused', message: serverSays },
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'form.name' || event.type === 'form.description') {
    const value = event.value as string
    return `${event.type}(${value.length > 20 ? `${value.length} chars` : JSON.stringify(value)})`
  }
  return undefined
}

export const namedGroupFormModel = {
  name: 'named-group-form',
  machine: namedGroupFormMachine,
  walks: [
    { name: 'new', input: {} },
    { name: 'edit', input: { editing: birds } },
  ].map(({ name, input }) => ({
    name,
    input,
    options: () => ({
      input,
      events,
      label,
      serializeState: valueAndContext,
      edgesOnly: 'every keystroke of the name and description is context: every order of typing and answers is its own state',
    }),
  })),
} satisfies MachineModel
