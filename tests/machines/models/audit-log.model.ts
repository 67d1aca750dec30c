import type { AnyEventObject } from 'xstate'
import { Network } from '../../../src/api/errors'
import type { AuditLogPage } from '../../../src/api/reports.calls'
import { auditLogMachine } from '../../../src/machines/admin/audit-log.machine'
import { type MachineModel, valueAndContext } from '../support/walks'

// The admin panel's audit log: the first page, Load more, Try again. Walked by tests/machines/admin.test.ts's
// sibling tests/machines/audit-log.test.ts and printed by `npm run paths -- audit-log`.

const entry = (id: string, details: string) => ({
  id,
  action: 'promote' as const,
  actor: { id: 'admin-1', username: 'root' },
  details,
  createdAt: '2026-01-01T00:00:00.000Z',
})
export const firstPage: AuditLogPage = { entries: [entry('e2', 'Promoted @ann to admin'), entry('e1', 'Promoted @bob to admin')], nextCursor: 'c1' }
export const lastPage: AuditLogPage = { entries: [entry('e0', 'Demoted @cy from admin'), entry('e1', 'Promoted @bob to admin')], nextCursor: null }
export const offline = new Network({ message: 'Unable to reach the server.' })

const events: AnyEventObject[] = [
  { type: 'audit.more' },
  { type: 'audit.retry' },
  { type: 'xstate.done.actor.loadLog', output: firstPage },
  { type: 'xstate.error.actor.loadLog', error: offline },
  { type: 'xstate.done.actor.loadMore', output: lastPage },
  { type: 'xstate.error.actor.loadMore', error: offline },
]

export const auditLogModel = {
  name: 'audit-log',
  machine: auditLogMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events,
        serializeState: valueAndContext,
      }),
    },
  ],
} satisfies MachineModel
