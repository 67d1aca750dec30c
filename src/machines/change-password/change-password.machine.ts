import { assign, fromPromise, setup } from 'xstate'
import { calls, run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import type { ChangePasswordRequest } from '../../api/types'
import { rewrapForPasswordChange } from '../keys/keys.auth'
import type { SessionRef } from '../session/session-ref'
import type { SessionSnapshot } from '../app/app.system'
import { showToast } from '../toasts/notify'
import { isChangePasswordRequest } from './change-password.rules'

// The Change Password dialog (Settings -> Security). Field rules (change-password.rules.ts) are checked by the form,
// and a submit that breaks them is refused here too; this machine owns the dialog's life: closed -> open.editing ->
// open.rewrapping (the message key, wrapped since login in the session, is re-wrapped under the new password so the
// history survives) -> open.submitting -> succeeded (dialog closes, success toast, the session keeps the new wrapped
// key) or open.failed (dialog stays open, toast with the server's reason or 'Failed to change password'). A key that
// does not open with the current password is not judged here: the change goes without a key and the server, which
// checks the current password first, answers 'Current password is incorrect'.

export const PASSWORD_CHANGED = 'Password changed successfully!'
export const PASSWORD_CHANGE_FAILED = 'Failed to change password'

export type ChangePasswordEvent =
  | { type: 'password.open' }
  | { type: 'password.close' }
  | ({ type: 'password.submit' } & ChangePasswordRequest)

export interface ChangePasswordContext {
  error: string | null
  /** The typed passwords from the submit until the server answers (never persisted). */
  request: ChangePasswordRequest | null
}

/** The session's wrapped message key (null for a keyless account, or when no session runs). */
function wrappedKey(system: { get(systemId: string): unknown }): string | null {
  const session = system.get('session') as SessionRef | undefined
  return (session?.getSnapshot() as SessionSnapshot | undefined)?.context.privateKey ?? null
}

export const changePasswordMachine = setup({
  types: {
    context: {} as ChangePasswordContext,
    events: {} as ChangePasswordEvent,
    tags: {} as 'busy' | 'dialog',
  },
  actors: {
    rewrapKey: fromPromise<string | null, { wrapped: string | null; currentPassword: string; newPassword: string }>(
      ({ input }) => rewrapForPasswordChange(input.wrapped, input.currentPassword, input.newPassword),
    ),
    changePassword: fromPromise<string, ChangePasswordRequest>(({ input, signal }) =>
      run(calls.changePassword(input), signal),
    ),
  },
  actions: {
    notifySuccess: ({ system }) => showToast(system, 'success', PASSWORD_CHANGED),
    notifyFailure: ({ system }, message: string) => showToast(system, 'error', message),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
    keepRequest: assign((_, request: ChangePasswordRequest) => ({ request })),
    keepKey: assign(({ context }, privateKey: string | null) => ({
      request: context.request && privateKey !== null ? { ...context.request, privateKey } : context.request,
    })),
    forgetRequest: assign({ request: null }),
    /** The session keeps the re-wrapped key, for the next password change (and what a reload shows). */
    storeKey: ({ system }, privateKey: string | undefined) => {
      if (privateKey === undefined) return
      const session = system.get('session') as SessionRef | undefined
      session?.send({ type: 'session.privateKey.updated', privateKey })
    },
  },
  guards: {
    isValid: (_, values: ChangePasswordRequest) => isChangePasswordRequest(values),
  },
}).createMachine({
  id: 'changePassword',
  context: { error: null, request: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'password.open': { target: 'open' } },
    },
    open: {
      tags: ['dialog'],
      initial: 'editing',
      entry: 'clearError',
      states: {
        editing: {
          on: {
            'password.submit': {
              guard: { type: 'isValid', params: ({ event }) => event },
              target: 'rewrapping',
              actions: { type: 'keepRequest', params: ({ event }) => pick(event) },
            },
            'password.close': { target: '#changePassword.closed' },
          },
        },
        /** PBKDF2 twice (open with the current password, seal with the new): about a second. Not closable. */
        rewrapping: {
          tags: ['busy'],
          invoke: {
            id: 'rewrapKey',
            src: 'rewrapKey',
            input: ({ context, self }) => ({
              wrapped: wrappedKey(self.system),
              currentPassword: context.request?.currentPassword ?? '',
              newPassword: context.request?.newPassword ?? '',
            }),
            onDone: { target: 'submitting', actions: { type: 'keepKey', params: ({ event }) => event.output } },
            // No re-wrapped key (rewrapForPasswordChange answers null rather than failing; this is the same, should it
            // ever fail): the change goes without one and the server says why it is refused.
            onError: { target: 'submitting' },
          },
        },
        /** Escape and the backdrop are ignored here: closing would hide whether the password changed. */
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'changePassword',
            src: 'changePassword',
            input: ({ context }) => context.request as ChangePasswordRequest,
            onDone: {
              target: '#changePassword.succeeded',
              actions: [{ type: 'storeKey', params: ({ context }) => context.request?.privateKey }, 'notifySuccess'],
            },
            onError: {
              target: 'failed',
              actions: [
                'forgetRequest',
                { type: 'setError', params: ({ event }) => serverMessageOr(event.error, PASSWORD_CHANGE_FAILED) },
                { type: 'notifyFailure', params: ({ event }) => serverMessageOr(event.error, PASSWORD_CHANGE_FAILED) },
              ],
            },
          },
        },
        failed: {
          on: {
            'password.submit': {
              guard: { type: 'isValid', params: ({ event }) => event },
              target: 'rewrapping',
              actions: ['clearError', { type: 'keepRequest', params: ({ event }) => pick(event) }],
            },
            'password.close': { target: '#changePassword.closed' },
          },
        },
      },
    },
    /** Dialog closed after a change; it can be opened again. */
    succeeded: {
      entry: 'forgetRequest',
      on: { 'password.open': { target: 'open' } },
    },
  },
})

/** The fields the server reads, as typed. */
function pick(event: ChangePasswordRequest): ChangePasswordRequest {
  return { currentPassword: event.currentPassword, newPassword: event.newPassword }
}

export type ChangePasswordMachine = typeof changePasswordMachine
