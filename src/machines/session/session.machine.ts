import { assign, fromPromise, setup, type ErrorActorEvent } from 'xstate'
import { calls, run } from '../../api/calls'
import { isApiError } from '../../api/errors'
import { adoptingCall } from '../lib/boot-prefetch'
import type { SessionUser, StoredSession } from './session.schema'
import { writeStoredSession } from './session.storage'

// The session lifecycle (docs/product.md, "Session check", "Logout"):
// - starts unauthenticated and loading (`booting`);
// - a stored token is checked with GET /auth/me: success sets the user; 401/403 clear the session; a network error,
//   500/503 or anything else keeps the stored session (the member may be offline), and so does no answer within
//   10 s (`after meCheck`: leaving `checking` stops the call, which aborts its fetch);
// - login/register success sets user, token and the *wrapped* private key (never the usable key: that one lives in
//   IndexedDB, kept by the keys actor); a password change replaces the wrapped key; logout clears them even if the
//   call fails;
// - any 401 elsewhere (session.expired, sent by the api client bridge) clears them.
// Every change is written (`persist`) to localStorage when the member chose "Remember me" (and on registration), to
// sessionStorage otherwise (the tab's; a new tab signs in again); that is also what the token is read from on reload.

export interface AuthPayload {
  user: SessionUser
  token: string
  privateKey: string | null
  /** "Remember me" at login; registration (no checkbox) is remembered. */
  remember?: boolean
}

export type SessionEvent =
  | { type: 'session.login.succeeded'; auth: AuthPayload }
  | { type: 'session.register.succeeded'; auth: AuthPayload }
  | { type: 'session.logout' }
  | { type: 'session.expired' }
  | { type: 'session.user.updated'; user: Partial<SessionUser> }
  /** Change password re-wrapped the message key under the new password. */
  | { type: 'session.privateKey.updated'; privateKey: string }

export interface SessionContext {
  user: SessionUser | null
  token: string | null
  privateKey: string | null
  /** Where the session is kept: the browser (true) or the tab (false). */
  remember: boolean
}

export interface SessionInput {
  /** What src/main.tsx read (and validated) from `auth-storage`. */
  stored: StoredSession
}

/** Only these answers mean the stored token is dead: 401 or 403 clear the session. */
export function isRejection(error: unknown): boolean {
  return isApiError(error) && (error._tag === 'Unauthorized' || error._tag === 'Forbidden')
}

const EMPTY: SessionContext = { user: null, token: null, privateKey: null, remember: true }

/** How long the me-check may take before the stored session is kept unchecked (docs/product.md, "Session check"). */
export const ME_CHECK_MS = 10_000

/**
 * The me-check. The boot script may have sent this very request already (lib/boot-prefetch.ts): its answer is adopted
 * if it succeeded, and anything else asks again with `fetchNormally` (tests pass their own), so failures take the
 * usual path below.
 */
export function meCheck(fetchNormally: (signal: AbortSignal) => Promise<SessionUser> = (signal) => run(calls.me(), signal)) {
  return adoptingCall<SessionUser, { token: string | null }>({
    call: 'me',
    tokenOf: ({ input }) => input.token,
    read: (body) => (body as { user: SessionUser }).user,
    fetchNormally: (_, signal) => fetchNormally(signal),
  })
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    tags: {} as 'loading' | 'authenticated' | 'busy',
  },
  actors: {
    checkAuth: meCheck(),
    logout: fromPromise<void>(({ signal }) => run(calls.logout(), signal)),
  },
  actions: {
    setAuth: assign((_, auth: AuthPayload) => ({
      user: auth.user,
      token: auth.token,
      privateKey: auth.privateKey,
      remember: auth.remember ?? true,
    })),
    setUser: assign((_, user: SessionUser) => ({ user })),
    mergeUser: assign(({ context }, fields: Partial<SessionUser>) => ({
      user: context.user ? { ...context.user, ...fields } : context.user,
    })),
    setPrivateKey: assign((_, privateKey: string) => ({ privateKey })),
    clear: assign(() => EMPTY),
    persist: ({ context }) => writeStoredSession(context),
  },
  delays: { meCheck: ME_CHECK_MS },
  guards: {
    hasStoredToken: ({ context }) => context.token !== null,
    isRejection: (_, error: unknown) => isRejection(error),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    user: input.stored.user,
    token: input.stored.token,
    privateKey: input.stored.privateKey,
    remember: input.stored.remember ?? true,
  }),
  initial: 'booting',
  states: {
    /** Unauthenticated and loading: decides at once whether there is a token worth checking. */
    booting: {
      tags: ['loading'],
      // Writing the empty session on the way out also wipes a stored value that failed validation.
      always: [{ guard: 'hasStoredToken', target: 'checking' }, { target: 'unauthenticated', actions: 'persist' }],
    },
    checking: {
      tags: ['loading'],
      invoke: {
        id: 'checkAuth',
        src: 'checkAuth',
        input: ({ context }) => ({ token: context.token }),
        onDone: {
          target: 'authenticated',
          actions: [{ type: 'setUser', params: ({ event }) => event.output }, 'persist'],
        },
        onError: [
          {
            guard: { type: 'isRejection', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'unauthenticated',
            actions: ['clear', 'persist'],
          },
          // Timeout, network, 5xx or anything else: the stored session stays (docs/product.md, "Session check").
          { target: 'authenticated' },
        ],
      },
      // No answer in time: kept, as for a network error. Leaving stops checkAuth, whose signal aborts the fetch.
      after: { meCheck: { target: 'authenticated' } },
      on: {
        // The client bridge reports the me-check's own 401 before the invoke settles; same outcome, first one wins.
        'session.expired': { target: 'unauthenticated', actions: ['clear', 'persist'] },
      },
    },
    unauthenticated: {
      on: {
        'session.login.succeeded': {
          target: 'authenticated',
          actions: [{ type: 'setAuth', params: ({ event }) => event.auth }, 'persist'],
        },
        'session.register.succeeded': {
          target: 'authenticated',
          actions: [{ type: 'setAuth', params: ({ event }) => event.auth }, 'persist'],
        },
      },
    },
    authenticated: {
      tags: ['authenticated'],
      on: {
        'session.logout': { target: 'loggingOut' },
        'session.expired': { target: 'unauthenticated', actions: ['clear', 'persist'] },
        'session.user.updated': {
          actions: [{ type: 'mergeUser', params: ({ event }) => event.user }, 'persist'],
        },
        'session.privateKey.updated': {
          actions: [{ type: 'setPrivateKey', params: ({ event }) => event.privateKey }, 'persist'],
        },
      },
    },
    /** Revokes the token on the server; the session is cleared whether that works or not. */
    loggingOut: {
      tags: ['authenticated', 'busy'],
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: { target: 'unauthenticated', actions: ['clear', 'persist'] },
        onError: { target: 'unauthenticated', actions: ['clear', 'persist'] },
      },
      on: {
        'session.expired': { target: 'unauthenticated', actions: ['clear', 'persist'] },
      },
    },
  },
})

export type SessionMachine = typeof sessionMachine
