import type { AnyEventObject } from 'xstate'
import type { DraftsPage, SavedDraft } from '../../../src/api/drafts.calls'
import { Invalid, Network } from '../../../src/api/errors'
import { draftsMachine } from '../../../src/machines/drafts/drafts.machine'
import { type MachineModel, scenarioWalks, valueAndContext } from '../support/walks'

// The Drafts & Scheduled screen, in two walks that together take every transition: reading the tabs (and failing to,
// and more pages), and changing rows (delete, cancel a schedule, reschedule with a bad and a good time, refusals).
// Walked by tests/machines/drafts.test.ts; `npm run paths -- drafts`.

const at = '2026-11-27T10:00:00.000Z'
const pad = (n: number) => String(n).padStart(2, '0')
const local = (d: Date) => ({ date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, time: `${pad(d.getHours())}:${pad(d.getMinutes())}` })
export const later = local(new Date(Date.now() + 2 * 86_400_000))
export const tooSoon = local(new Date(Date.now() - 86_400_000))

export const draft: SavedDraft = {
  id: 'd1',
  content: 'Kept for later',
  visibility: 'public',
  sensitive: false,
  sensitiveReason: null,
  media: [],
  scheduledAt: null,
  failure: null,
  createdAt: at,
  updatedAt: at,
}
export const scheduled: SavedDraft = { ...draft, id: 's1', content: 'Goes out later', scheduledAt: '2027-01-01T09:00:00.000Z' }
export const failedOne: SavedDraft = { ...scheduled, id: 's2', failure: 'Content is required when no media is attached' }

export const firstPage: DraftsPage = { drafts: [draft], nextCursor: 'c1' }
export const lastPage: DraftsPage = { drafts: [scheduled, failedOne], nextCursor: null }
export const offline = new Network({ message: 'Unable to reach the server.' })
export const refused = new Invalid({ message: 'Schedule a post at least 1 minute ahead', fromServer: true, status: 400, details: [] })

const scenarios: Array<{ name: string; events: AnyEventObject[] }> = [
  {
    name: 'reading',
    events: [
      { type: 'xstate.done.actor.load', output: firstPage },
      { type: 'xstate.error.actor.load', error: offline },
      { type: 'drafts.reload' },
      { type: 'drafts.tab', tab: 'scheduled' },
      { type: 'drafts.more' },
      { type: 'xstate.done.actor.loadMore', output: lastPage },
      { type: 'xstate.error.actor.loadMore', error: offline },
    ],
  },
  {
    name: 'changing',
    events: [
      { type: 'xstate.done.actor.load', output: lastPage },
      { type: 'draft.delete', id: 's2' },
      { type: 'draft.unschedule', id: 's1' },
      { type: 'draft.reschedule.start', id: 's1' },
      { type: 'draft.reschedule.change', ...tooSoon },
      { type: 'draft.reschedule.change', ...later },
      { type: 'draft.reschedule.save' },
      { type: 'draft.reschedule.cancel' },
      { type: 'xstate.done.actor.change', output: { kind: 'delete', id: 's2' } },
      { type: 'xstate.error.actor.change', error: refused },
    ],
  },
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'draft.reschedule.change') return `reschedule.change(${event.date === later.date ? 'later' : 'too soon'})`
  if (event.type === 'xstate.done.actor.load' || event.type === 'xstate.done.actor.loadMore') {
    return `${event.type.slice('xstate.done.actor.'.length)}(${(event.output as DraftsPage).drafts.map((d) => d.id).join(', ')})`
  }
  if (event.type.startsWith('xstate.error.actor.')) return `${event.type.slice('xstate.error.actor.'.length)} failed(${(event.error as Error).message})`
  return undefined
}

export const draftsModel = {
  name: 'drafts',
  machine: draftsMachine,
  walks: scenarioWalks(scenarios, {
    label,
    serializeState: valueAndContext,
    edgesOnly: 'the rows, the tab and the reschedule form are context: every order of reads and changes is its own state',
  }),
} satisfies MachineModel
