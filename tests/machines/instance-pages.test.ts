import { expect, it } from 'vitest'
import { createActor } from 'xstate'
import { PAGE_BODY_REQUIRED, PAGE_BODY_TOO_LONG } from '../../src/api/contract/instance-pages'
import { instancePagesMachine, PAGE_SAVE_FAILED, PAGES_LOAD_FAILED } from '../../src/machines/admin/instance-pages.machine'
import {
  selectCanSave,
  selectDirty,
  selectDraft,
  selectProblem,
  selectSaved,
  selectView,
} from '../../src/machines/admin/instance-pages.selectors'
import { instancePagesModel, loaded, NEW_TEXT, offline, stateKey, tooLong } from './models/instance-pages.model'
import { Calls } from './support/controlled-actors'
import { type Coverage, describeWalks, perform } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The admin panel's Instance pages editor. After each step: the tab's draft and whether it may be saved (and why
// not), Write or Preview, what was sent to the server, the toast and the line under the editor, and whether the
// audit log reloads.

function start(inspect: Coverage['inspector']) {
  const calls = new Calls()
  const machine = instancePagesMachine.provide({ actors: { loadPages: calls.invoked(), savePage: calls.invoked() } })
  const actor = withToasts(createActor(machine, { inspect })).start()
  return { calls, actor }
}

describeWalks('the instance pages editor', instancePagesModel, async ({ inspect, replay }) => {
  const { calls, actor } = start(inspect)
  expect(calls.started).toEqual([{ id: 'loadPages', input: undefined }])
  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls, context: stateKey })) {
    const started = calls.started.slice(startedBefore)
    const toasts = shownToasts().slice(toastsBefore)

    if (event.type === 'pages.retry') expect(started).toEqual([{ id: 'loadPages', input: undefined }])
    if (event.type === 'xstate.error.actor.loadPages') expect(snapshot.context.loadError).toBe(offline.message)
    if (event.type === 'xstate.done.actor.loadPages') {
      // Each tab starts from the text the server serves.
      expect(selectDraft(snapshot)).toBe(loaded[snapshot.context.slug].body)
      expect(selectDirty(snapshot)).toBe(false)
    }
    if (event.type === 'pages.select') {
      // The other tab's draft is kept, and this tab shows its own.
      expect(snapshot.context.drafts).toEqual(before.context.drafts)
      expect(selectDraft(snapshot)).toBe(before.context.drafts[event.slug as 'terms' | 'privacy'])
    }
    if (event.type === 'pages.input') {
      expect(selectDraft(snapshot)).toBe(event.value)
      const problem = event.value === NEW_TEXT ? null : PAGE_BODY_REQUIRED
      expect(selectProblem(snapshot)).toBe(problem)
      expect(snapshot.context.result).toEqual(before.context.result)
      expect(selectCanSave(snapshot)).toBe(problem === null && event.value !== selectSaved(snapshot)?.body)
    }
    if (event.type === 'pages.view') expect(selectView(snapshot)).toBe(event.view)
    else expect(selectView(snapshot)).toBe(before.context.view)
    if (event.type === 'pages.select') expect(snapshot.context.result).toBeNull()
    if (event.type === 'pages.save') {
      expect(started).toEqual([{ id: 'savePage', input: { slug: before.context.slug, body: selectDraft(before) } }])
      expect(snapshot.hasTag('busy')).toBe(true)
      expect(snapshot.can({ type: 'pages.select', slug: 'privacy' })).toBe(false)
    } else {
      expect(started.filter((c) => c.id === 'savePage')).toEqual([])
    }
    if (event.type === 'xstate.done.actor.savePage') {
      const title = loaded[before.context.slug].title
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: `${title} saved` })])
      expect(snapshot.context.result).toEqual({ ok: true, text: `${title} saved` })
      expect(selectDirty(snapshot)).toBe(false)
      expect(selectCanSave(snapshot)).toBe(false)
      expect(snapshot.context.logVersion).toBe(before.context.logVersion + 1)
    } else if (event.type === 'xstate.error.actor.savePage') {
      // The server's words, else ours; the draft stays to be saved again.
      const message = event.error === tooLong ? PAGE_BODY_TOO_LONG : PAGE_SAVE_FAILED
      expect(toasts).toEqual([expect.objectContaining({ type: 'error', message })])
      expect(snapshot.context.result).toEqual({ ok: false, text: message })
      expect(selectDraft(snapshot)).toBe(selectDraft(before))
      expect(selectCanSave(snapshot)).toBe(true)
      expect(snapshot.context.logVersion).toBe(before.context.logVersion + 1)
    } else {
      expect(toasts).toEqual([])
      expect(snapshot.context.logVersion).toBe(before.context.logVersion)
    }
  }
  actor.stop()
}, {
  alsoCovered: (coverage) => {
    it.each([
      ['the text as it is saved', loaded.terms.body, null],
      ['an empty text', '', PAGE_BODY_REQUIRED],
      ['only spaces and new lines', ' \n ', PAGE_BODY_REQUIRED],
      ['50,001 characters', 'x'.repeat(50_001), PAGE_BODY_TOO_LONG],
      ['50,001 emoji', '🙂'.repeat(50_001), PAGE_BODY_TOO_LONG],
    ])('does not send %s, and says why', async (_what, text, problem) => {
      const { calls, actor } = start(coverage.inspector)
      await perform(actor, calls, { type: 'xstate.done.actor.loadPages', output: loaded })
      await perform(actor, calls, { type: 'pages.input', value: text })
      expect(selectProblem(actor.getSnapshot())).toBe(problem)
      await perform(actor, calls, { type: 'pages.save' })
      expect(actor.getSnapshot().value).toBe('editing')
      expect(calls.started.map((c) => c.id)).toEqual(['loadPages'])
      actor.stop()
    })

    it('takes exactly 50,000 characters, counted as the server counts them (an emoji is one)', async () => {
      const { calls, actor } = start(coverage.inspector)
      await perform(actor, calls, { type: 'xstate.done.actor.loadPages', output: loaded })
      await perform(actor, calls, { type: 'pages.input', value: '🙂'.repeat(50_000) })
      expect(selectProblem(actor.getSnapshot())).toBeNull()
      await perform(actor, calls, { type: 'pages.save' })
      expect(calls.started.map((c) => c.id)).toEqual(['loadPages', 'savePage'])
      actor.stop()
    })

    it('says why the pages could not be loaded in its own words when the server gave none', async () => {
      const { calls, actor } = start(coverage.inspector)
      await perform(actor, calls, { type: 'xstate.error.actor.loadPages', error: new Error('boom') })
      expect(actor.getSnapshot().context.loadError).toBe(PAGES_LOAD_FAILED)
      actor.stop()
    })
  },
})
