import { describe, expect, it } from 'vitest'
import { createActor, createMachine, type AnyEventObject } from 'xstate'
import { checkGroupDraft, DESCRIPTION_TOO_LONG, emptyDraft, NAME_REQUIRED, NAME_TOO_LONG } from '../../src/machines/lib/named-group.rules'
import { namedGroupFormMachine } from '../../src/machines/named-group-form/named-group-form.machine'
import { selectDraft, selectEditing, selectError, selectSaving } from '../../src/machines/named-group-form/named-group-form.selectors'
import { birds, namedGroupFormModel, serverSays } from './models/named-group-form.model'
import { describeWalks, settle } from './support/model'

// The list / collection form. After each step: what is typed, the message under the form, whether it waits for the
// dialog, and what the dialog hears: a valid submit sends the draft trimmed, an invalid one sends nothing and says the
// first rule it breaks, Cancel says so. The walks are the model's.

describeWalks('list / collection form', namedGroupFormModel, async ({ walk, inspect, replay }) => {
  const heard: AnyEventObject[] = []
  // The form runs on its own (the root, as the graph walks it): what it would tell the dialog is recorded instead.
  const machine = namedGroupFormMachine.provide({
    actions: {
      reportSubmitted: ({ context }) => {
        const checked = checkGroupDraft(context.draft)
        heard.push({ type: 'form.submitted', fields: checked.ok ? checked.value : null })
      },
      reportCancelled: () => void heard.push({ type: 'form.cancelled' }),
    },
  })
  const form = createActor(machine, { input: walk.input, inspect }).start()
  expect(selectDraft(form.getSnapshot())).toEqual(walk.input.editing ?? emptyDraft)
  expect(selectEditing(form.getSnapshot())).toBe(walk.input.editing !== undefined)
  expect(selectError(form.getSnapshot())).toBeNull()

  for await (const { event, before, snapshot, marked: { heardBefore } } of replay(form, { mark: () => ({ heardBefore: heard.length }) })) {
    const told = heard.slice(heardBefore)

    expect(selectSaving(snapshot)).toBe(snapshot.matches('submitted'))
    if (event.type === 'form.name' || event.type === 'form.description') {
      // Typing clears the message.
      expect(selectError(snapshot)).toBeNull()
    }
    if (event.type === 'form.submit') {
      const checked = checkGroupDraft(before.context.draft)
      if (checked.ok) {
        // Trimmed; the form waits for the dialog.
        expect(told).toEqual([{ type: 'form.submitted', fields: checked.value }])
        expect(selectSaving(snapshot)).toBe(true)
      } else {
        expect(told, 'nothing is sent').toEqual([])
        expect([NAME_REQUIRED, NAME_TOO_LONG, DESCRIPTION_TOO_LONG]).toContain(checked.message)
        expect(selectError(snapshot)).toBe(checked.message)
      }
    } else if (event.type === 'form.cancel') {
      expect(told).toEqual([{ type: 'form.cancelled' }])
    } else {
      expect(told, 'only Submit and Cancel tell the dialog').toEqual([])
    }
    if (event.type === 'form.refused') {
      // What was typed stays; the dialog's reason shows under the form.
      expect(selectDraft(snapshot)).toEqual(before.context.draft)
      expect(selectError(snapshot)).toBe(serverSays)
      expect(selectSaving(snapshot)).toBe(false)
    }
  }
  form.stop()
})

describe('list / collection form', () => {
  it('tells the dialog that runs it', async () => {
    const heard: AnyEventObject[] = []
    const dialog = createActor(createMachine({ on: { '*': { actions: ({ event }) => void heard.push(event) } } })).start()
    const form = createActor(namedGroupFormMachine, { input: {}, parent: dialog }).start()
    form.send({ type: 'form.name', value: ' Waders ' })
    form.send({ type: 'form.submit' })
    form.send({ type: 'form.refused', message: serverSays })
    form.send({ type: 'form.cancel' })
    await settle()
    expect(heard).toEqual([
      { type: 'form.submitted', fields: { name: 'Waders', description: '', isPrivate: false } },
      { type: 'form.cancelled' },
    ])
  })

  it('edits start from the list or collection as it is', () => {
    expect(createActor(namedGroupFormMachine, { input: { editing: birds } }).getSnapshot().context.draft).toEqual(birds)
  })
})
