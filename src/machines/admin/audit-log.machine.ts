import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { type AuditEntry, type AuditLogPage, adminCalls } from '../../api/reports.calls'

// The audit log at the bottom of the admin panel: newest first, Load more while the server gives a next cursor, Retry
// after a failed read. The panel remounts it after each finished operation, so it always shows the latest entry.

export type AuditLogEvent = { type: 'audit.more' } | { type: 'audit.retry' }

export interface AuditLogContext {
  entries: ReadonlyArray<AuditEntry>
  nextCursor: string | null
}

export const auditLogMachine = setup({
  types: { context: {} as AuditLogContext, events: {} as AuditLogEvent, tags: {} as 'busy' },
  actors: {
    loadLog: fromPromise<AuditLogPage, { cursor: string | null }>(({ input, signal }) =>
      run(adminCalls.getAuditLog(input.cursor), signal),
    ),
  },
  actions: {
    showPage: assign((_, page: AuditLogPage) => ({ entries: page.entries, nextCursor: page.nextCursor })),
    appendPage: assign(({ context }, page: AuditLogPage) => ({
      entries: [...context.entries, ...page.entries.filter((e) => !context.entries.some((held) => held.id === e.id))],
      nextCursor: page.nextCursor,
    })),
  },
  guards: { hasMore: ({ context }) => context.nextCursor !== null },
}).createMachine({
  id: 'auditLog',
  context: { entries: [], nextCursor: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadLog',
        src: 'loadLog',
        input: { cursor: null },
        onDone: { target: 'ready', actions: { type: 'showPage', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    failed: { on: { 'audit.retry': 'loading' } },
    ready: { on: { 'audit.more': { guard: 'hasMore', target: 'loadingMore' } } },
    loadingMore: {
      tags: ['busy'],
      invoke: {
        id: 'loadMore',
        src: 'loadLog',
        input: ({ context }) => ({ cursor: context.nextCursor }),
        onDone: { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => event.output } },
        onError: 'ready',
      },
    },
  },
})

export type AuditLogMachine = typeof auditLogMachine
export type AuditLogRef = ActorRefFrom<AuditLogMachine>
