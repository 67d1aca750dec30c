import { assign, fromPromise, setup } from 'xstate'
import { serverMessageOr } from '../../api/errors'
import { resetActions } from './password-reset.actions'
import { isForgotRequest, RESET_TEXTS } from './password-reset.rules'

// The /forgot-password screen (docs/product.md, "Password reset"): editing -> sending -> sent, which shows the
// server's one answer (the same whether or not the name is an account), or failed (a limit, the network) with the
// server's words. From sent the member may ask again (a mail that did not come).

export type ForgotPasswordEvent = { type: 'forgot.submit'; identifier: string } | { type: 'forgot.again' }

export interface ForgotPasswordContext {
  identifier: string
  /** The server's answer once sent. */
  message: string | null
  error: string | null
}

export const forgotPasswordMachine = setup({
  types: { context: {} as ForgotPasswordContext, events: {} as ForgotPasswordEvent, tags: {} as 'busy' },
  actors: {
    forgot: fromPromise<string, string>(({ input, signal }) => resetActions.forgot(input, signal)),
  },
  actions: {
    keepIdentifier: assign((_, identifier: string) => ({ identifier: identifier.trim(), error: null })),
    keepMessage: assign((_, message: string) => ({ message })),
    setError: assign((_, error: string) => ({ error })),
    clear: assign({ message: null, error: null }),
  },
  guards: {
    isValid: (_, identifier: string) => isForgotRequest({ identifier }),
  },
}).createMachine({
  id: 'forgotPassword',
  context: { identifier: '', message: null, error: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'forgot.submit': {
          guard: { type: 'isValid', params: ({ event }) => event.identifier },
          target: 'sending',
          actions: { type: 'keepIdentifier', params: ({ event }) => event.identifier },
        },
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'forgot',
        src: 'forgot',
        input: ({ context }) => context.identifier,
        onDone: { target: 'sent', actions: { type: 'keepMessage', params: ({ event }) => event.output } },
        onError: {
          target: 'editing',
          actions: { type: 'setError', params: ({ event }) => serverMessageOr(event.error, RESET_TEXTS.forgotFailed) },
        },
      },
    },
    sent: {
      on: { 'forgot.again': { target: 'editing', actions: 'clear' } },
    },
  },
})

export type ForgotPasswordMachine = typeof forgotPasswordMachine
