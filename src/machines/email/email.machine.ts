import { assign, fromPromise, setup } from 'xstate'
import type { CurrentUser } from '../../api/email.calls'
import { serverMessageOr } from '../../api/errors'
import type { SessionSnapshot } from '../app/app.system'
import type { SessionRef } from '../session/session-ref'
import { showToast } from '../toasts/notify'
import { changeEmail, resendLink, type ChangeEmailInput } from './email.calls'
import { isChangeEmail, type ChangeEmailFields } from './email.rules'

// The member's email address (docs/product.md, "Email"): the unconfirmed banner in the shell and the Email row of
// Settings -> Account each run one. Three regions side by side:
// - banner: shown until dismissed (for as long as this actor lives: the signed-in shell);
// - resend: idle -> sending (POST /auth/email/resend) -> sent, with a toast either way;
// - dialog (Change email): closed -> open.editing -> open.submitting (the password derived in the browser as a
//   password change does; never kept in context) -> closed with the session told of the pending address, or
//   open.failed with the server's words (wrong password, address taken) under the form.

export const LINK_SENT = 'We sent you a new link'
export const RESEND_FAILED = 'Could not send a new link. Please try again.'
export const CHANGE_FAILED = 'Could not change your email. Please try again.'
export const changeRequested = (address: string) => `Check ${address} for a link to confirm it`

export type EmailEvent =
  | { type: 'email.banner.dismiss' }
  | { type: 'email.resend' }
  | { type: 'email.change.open' }
  | { type: 'email.change.close' }
  | ({ type: 'email.change.submit' } & ChangeEmailFields)

export interface EmailContext {
  /** The server's words for the last failed change, shown under the form. */
  error: string | null
}

function sessionOf(system: { get(systemId: string): unknown }): SessionRef | undefined {
  return system.get('session') as SessionRef | undefined
}

export const emailMachine = setup({
  types: {
    context: {} as EmailContext,
    events: {} as EmailEvent,
    tags: {} as 'busy' | 'dialog' | 'resending',
  },
  actors: {
    resendLink: fromPromise<void>(({ signal }) => resendLink(signal)),
    changeEmail: fromPromise<CurrentUser, ChangeEmailInput>(({ input, signal }) => changeEmail(input, signal)),
  },
  actions: {
    notifySent: ({ system }) => showToast(system, 'success', LINK_SENT),
    notifyFailure: ({ system }, message: string) => showToast(system, 'error', message),
    notifyChanged: ({ system }, address: string) => showToast(system, 'success', changeRequested(address)),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
    /** The session learns the pending address, so the row and the banner show it. */
    tellSession: ({ system }, user: CurrentUser) =>
      sessionOf(system)?.send({
        type: 'session.user.updated',
        user: { email: user.email, emailVerified: user.emailVerified, pendingEmail: user.pendingEmail },
      }),
  },
  guards: {
    isValid: (_, fields: ChangeEmailFields) => isChangeEmail(fields),
  },
}).createMachine({
  id: 'email',
  context: { error: null },
  type: 'parallel',
  states: {
    banner: {
      initial: 'shown',
      states: {
        shown: { on: { 'email.banner.dismiss': { target: 'dismissed' } } },
        dismissed: {},
      },
    },
    resend: {
      initial: 'idle',
      states: {
        idle: { on: { 'email.resend': { target: 'sending' } } },
        sending: {
          tags: ['resending'],
          invoke: {
            id: 'resendLink',
            src: 'resendLink',
            onDone: { target: 'sent', actions: 'notifySent' },
            onError: {
              target: 'idle',
              actions: { type: 'notifyFailure', params: ({ event }) => serverMessageOr(event.error, RESEND_FAILED) },
            },
          },
        },
        sent: { on: { 'email.resend': { target: 'sending' } } },
      },
    },
    dialog: {
      initial: 'closed',
      states: {
        closed: { on: { 'email.change.open': { target: 'open' } } },
        open: {
          tags: ['dialog'],
          initial: 'editing',
          entry: 'clearError',
          states: {
            editing: {
              on: {
                'email.change.submit': { guard: { type: 'isValid', params: ({ event }) => event }, target: 'submitting' },
                'email.change.close': { target: '#email.dialog.closed' },
              },
            },
            /** Not closable: closing would hide whether the change was asked for. */
            submitting: {
              tags: ['busy'],
              invoke: {
                id: 'changeEmail',
                src: 'changeEmail',
                input: ({ event, self }) => {
                  const fields = event as Extract<EmailEvent, { type: 'email.change.submit' }>
                  const session = sessionOf(self.system)?.getSnapshot() as SessionSnapshot | undefined
                  return { username: session?.context.user?.username ?? '', newEmail: fields.newEmail, password: fields.password }
                },
                onDone: {
                  target: '#email.dialog.closed',
                  actions: [
                    { type: 'tellSession', params: ({ event }) => event.output },
                    { type: 'notifyChanged', params: ({ event }) => event.output.pendingEmail ?? event.output.email },
                  ],
                },
                onError: {
                  target: 'failed',
                  actions: { type: 'setError', params: ({ event }) => serverMessageOr(event.error, CHANGE_FAILED) },
                },
              },
            },
            failed: {
              on: {
                'email.change.submit': {
                  guard: { type: 'isValid', params: ({ event }) => event },
                  target: 'submitting',
                  actions: 'clearError',
                },
                'email.change.close': { target: '#email.dialog.closed' },
              },
            },
          },
        },
      },
    },
  },
})

export type EmailMachine = typeof emailMachine
