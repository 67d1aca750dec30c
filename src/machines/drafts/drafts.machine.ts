import { assign, fromCallback, fromPromise, setup, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { draftCalls, type DraftsPage, type SavedDraft } from '../../api/drafts.calls'
import type { ComposerRef } from '../composer/composer.machine'
import { postFailureMessage } from '../composer/composer.failure'
import { scheduledAt } from '../composer/composer.drafts'
import { showToast } from '../toasts/notify'
import { DRAFTS_MESSAGES, rescheduleError, type DraftsTab } from './drafts.rules'

// The Drafts & Scheduled screen (docs/product.md, "Drafts and scheduled posts"): two tabs, each a list read page by
// page (Drafts last saved first, Scheduled soonest first, failed ones among them with their reason). A row can be
// opened into the composer (the screen sends it `composer.draft.open`), deleted, and on Scheduled rescheduled (a small
// date and time form, the composer's window rules) or cancelled (it goes back to Drafts). One change at a time
// (tag `busy`); the list is read again after each, and whenever the app's composer (systemId 'composer') has saved
// or posted one: it watches the composer for as long as the screen is open.

export type DraftChange = { kind: 'delete'; id: string } | { kind: 'unschedule'; id: string } | { kind: 'reschedule'; id: string; at: string }

export type DraftsEvent =
  | { type: 'drafts.tab'; tab: DraftsTab }
  | { type: 'drafts.reload' }
  | { type: 'drafts.more' }
  | { type: 'draft.delete'; id: string }
  | { type: 'draft.unschedule'; id: string }
  | { type: 'draft.reschedule.start'; id: string }
  | { type: 'draft.reschedule.change'; date: string; time: string }
  | { type: 'draft.reschedule.save' }
  | { type: 'draft.reschedule.cancel' }

export interface Rescheduling {
  id: string
  date: string
  time: string
  error: string | null
}

export interface DraftsContext {
  tab: DraftsTab
  drafts: SavedDraft[]
  nextCursor: string | null
  rescheduling: Rescheduling | null
}

const toastOf: Record<DraftChange['kind'], string> = {
  delete: DRAFTS_MESSAGES.deleted,
  unschedule: DRAFTS_MESSAGES.cancelled,
  reschedule: DRAFTS_MESSAGES.rescheduled,
}

export const draftsMachine = setup({
  types: { context: {} as DraftsContext, events: {} as DraftsEvent, tags: {} as 'busy' },
  actors: {
    /** Sends `drafts.reload` each time the composer arrives in `posted` (a draft saved or scheduled, a post sent). */
    composerFinished: fromCallback<DraftsEvent>(({ sendBack, system }) => {
      const composer = system.get('composer') as ComposerRef | undefined
      if (!composer) return undefined
      let was = composer.getSnapshot().matches('posted')
      const subscription = composer.subscribe((snapshot) => {
        const now = snapshot.matches('posted')
        if (now && !was) sendBack({ type: 'drafts.reload' })
        was = now
      })
      return () => subscription.unsubscribe()
    }),
    load: fromPromise<DraftsPage, { tab: DraftsTab; cursor: string | null }>(({ input, signal }) =>
      run(draftCalls.getDrafts(input.tab, input.cursor), signal),
    ),
    change: fromPromise<DraftChange, DraftChange>(async ({ input, signal }) => {
      if (input.kind === 'delete') await run(draftCalls.deleteDraft(input.id), signal)
      else await run(draftCalls.updateDraft(input.id, { scheduledAt: input.kind === 'reschedule' ? input.at : null }), signal)
      return input
    }),
  },
  actions: {
    setTab: assign((_, tab: DraftsTab) => ({ tab, drafts: [], nextCursor: null, rescheduling: null })),
    setPage: assign((_, page: DraftsPage) => ({ drafts: page.drafts, nextCursor: page.nextCursor })),
    addPage: assign(({ context }, page: DraftsPage) => ({ drafts: [...context.drafts, ...page.drafts], nextCursor: page.nextCursor })),
    startReschedule: assign(({ context }, id: string) => {
      const draft = context.drafts.find((d) => d.id === id)
      const at = draft?.scheduledAt ? new Date(draft.scheduledAt) : null
      const pad = (n: number) => String(n).padStart(2, '0')
      return {
        rescheduling: {
          id,
          date: at ? `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}` : '',
          time: at ? `${pad(at.getHours())}:${pad(at.getMinutes())}` : '',
          error: null,
        },
      }
    }),
    editReschedule: assign(({ context }, fields: { date: string; time: string }) => ({
      rescheduling: context.rescheduling && { ...context.rescheduling, ...fields, error: null },
    })),
    checkReschedule: assign(({ context }) => ({
      rescheduling: context.rescheduling && {
        ...context.rescheduling,
        error: rescheduleError(context.rescheduling.date, context.rescheduling.time, new Date()) ?? null,
      },
    })),
    stopReschedule: assign({ rescheduling: null }),
    toast: ({ system }, params: { kind: 'success' | 'error'; text: string }) => showToast(system, params.kind, params.text),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
    rescheduleInvalid: ({ context }) => context.rescheduling?.error != null,
  },
}).createMachine({
  id: 'drafts',
  context: { tab: 'drafts', drafts: [], nextCursor: null, rescheduling: null },
  initial: 'loading',
  invoke: { id: 'composerFinished', src: 'composerFinished' },
  on: {
    'drafts.tab': { target: '.loading', actions: { type: 'setTab', params: ({ event }) => event.tab } },
    'drafts.reload': { target: '.loading' },
  },
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ tab: context.tab, cursor: null }),
        onDone: { target: 'ready', actions: { type: 'setPage', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    failed: {},
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'drafts.more': { guard: 'hasMore', target: 'loadingMore' },
            'draft.delete': { target: 'changing', actions: assign({ rescheduling: null }) },
            'draft.unschedule': { target: 'changing', actions: assign({ rescheduling: null }) },
            'draft.reschedule.start': { actions: { type: 'startReschedule', params: ({ event }) => event.id } },
            'draft.reschedule.change': { actions: { type: 'editReschedule', params: ({ event }) => event } },
            'draft.reschedule.cancel': { actions: 'stopReschedule' },
            'draft.reschedule.save': { target: 'checkingReschedule' },
          },
        },
        checkingReschedule: {
          entry: 'checkReschedule',
          always: [{ guard: 'rescheduleInvalid', target: 'idle' }, { target: 'changing' }],
        },
        loadingMore: {
          tags: ['busy'],
          invoke: {
            id: 'loadMore',
            src: 'load',
            input: ({ context }) => ({ tab: context.tab, cursor: context.nextCursor }),
            onDone: { target: 'idle', actions: { type: 'addPage', params: ({ event }) => event.output } },
            onError: { target: 'idle', actions: { type: 'toast', params: { kind: 'error', text: DRAFTS_MESSAGES.loadFailed } } },
          },
        },
        changing: {
          tags: ['busy'],
          invoke: {
            id: 'change',
            src: 'change',
            input: ({ context, event }): DraftChange => {
              if (event.type === 'draft.delete') return { kind: 'delete', id: event.id }
              if (event.type === 'draft.unschedule') return { kind: 'unschedule', id: event.id }
              const r = context.rescheduling
              const at = r ? scheduledAt({ scheduleDate: r.date, scheduleTime: r.time }) : null
              return { kind: 'reschedule', id: r?.id ?? '', at: at?.toISOString() ?? '' }
            },
            onDone: {
              target: '#drafts.loading',
              actions: ['stopReschedule', { type: 'toast', params: ({ event }) => ({ kind: 'success' as const, text: toastOf[event.output.kind] }) }],
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'toast',
                params: ({ event }) => ({ kind: 'error' as const, text: postFailureMessage(event.error) || DRAFTS_MESSAGES.changeFailed }),
              },
            },
          },
        },
      },
    },
  },
})

export type DraftsMachine = typeof draftsMachine
export type DraftsRef = ActorRefFrom<DraftsMachine>
