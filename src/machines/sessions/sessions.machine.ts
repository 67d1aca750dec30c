import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { describeError, serverMessageOr } from '../../api/errors'
import { sessionCalls, type Session, type SessionsPage } from '../../api/sessions.calls'
import { showToast } from '../toasts/notify'
import { hasOthers, othersSignedOut, SESSION_SIGNED_OUT, SESSIONS_LOAD_FAILED, SIGN_OUT_FAILED } from './sessions.rules'

// Settings -> Security -> View Sessions (docs/product.md, "Sessions"): the member's signed-in browsers and devices.
// Each opening reads GET /auth/sessions afresh (spinner; on failure the reason and Try again). Then: "Sign out" on any
// session but this one (it goes from the list at once when the server agrees), "Sign out all other sessions" (then
// the list is read again), Load more while the server gives a next cursor. One change at a time; the dialog cannot be
// closed while one is saving. Every outcome toasts: the success, or the server's words, else ours.

export type SessionsEvent =
  | { type: 'sessions.open' }
  | { type: 'sessions.close' }
  | { type: 'sessions.retry' }
  | { type: 'sessions.more' }
  | { type: 'session.revoke'; id: string }
  | { type: 'sessions.revokeOthers' }

export interface SessionsContext {
  sessions: ReadonlyArray<Session>
  nextCursor: string | null
  /** Why the list could not be read. */
  error: string | null
  /** The session being signed out. */
  revoking: string | null
}

export const sessionsMachine = setup({
  types: {
    context: {} as SessionsContext,
    events: {} as SessionsEvent,
    tags: {} as 'busy' | 'loading' | 'dialog',
  },
  actors: {
    loadSessions: fromPromise<SessionsPage, { cursor: string | null }>(({ input, signal }) =>
      run(sessionCalls.list(input.cursor), signal),
    ),
    revokeSession: fromPromise<void, { id: string }>(({ input, signal }) => run(sessionCalls.revoke(input.id), signal)),
    revokeOthers: fromPromise<number>(({ signal }) => run(sessionCalls.revokeOthers(), signal)),
  },
  actions: {
    showPage: assign((_, page: SessionsPage) => ({ sessions: page.sessions, nextCursor: page.nextCursor, error: null })),
    appendPage: assign(({ context }, page: SessionsPage) => ({
      sessions: [...context.sessions, ...page.sessions.filter((s) => !context.sessions.some((held) => held.id === s.id))],
      nextCursor: page.nextCursor,
    })),
    showLoadError: assign((_, error: unknown) => ({ error: describeError(error, SESSIONS_LOAD_FAILED) })),
    begin: assign((_, id: string) => ({ revoking: id })),
    removeRevoked: assign(({ context }) => ({
      sessions: context.sessions.filter((s) => s.id !== context.revoking),
      revoking: null,
    })),
    settle: assign({ revoking: null }),
    notifyRevoked: ({ system }) => showToast(system, 'success', SESSION_SIGNED_OUT),
    notifyOthersRevoked: ({ system }, count: number) => showToast(system, 'success', othersSignedOut(count)),
    notifyRefused: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, SIGN_OUT_FAILED)),
  },
  guards: {
    isOtherListed: ({ context }, id: string) => context.sessions.some((s) => s.id === id && !s.current),
    mayHaveOthers: ({ context }) => hasOthers(context.sessions) || context.nextCursor !== null,
    hasMore: ({ context }) => context.nextCursor !== null,
  },
}).createMachine({
  id: 'sessions',
  context: { sessions: [], nextCursor: null, error: null, revoking: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'sessions.open': 'open' },
    },
    open: {
      tags: ['dialog'],
      initial: 'loading',
      // Escape, the backdrop and the close button work in every state but the sign-outs: those finish (and toast) first.
      states: {
        loading: {
          tags: ['loading'],
          on: { 'sessions.close': '#sessions.closed' },
          invoke: {
            id: 'loadSessions',
            src: 'loadSessions',
            input: { cursor: null },
            onDone: { target: 'ready', actions: { type: 'showPage', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'showLoadError', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            },
          },
        },
        failed: {
          on: { 'sessions.retry': 'loading', 'sessions.close': '#sessions.closed' },
        },
        ready: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'sessions.close': '#sessions.closed',
                'sessions.more': { guard: 'hasMore', target: 'loadingMore' },
                'session.revoke': {
                  guard: { type: 'isOtherListed', params: ({ event }) => event.id },
                  target: 'revoking',
                  actions: { type: 'begin', params: ({ event }) => event.id },
                },
                'sessions.revokeOthers': { guard: 'mayHaveOthers', target: 'revokingOthers' },
              },
            },
            revoking: {
              tags: ['busy'],
              invoke: {
                id: 'revokeSession',
                src: 'revokeSession',
                input: ({ context }) => ({ id: context.revoking ?? '' }),
                onDone: { target: 'idle', actions: ['notifyRevoked', 'removeRevoked'] },
                onError: {
                  target: 'idle',
                  actions: [{ type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error }, 'settle'],
                },
              },
            },
            revokingOthers: {
              tags: ['busy'],
              invoke: {
                id: 'revokeOthers',
                src: 'revokeOthers',
                // What the server now holds is read again: sessions beyond the first page went too.
                onDone: {
                  target: '#sessions.open.loading',
                  actions: { type: 'notifyOthersRevoked', params: ({ event }) => event.output },
                },
                onError: {
                  target: 'idle',
                  actions: { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
                },
              },
            },
            loadingMore: {
              tags: ['busy'],
              on: { 'sessions.close': '#sessions.closed' },
              invoke: {
                id: 'loadMore',
                src: 'loadSessions',
                input: ({ context }) => ({ cursor: context.nextCursor }),
                onDone: { target: 'idle', actions: { type: 'appendPage', params: ({ event }) => event.output } },
                // Load more stays; the member can try again.
                onError: { target: 'idle' },
              },
            },
          },
        },
      },
    },
  },
})

export type SessionsMachine = typeof sessionsMachine
export type SessionsRef = ActorRefFrom<SessionsMachine>
