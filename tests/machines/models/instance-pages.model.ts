import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { PAGE_BODY_TOO_LONG } from '../../../src/api/contract/instance-pages'
import { Invalid, Network } from '../../../src/api/errors'
import type { InstancePage } from '../../../src/api/pages.calls'
import { type InstancePages, type InstancePagesContext, instancePagesMachine } from '../../../src/machines/admin/instance-pages.machine'
import type { MachineModel } from '../support/walks'

// The admin panel's Instance pages editor: both pages load (or not, then Try again), the admin switches tabs, types a
// text that may be saved or a blank one, switches Write and Preview, saves, and the server answers.
// Walked by tests/machines/instance-pages.test.ts and printed by `npm run paths -- instance-pages`.

export const loaded: InstancePages = {
  terms: { slug: 'terms', title: 'Terms of Service', body: 'Default terms', updatedAt: null, isDefault: true },
  privacy: { slug: 'privacy', title: 'Privacy Policy', body: 'Our privacy', updatedAt: '2026-11-01T10:00:00.000Z', isDefault: false },
}
export const NEW_TEXT = '## Be kind\n\nNo spam.'
export const saved: Record<'terms' | 'privacy', InstancePage> = {
  terms: { ...loaded.terms, body: NEW_TEXT, updatedAt: '2026-11-27T10:00:00.000Z', isDefault: false },
  privacy: { ...loaded.privacy, body: NEW_TEXT, updatedAt: '2026-11-27T10:00:00.000Z' },
}
export const tooLong = new Invalid({ message: PAGE_BODY_TOO_LONG, fromServer: true, status: 400, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })

const events: AnyEventObject[] = [
  { type: 'pages.select', slug: 'terms' },
  { type: 'pages.select', slug: 'privacy' },
  { type: 'pages.input', value: NEW_TEXT },
  { type: 'pages.input', value: '   ' },
  { type: 'pages.view', view: 'preview' },
  { type: 'pages.view', view: 'write' },
  { type: 'pages.save' },
  { type: 'pages.retry' },
  { type: 'xstate.done.actor.loadPages', output: loaded },
  { type: 'xstate.error.actor.loadPages', error: offline },
  { type: 'xstate.done.actor.savePage', output: saved.terms },
  { type: 'xstate.done.actor.savePage', output: saved.privacy },
  { type: 'xstate.error.actor.savePage', error: tooLong },
  { type: 'xstate.error.actor.savePage', error: offline },
]

const draftName = (text: string) => (text === NEW_TEXT ? 'new' : text === '   ' ? 'blank' : 'loaded')

/**
 * What tells two editor states apart for the walk: the tab, and per page the draft and whether the new text is
 * saved. The view, the last save's line and the log version are asserted step by step instead: counted in the
 * state they would multiply the paths for nothing (each is set by one event alone).
 */
export function stateKey(s: { value: unknown; context: unknown }) {
  const c = s.context as InstancePagesContext
  return {
    value: s.value,
    slug: c.slug,
    drafts: [draftName(c.drafts.terms), draftName(c.drafts.privacy)],
    saved: c.saved && [c.saved.terms.body === NEW_TEXT, c.saved.privacy.body === NEW_TEXT],
    loadError: c.loadError,
  }
}

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'pages.select') return `select(${event.slug})`
  if (event.type === 'pages.input') return `type(${draftName(event.value as string)})`
  if (event.type === 'pages.view') return `view(${event.view})`
  if (event.type === 'xstate.done.actor.savePage') return `saved(${(event.output as InstancePage).slug})`
  if (event.type.startsWith('xstate.error.actor.')) return `${event.type.replace('xstate.error.actor.', 'failed ')}(${event.error === offline ? 'offline' : 'server'})`
  return undefined
}

/** The save answers for the page being saved, no other. */
function offer(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  if (event.type !== 'xstate.done.actor.savePage') return true
  return (event.output as InstancePage).slug === (snapshot.context as InstancePagesContext).slug
}

export const instancePagesModel = {
  name: 'instance-pages',
  machine: instancePagesMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events,
        label,
        offer,
        serializeState: (s: AnyMachineSnapshot) => JSON.stringify(stateKey(s)),
        edgesOnly: 'two tabs, each with its own draft and saved text, make every order of typing, switching and saving its own state',
      }),
    },
  ],
} satisfies MachineModel
