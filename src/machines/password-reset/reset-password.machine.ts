import { assign, fromPromise, setup, type ErrorActorEvent } from 'xstate'
import { isApiError, serverMessageOr } from '../../api/errors'
import type { PasswordResetInfo } from '../../api/password-reset.calls'
import { resetActions, type ResetInput } from './password-reset.actions'
import { isNewPasswordRequest, RESET_TEXTS, type NewPasswordFields } from './password-reset.rules'

// The /reset-password?token= screen (docs/product.md, "Password reset"; docs/security.md, "Password reset and the
// recovery key"). checking (is the link usable; what does the account have) -> invalid, or:
// - a member with a recovery copy: recoveryKey (type it; it is checked against the copy and the public key in
//   verifyingKey) or "I don't have it" -> confirmingLoss (what is lost, confirm) -> password;
// - anyone else: password straight away (a member with keys and no copy gets a new key pair; the screen says so).
// password -> resetting (argon2id, the key restored or made, the reset) -> done (sign in), or back to password with
// the server's words. The typed recovery key stays in this actor's memory only until the reset ends.

export type ResetPasswordEvent =
  | { type: 'reset.recovery.submit'; recoveryKey: string }
  | { type: 'reset.recovery.skip' }
  | { type: 'reset.loss.confirm' }
  | { type: 'reset.loss.back' }
  | ({ type: 'reset.password.submit' } & NewPasswordFields)

export interface ResetPasswordContext {
  token: string
  info: PasswordResetInfo | null
  /** The typed recovery key: while it is checked, then (checked) until the reset ends. */
  recoveryKey: string | null
  /** The member chose to go on without the recovery key (a new key pair). */
  keyLossConfirmed: boolean
  error: string | null
}

export const resetPasswordMachine = setup({
  types: {
    context: {} as ResetPasswordContext,
    events: {} as ResetPasswordEvent,
    input: {} as { token: string },
    tags: {} as 'busy',
  },
  actors: {
    check: fromPromise<PasswordResetInfo, string>(({ input, signal }) => resetActions.check(input, signal)),
    checkRecoveryKey: fromPromise<void, { info: PasswordResetInfo; recoveryKey: string }>(({ input }) =>
      resetActions.checkRecoveryKey(input),
    ),
    reset: fromPromise<string, ResetInput>(({ input, signal }) => resetActions.reset(input, signal)),
  },
  actions: {
    keepInfo: assign((_, info: PasswordResetInfo) => ({ info })),
    keepRecoveryKey: assign((_, recoveryKey: string) => ({ recoveryKey, error: null })),
    forgetRecoveryKey: assign({ recoveryKey: null }),
    confirmLoss: assign({ keyLossConfirmed: true, recoveryKey: null, error: null }),
    unconfirmLoss: assign({ keyLossConfirmed: false, error: null }),
    setError: assign((_, error: string) => ({ error })),
    clearError: assign({ error: null }),
  },
  guards: {
    hasRecoveryCopy: (_, info: PasswordResetInfo) => info.recoveryKey !== null && info.publicKey !== null,
    isValid: (_, fields: NewPasswordFields) => isNewPasswordRequest(fields),
    hasKey: (_, recoveryKey: string) => recoveryKey.trim() !== '',
    /** The link itself was refused (spent, expired, unknown): nothing else on this screen can succeed. */
    linkRefused: (_, error: unknown) => isApiError(error) && error.message === RESET_TEXTS.linkInvalid,
  },
}).createMachine({
  id: 'resetPassword',
  context: ({ input }) => ({ token: input.token, info: null, recoveryKey: null, keyLossConfirmed: false, error: null }),
  initial: 'checking',
  states: {
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'check',
        src: 'check',
        input: ({ context }) => context.token,
        onDone: [
          {
            guard: { type: 'hasRecoveryCopy', params: ({ event }) => event.output },
            target: 'recoveryKey',
            actions: { type: 'keepInfo', params: ({ event }) => event.output },
          },
          { target: 'password', actions: { type: 'keepInfo', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'invalid',
          actions: { type: 'setError', params: ({ event }) => serverMessageOr(event.error, RESET_TEXTS.checkFailed) },
        },
      },
    },
    /** The link is unknown, spent or expired (or could not be checked): ask for a new one. */
    invalid: {},
    recoveryKey: {
      on: {
        'reset.recovery.submit': {
          guard: { type: 'hasKey', params: ({ event }) => event.recoveryKey },
          target: 'verifyingKey',
          actions: { type: 'keepRecoveryKey', params: ({ event }) => event.recoveryKey },
        },
        'reset.recovery.skip': { target: 'confirmingLoss', actions: 'clearError' },
      },
    },
    verifyingKey: {
      tags: ['busy'],
      invoke: {
        id: 'checkRecoveryKey',
        src: 'checkRecoveryKey',
        input: ({ context }) => ({ info: context.info as PasswordResetInfo, recoveryKey: context.recoveryKey ?? '' }),
        onDone: { target: 'password' },
        onError: {
          target: 'recoveryKey',
          actions: [
            'forgetRecoveryKey',
            {
              type: 'setError',
              params: ({ event }) => (event.error instanceof Error && event.error.message ? event.error.message : RESET_TEXTS.recoveryFailed),
            },
          ],
        },
      },
    },
    confirmingLoss: {
      on: {
        'reset.loss.confirm': { target: 'password', actions: 'confirmLoss' },
        'reset.loss.back': { target: 'recoveryKey', actions: 'unconfirmLoss' },
      },
    },
    password: {
      on: {
        'reset.password.submit': {
          guard: { type: 'isValid', params: ({ event }) => event },
          target: 'resetting',
          actions: 'clearError',
        },
      },
    },
    resetting: {
      tags: ['busy'],
      invoke: {
        id: 'reset',
        src: 'reset',
        input: ({ context, event }) => {
          const fields = event as unknown as NewPasswordFields
          return {
            token: context.token,
            info: context.info as PasswordResetInfo,
            recoveryKey: context.recoveryKey,
            password: fields.password,
            twoFactorCode: fields.twoFactorCode,
          }
        },
        onDone: { target: 'done', actions: 'forgetRecoveryKey' },
        onError: [
          {
            guard: { type: 'linkRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'invalid',
            actions: ['forgetRecoveryKey', { type: 'setError', params: RESET_TEXTS.linkInvalid }],
          },
          {
            target: 'password',
            actions: { type: 'setError', params: ({ event }) => serverMessageOr(event.error, RESET_TEXTS.resetFailed) },
          },
        ],
      },
    },
    /** The password is reset and every session ended: the member signs in with the new one. */
    done: { type: 'final' },
  },
})

export type ResetPasswordMachine = typeof resetPasswordMachine
