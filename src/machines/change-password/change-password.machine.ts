import { assertEvent, assign, fromPromise, setup } from 'xstate'
import { calls, run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import type { ChangePasswordRequest } from '../../api/types'
import { showToast } from '../toasts/notify'
import { isChangePasswordRequest } from './change-password.rules'

// The Change Password dialog (Settings -> Security). Field rules (change-password.rules.ts) are checked by the form,
// and a submit that breaks them is refused here too; this machine owns the dialog's life: closed -> open.editing ->
// open.submitting -> succeeded (dialog closes, success toast) or open.failed (dialog stays open, toast with the
// server's reason or 'Failed to change password').

export const PASSWORD_CHANGED = 'Password changed successfully!'
export const PASSWORD_CHANGE_FAILED = 'Failed to change password'

export type ChangePasswordEvent =
  | { type: 'password.open' }
  | { type: 'password.close' }
  | ({ type: 'password.submit' } & ChangePasswordRequest)

export interface ChangePasswordContext {
  error: string | null
}

export const changePasswordMachine = setup({
  types: {
    context: {} as ChangePasswordContext,
    events: {} as ChangePasswordEvent,
    tags: {} as 'busy' | 'dialog',
  },
  actors: {
    changePassword: fromPromise<string, ChangePasswordRequest>(({ input, signal }) =>
      run(calls.changePassword(input), signal),
    ),
  },
  actions: {
    notifySuccess: ({ system }) => showToast(system, 'success', PASSWORD_CHANGED),
    notifyFailure: ({ system }, message: string) => showToast(system, 'error', message),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
  },
  guards: {
    isValid: (_, values: ChangePasswordRequest) => isChangePasswordRequest(values),
  },
}).createMachine({
  id: 'changePassword',
  context: { error: null },
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
            'password.submit': { guard: { type: 'isValid', params: ({ event }) => event }, target: 'submitting' },
            'password.close': { target: '#changePassword.closed' },
          },
        },
        /** Escape and the backdrop are ignored here: closing would hide whether the password changed. */
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'changePassword',
            src: 'changePassword',
            input: ({ event }) => {
              assertEvent(event, 'password.submit')
              return { currentPassword: event.currentPassword, newPassword: event.newPassword }
            },
            onDone: { target: '#changePassword.succeeded', actions: 'notifySuccess' },
            onError: {
              target: 'failed',
              actions: [
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
              target: 'submitting',
              actions: 'clearError',
            },
            'password.close': { target: '#changePassword.closed' },
          },
        },
      },
    },
    /** Dialog closed after a change; it can be opened again. */
    succeeded: {
      on: { 'password.open': { target: 'open' } },
    },
  },
})

export type ChangePasswordMachine = typeof changePasswordMachine
