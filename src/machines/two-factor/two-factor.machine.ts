import { assertEvent, assign, fromPromise, setup } from 'xstate'
import { serverMessageOr } from '../../api/errors'
import type { CurrentUser, TwoFactorEnabled, TwoFactorSetup } from '../../api/types'
import type { SessionSnapshot } from '../app/app.system'
import type { SessionRef } from '../session/session-ref'
import { showToast } from '../toasts/notify'
import { downloadText, twoFactorCalls, type CodeAndPasswordInput } from './two-factor.calls'
import { isCodeAndPassword, recoveryCodesText, type CodeAndPasswordFields } from './two-factor.rules'

// The Two-Factor Authentication dialog (Settings -> Security; docs/product.md, "Two-factor sign-in"). Off:
// closed -> open.settingUp (the server makes a secret) -> open.confirming (QR code, the secret as text, a code and the
// password) -> open.enabling (the password proven as a password change proves it: derived in the browser) ->
// open.showingCodes (the ten recovery codes, shown this once: Download as .txt, Copy) -> closed. On: open.manage ->
// open.disabling (closes with a toast) or open.regenerating (new codes shown once). A refused code or password keeps
// the dialog open with the server's words; the typed password goes straight into the call and is never kept. The
// session hears the new state (`twoFactorEnabled`) so the Security row shows it.

export const TWO_FACTOR_ON = 'Two-factor sign-in is on'
export const TWO_FACTOR_OFF = 'Two-factor sign-in is off'
export const CODES_COPIED = 'Recovery codes copied'
export const TWO_FACTOR_FAILED = 'Could not change two-factor sign-in. Please try again.'

export type TwoFactorEvent =
  | { type: 'twoFactor.open'; enabled: boolean }
  | { type: 'twoFactor.close' }
  | ({ type: 'twoFactor.enable' } & CodeAndPasswordFields)
  | ({ type: 'twoFactor.disable' } & CodeAndPasswordFields)
  | ({ type: 'twoFactor.regenerate' } & CodeAndPasswordFields)
  | { type: 'twoFactor.copy' }
  | { type: 'twoFactor.download' }

export interface TwoFactorContext {
  /** The set-up secret and its otpauth:// URI, from the setup call until 2FA is on or the dialog closes. */
  setup: TwoFactorSetup | null
  /** The recovery codes, while they are shown (once). */
  recoveryCodes: string[] | null
  error: string | null
}

function sessionOf(system: { get(systemId: string): unknown }): SessionRef | undefined {
  return system.get('session') as SessionRef | undefined
}

function usernameOf(system: { get(systemId: string): unknown }): string {
  return (sessionOf(system)?.getSnapshot() as SessionSnapshot | undefined)?.context.user?.username ?? ''
}

/** The call's input: the typed code and password, with the session's member name. */
const callInput = (system: { get(systemId: string): unknown }, event: CodeAndPasswordFields): CodeAndPasswordInput => ({
  username: usernameOf(system),
  code: event.code,
  password: event.password,
})

const failure = (error: unknown) => serverMessageOr(error, TWO_FACTOR_FAILED)

export const twoFactorMachine = setup({
  types: {
    context: {} as TwoFactorContext,
    events: {} as TwoFactorEvent,
    tags: {} as 'busy' | 'dialog',
  },
  actors: {
    setup: fromPromise<TwoFactorSetup>(({ signal }) => twoFactorCalls.setup(signal)),
    enable: fromPromise<TwoFactorEnabled, CodeAndPasswordInput>(({ input, signal }) => twoFactorCalls.enable(input, signal)),
    disable: fromPromise<CurrentUser, CodeAndPasswordInput>(({ input, signal }) => twoFactorCalls.disable(input, signal)),
    regenerate: fromPromise<string[], CodeAndPasswordInput>(({ input, signal }) =>
      twoFactorCalls.regenerate(input, signal),
    ),
  },
  actions: {
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
    keepSetup: assign((_, setup: TwoFactorSetup) => ({ setup })),
    showCodes: assign((_, recoveryCodes: string[]) => ({ recoveryCodes, setup: null })),
    forget: assign({ setup: null, recoveryCodes: null, error: null }),
    notify: ({ system }, { kind, message }: { kind: 'success' | 'error'; message: string }) =>
      showToast(system, kind, message),
    /** The Security row reads the session's member. */
    tellSession: ({ system }, twoFactorEnabled: boolean) =>
      sessionOf(system)?.send({ type: 'session.user.updated', user: { twoFactorEnabled } }),
    copyCodes: ({ context, system }) => {
      void navigator.clipboard
        ?.writeText((context.recoveryCodes ?? []).join('\n'))
        .then(() => showToast(system, 'success', CODES_COPIED))
        .catch(() => showToast(system, 'error', 'Could not copy. Select the codes and copy them by hand.'))
    },
    downloadCodes: ({ context, system }) =>
      downloadText('wren-recovery-codes.txt', recoveryCodesText(usernameOf(system), context.recoveryCodes ?? [])),
  },
  guards: {
    isEnabled: (_, enabled: boolean) => enabled,
    isValid: (_, fields: CodeAndPasswordFields) => isCodeAndPassword(fields),
  },
}).createMachine({
  id: 'twoFactor',
  context: { setup: null, recoveryCodes: null, error: null },
  initial: 'closed',
  states: {
    closed: {
      entry: 'forget',
      on: {
        'twoFactor.open': [
          { guard: { type: 'isEnabled', params: ({ event }) => event.enabled }, target: 'open.manage' },
          { target: 'open.settingUp' },
        ],
      },
    },
    open: {
      tags: ['dialog'],
      initial: 'settingUp',
      states: {
        /** A new secret from the server (replacing one set up and never confirmed). */
        settingUp: {
          tags: ['busy'],
          invoke: {
            id: 'setup',
            src: 'setup',
            onDone: { target: 'confirming', actions: { type: 'keepSetup', params: ({ event }) => event.output } },
            onError: {
              target: '#twoFactor.closed',
              actions: { type: 'notify', params: ({ event }) => ({ kind: 'error', message: failure(event.error) }) },
            },
          },
        },
        confirming: {
          on: {
            'twoFactor.enable': { guard: { type: 'isValid', params: ({ event }) => event }, target: 'enabling' },
            'twoFactor.close': { target: '#twoFactor.closed' },
          },
        },
        enabling: {
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'enable',
            src: 'enable',
            input: ({ event, self }) => {
              assertEvent(event, 'twoFactor.enable')
              return callInput(self.system, event)
            },
            onDone: {
              target: 'showingCodes',
              actions: [
                { type: 'showCodes', params: ({ event }) => event.output.recoveryCodes },
                { type: 'tellSession', params: true },
                { type: 'notify', params: { kind: 'success', message: TWO_FACTOR_ON } },
              ],
            },
            onError: { target: 'confirming', actions: { type: 'setError', params: ({ event }) => failure(event.error) } },
          },
        },
        /** Shown once: closing forgets them. */
        showingCodes: {
          on: {
            'twoFactor.copy': { actions: 'copyCodes' },
            'twoFactor.download': { actions: 'downloadCodes' },
            'twoFactor.close': { target: '#twoFactor.closed' },
          },
        },
        manage: {
          on: {
            'twoFactor.disable': { guard: { type: 'isValid', params: ({ event }) => event }, target: 'disabling' },
            'twoFactor.regenerate': { guard: { type: 'isValid', params: ({ event }) => event }, target: 'regenerating' },
            'twoFactor.close': { target: '#twoFactor.closed' },
          },
        },
        disabling: {
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'disable',
            src: 'disable',
            input: ({ event, self }) => {
              assertEvent(event, 'twoFactor.disable')
              return callInput(self.system, event)
            },
            onDone: {
              target: '#twoFactor.closed',
              actions: [
                { type: 'tellSession', params: false },
                { type: 'notify', params: { kind: 'success', message: TWO_FACTOR_OFF } },
              ],
            },
            onError: { target: 'manage', actions: { type: 'setError', params: ({ event }) => failure(event.error) } },
          },
        },
        regenerating: {
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'regenerate',
            src: 'regenerate',
            input: ({ event, self }) => {
              assertEvent(event, 'twoFactor.regenerate')
              return callInput(self.system, event)
            },
            onDone: { target: 'showingCodes', actions: { type: 'showCodes', params: ({ event }) => event.output } },
            onError: { target: 'manage', actions: { type: 'setError', params: ({ event }) => failure(event.error) } },
          },
        },
      },
    },
  },
})

export type TwoFactorMachine = typeof twoFactorMachine
