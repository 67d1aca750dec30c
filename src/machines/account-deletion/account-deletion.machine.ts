import { assign, fromPromise, setup } from 'xstate'
import { sayRefused } from '../lib/say-refused'
import type { SessionRef } from '../session/session-ref'
import { showToast } from '../toasts/notify'
import { deleteAccount, type DeletionInput } from './account-deletion.calls'
import { ACCOUNT_DELETING, DELETE_FAILED, type DeletionFacts, type DeletionFields, deletionProblem } from './account-deletion.rules'

// The Delete account dialog (Settings -> Account). closed -> open.editing -> open.deleting (the password derived into
// its secret, then POST /auth/delete-account) -> deleted (toast, and the session ends: the server has already revoked
// every token, so the app goes to the sign-in screen) or open.failed (the dialog stays, with the server's reason).
// A form that breaks the rules (account-deletion.rules.ts) is refused here too.

export type AccountDeletionEvent =
  | { type: 'deletion.open' }
  | { type: 'deletion.close' }
  | ({ type: 'deletion.submit' } & DeletionFields)

export interface AccountDeletionContext extends DeletionFacts {
  error: string | null
  /** The typed fields while the deletion runs (never persisted). */
  fields: DeletionFields | null
}

export const accountDeletionMachine = setup({
  types: {
    context: {} as AccountDeletionContext,
    events: {} as AccountDeletionEvent,
    input: {} as DeletionFacts,
    tags: {} as 'busy' | 'dialog',
  },
  actors: {
    deleteAccount: fromPromise<string, DeletionInput>(({ input, signal, system }) =>
      deleteAccount(input, signal, () => announceDeleted(system)),
    ),
  },
  actions: {
    notifyDeleting: ({ system }) => showToast(system, 'success', ACCOUNT_DELETING),
    notifyFailure: ({ system }, message: string) => showToast(system, 'error', message),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
    keepFields: assign((_, fields: DeletionFields) => ({ fields })),
    forgetFields: assign({ fields: null }),
    /** Every token is already revoked: the session ends here too, which shows the sign-in screen. */
    signOut: ({ system }) => endSession(system),
  },
  guards: {
    isValid: ({ context }, fields: DeletionFields) => deletionProblem(fields, context) === null,
  },
}).createMachine({
  id: 'accountDeletion',
  context: ({ input }) => ({ ...input, error: null, fields: null }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'deletion.open': { target: 'open' } },
    },
    open: {
      tags: ['dialog'],
      initial: 'editing',
      entry: 'clearError',
      states: {
        editing: {
          on: {
            'deletion.submit': {
              guard: { type: 'isValid', params: ({ event }) => pick(event) },
              target: 'deleting',
              actions: { type: 'keepFields', params: ({ event }) => pick(event) },
            },
            'deletion.close': { target: '#accountDeletion.closed' },
          },
        },
        /** Not closable: closing would hide whether the account is going. */
        deleting: {
          tags: ['busy'],
          invoke: {
            id: 'deleteAccount',
            src: 'deleteAccount',
            input: ({ context }) => ({
              username: context.username,
              password: context.fields?.password ?? '',
              code: context.twoFactorEnabled ? (context.fields?.code ?? '') : '',
              confirm: context.fields?.confirm ?? '',
            }),
            onDone: { target: '#accountDeletion.deleted', actions: ['forgetFields', 'notifyDeleting', 'signOut'] },
            onError: {
              target: 'failed',
              actions: ['forgetFields', ...sayRefused(DELETE_FAILED)],
            },
          },
        },
        failed: {
          on: {
            'deletion.submit': {
              guard: { type: 'isValid', params: ({ event }) => pick(event) },
              target: 'deleting',
              actions: ['clearError', { type: 'keepFields', params: ({ event }) => pick(event) }],
            },
            'deletion.close': { target: '#accountDeletion.closed' },
          },
        },
      },
    },
    /** The account is going; the screen goes with the session. */
    deleted: { type: 'final' },
  },
})

type SystemLike = Parameters<typeof showToast>[0] & { get(systemId: string): unknown }

function endSession(system: SystemLike): void {
  const session = system.get('session') as SessionRef | undefined
  session?.send({ type: 'session.expired' })
}

/** What the accepted deletion's actions do, for a call that finishes after the dialog was stopped. */
function announceDeleted(system: SystemLike): void {
  showToast(system, 'success', ACCOUNT_DELETING)
  endSession(system)
}

/** The typed fields, without the event's type. */
function pick(event: DeletionFields): DeletionFields {
  return { password: event.password, code: event.code, confirm: event.confirm }
}

export type AccountDeletionMachine = typeof accountDeletionMachine
