import type { AnyEventObject } from 'xstate'
import type { DataExport } from '../../../src/api/exports.calls'
import { Invalid, Network } from '../../../src/api/errors'
import { exportMachine } from '../../../src/machines/export/export.machine'
import { type MachineModel, scenarioWalks, valueAndContext } from '../support/walks'

// Settings -> Account -> Export my data, in two walks that together take every transition: reading the list (and
// failing to), asking for an export (and being refused), the notification that it is ready, and downloading it (with
// the messages, without them, or failing). Walked by tests/machines/export.test.ts; `npm run paths -- export`.

const at = '2026-11-27T10:00:00.000Z'
export const preparing: DataExport = { id: 'e1', status: 'preparing', createdAt: at, readyAt: null, expiresAt: null, size: null }
export const ready: DataExport = {
  id: 'e1',
  status: 'ready',
  createdAt: at,
  readyAt: '2026-11-27T10:05:00.000Z',
  expiresAt: '2026-12-04T10:05:00.000Z',
  size: 1_300_000,
}
export const failed: DataExport = { ...preparing, status: 'failed' }

export const offline = new Network({ message: 'Unable to reach the server.' })
export const inProgress = new Invalid({ message: 'An export is already being prepared', fromServer: true, status: 409, details: [] })

const scenarios: Array<{ name: string; events: AnyEventObject[] }> = [
  {
    name: 'asking',
    events: [
      { type: 'xstate.done.actor.loadExports', output: [] },
      { type: 'xstate.error.actor.loadExports', error: offline },
      { type: 'export.retry' },
      { type: 'export.request' },
      { type: 'xstate.done.actor.requestExport', output: preparing },
      { type: 'xstate.error.actor.requestExport', error: inProgress },
      { type: 'export.notified' },
    ],
  },
  {
    name: 'downloading',
    events: [
      { type: 'xstate.done.actor.loadExports', output: [ready] },
      { type: 'xstate.done.actor.loadExports', output: [failed] },
      { type: 'export.download' },
      { type: 'xstate.done.actor.saveArchive', output: { messages: 2 } },
      { type: 'xstate.done.actor.saveArchive', output: { withoutMessages: 'This browser has no message key for you yet.' } },
      { type: 'xstate.error.actor.saveArchive', error: offline },
      { type: 'export.request' },
    ],
  },
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'xstate.done.actor.loadExports') {
    const list = event.output as DataExport[]
    return `loaded(${list.map((e) => e.status).join(', ') || 'none'})`
  }
  if (event.type === 'xstate.done.actor.saveArchive') return 'messages' in event.output ? 'saved(with messages)' : 'saved(without messages)'
  if (event.type.startsWith('xstate.error.actor.')) return `${event.type.slice('xstate.error.actor.'.length)} failed(${(event.error as Error).message})`
  return undefined
}

export const exportModel = {
  name: 'export',
  machine: exportMachine,
  walks: scenarioWalks(scenarios, {
    label,
    serializeState: valueAndContext,
    edgesOnly: 'the exports listed, the download and the archive are context: every order of requests, answers and downloads is its own state',
  }),
} satisfies MachineModel
