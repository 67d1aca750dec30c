import { assign, fromPromise, setup } from 'xstate'
import { calls, run } from '../../api/calls'
import type { ChangePasswordRequest } from '../../api/types'
import { preparePasswordChange, type PasswordChangeInput } from '../keys/keys.auth'
import { sayRefused } from '../lib/say-refused'
import type { SessionRef } from '../session/session-ref'
import type { SessionSnapshot } from '../app/app.system'
import { showToast } from '../toasts/notify'
import { isChangePasswordRequest, type PasswordChangeFields } from './change-password.rules'

// The Change Password dialog (Settings -> Security). Field rules (change-password.rules.ts) are checked by the form,
// and a submit that breaks them is refused here too; this machine owns the dialog's life: closed -> open.editing ->
// open.preparing (the current settings from POST /auth/prelogin; argon2id of the current password under them and of
// the new one under fresh settings; the message key, wrapped since login in the session, re-wrapped under the new
// wrapping key so the history survives) -> open.submitting (secrets only, never a password) -> succeeded (dialog
// closes, success toast, the session keeps the new wrapped key) or open.failed (dialog stays open, toast with the
// server's reason or 'Failed to change password'). A key that does not open with the current password is not judged
// here: the change goes without a key and the server, which checks the current secret first, answers 'Current
// password is incorrect'.

export const PASSWORD_CHANGED = 'Password changed successfully!'
export const PASSWORD_CHANGE_FAILED = 'Failed to change password'

export type ChangePasswordEvent =
  | { type: 'password.open' }
  | { type: 'password.close' }
  | ({ type: 'password.submit' } & PasswordChangeFields)

export interface ChangePasswordContext {
  error: string | null
  /** The typed passwords from the submit until the change is prepared (never persisted). */
  fields: PasswordChangeFields | null
  /** What goes to the server: derived secrets and the re-wrapped key. */
  request: ChangePasswordRequest | null
}

/** The session's member name and wrapped message key (null for a keyless account, or when no session runs). */
function sessionFacts(system: { get(systemId: string): unknown }): { username: string; wrapped: string | null } {
  const session = system.get('session') as SessionRef | undefined
  const context = (session?.getSnapshot() as SessionSnapshot | undefined)?.context
  return { username: context?.user?.username ?? '', wrapped: context?.privateKey ?? null }
}

/** Either step refused: nothing changed, and the dialog stays with why (the passwords typed are dropped). */
const refused = { target: 'failed', actions: ['forgetRequest', ...sayRefused(PASSWORD_CHANGE_FAILED)] } as const

export const changePasswordMachine = setup({
  types: {
    context: {} as ChangePasswordContext,
    events: {} as ChangePasswordEvent,
    tags: {} as 'busy' | 'dialog',
  },
  actors: {
    prepareChange: fromPromise<ChangePasswordRequest, PasswordChangeInput>(({ input, signal }) =>
      preparePasswordChange(input, signal),
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
    keepFields: assign((_, fields: PasswordChangeFields) => ({ fields })),
    keepRequest: assign((_, request: ChangePasswordRequest) => ({ request, fields: null })),
    forgetRequest: assign({ fields: null, request: null }),
    /** The session keeps the re-wrapped key, for the next password change (and what a reload shows). */
    storeKey: ({ system }, privateKey: string | undefined) => {
      if (privateKey === undefined) return
      const session = system.get('session') as SessionRef | undefined
      session?.send({ type: 'session.privateKey.updated', privateKey })
    },
  },
  guards: {
    isValid: (_, values: PasswordChangeFields) => isChangePasswordRequest(values),
  },
}).createMachine({
  id: 'changePassword',
  context: { error: null, fields: null, request: null },
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
              target: 'preparing',
              actions: { type: 'keepFields', params: ({ event }) => pick(event) },
            },
            'password.close': { target: '#changePassword.closed' },
          },
        },
        /** argon2id twice (current and new password) and the re-wrap: well under a second. Not closable. */
        preparing: {
          tags: ['busy'],
          invoke: {
            id: 'prepareChange',
            src: 'prepareChange',
            input: ({ context, self }) => ({
              ...sessionFacts(self.system),
              currentPassword: context.fields?.currentPassword ?? '',
              newPassword: context.fields?.newPassword ?? '',
            }),
            onDone: { target: 'submitting', actions: { type: 'keepRequest', params: ({ event }) => event.output } },
            // The settings could not be fetched, or the browser refuses them (UnacceptableKdf): nothing was sent.
            onError: refused,
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
            onError: refused,
          },
        },
        failed: {
          on: {
            'password.submit': {
              guard: { type: 'isValid', params: ({ event }) => event },
              target: 'preparing',
              actions: ['clearError', { type: 'keepFields', params: ({ event }) => pick(event) }],
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

/** The typed passwords, without the event's type. */
function pick(event: PasswordChangeFields): PasswordChangeFields {
  return { currentPassword: event.currentPassword, newPassword: event.newPassword }
}

export type ChangePasswordMachine = typeof changePasswordMachine
