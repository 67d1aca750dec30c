import { assign, fromPromise, setup } from 'xstate'
import { serverMessageOr } from '../../api/errors'
import type { CurrentUser } from '../../api/types'
import type { SessionSnapshot } from '../app/app.system'
import type { SessionRef } from '../session/session-ref'
import { showToast } from '../toasts/notify'
import { downloadText } from '../two-factor/two-factor.calls'
import { createRecoveryKey, removeRecoveryKey, type RecoveryKeyInput } from './password-reset.actions'

/** The downloaded file: what the key is for, and the key. */
export function recoveryKeyText(username: string, recoveryKey: string): string {
  return [
    `Wren message recovery key for @${username}`,
    '',
    recoveryKey,
    '',
    'If you forget your password, enter this key when you reset it to keep reading your direct messages.',
    'Keep it somewhere safe: anyone with it and access to your email could read your messages.',
    '',
  ].join('\n')
}

// Settings -> Security -> "Message recovery key" (docs/product.md, "Password reset"): closed -> open.asking (the
// current password, to create, replace or remove) -> creating (a new random key; the session's wrapped message key
// opened with the password and wrapped again under it; stored) -> showing (the key, once: Copy, Download, "I saved
// it") -> closed; or removing -> closed. The key lives in this actor's context only while it is shown. The session hears
// `hasRecoveryKey` so the row shows it.

export const RECOVERY_KEY_FAILED = 'The recovery key could not be saved'
export const RECOVERY_KEY_REMOVED = 'Recovery key removed'
export const RECOVERY_KEY_SAVED = 'Recovery key saved'

export type RecoveryKeyEvent =
  | { type: 'recovery.open' }
  | { type: 'recovery.close' }
  | { type: 'recovery.create'; password: string }
  | { type: 'recovery.remove'; password: string }
  | { type: 'recovery.saved' }
  | { type: 'recovery.copy' }
  | { type: 'recovery.download' }

export interface RecoveryKeyContext {
  /** Shown once, between creating and "I saved it". */
  recoveryKey: string | null
  error: string | null
}

function sessionFacts(system: { get(systemId: string): unknown }): { username: string; wrapped: string | null } {
  const session = system.get('session') as SessionRef | undefined
  const context = (session?.getSnapshot() as SessionSnapshot | undefined)?.context
  return { username: context?.user?.username ?? '', wrapped: context?.privateKey ?? null }
}

export const recoveryKeyMachine = setup({
  types: { context: {} as RecoveryKeyContext, events: {} as RecoveryKeyEvent, tags: {} as 'busy' | 'dialog' },
  actors: {
    create: fromPromise<{ recoveryKey: string; user: CurrentUser }, RecoveryKeyInput>(({ input, signal }) =>
      createRecoveryKey(input, signal),
    ),
    remove: fromPromise<CurrentUser, RecoveryKeyInput>(({ input, signal }) => removeRecoveryKey(input, signal)),
  },
  actions: {
    keepKey: assign((_, recoveryKey: string) => ({ recoveryKey })),
    forget: assign({ recoveryKey: null, error: null }),
    clearError: assign({ error: null }),
    setError: assign((_, error: string) => ({ error })),
    tellSession: ({ system }, hasRecoveryKey: boolean) =>
      (system.get('session') as SessionRef | undefined)?.send({ type: 'session.user.updated', user: { hasRecoveryKey } }),
    notify: ({ system }, message: string) => showToast(system, 'success', message),
    copyKey: ({ context, system }) => {
      void navigator.clipboard
        ?.writeText(context.recoveryKey ?? '')
        .then(() => showToast(system, 'success', 'Recovery key copied'))
        .catch(() => showToast(system, 'error', 'Could not copy. Select the key and copy it by hand.'))
    },
    downloadKey: ({ context, system }) =>
      downloadText('wren-message-recovery-key.txt', recoveryKeyText(sessionFacts(system).username, context.recoveryKey ?? '')),
  },
  guards: {
    hasPassword: (_, password: string) => password !== '',
  },
}).createMachine({
  id: 'recoveryKey',
  context: { recoveryKey: null, error: null },
  initial: 'closed',
  states: {
    closed: {
      entry: 'forget',
      on: { 'recovery.open': { target: 'open' } },
    },
    open: {
      tags: ['dialog'],
      initial: 'asking',
      states: {
        asking: {
          on: {
            'recovery.create': {
              guard: { type: 'hasPassword', params: ({ event }) => event.password },
              target: 'creating',
              actions: 'clearError',
            },
            'recovery.remove': {
              guard: { type: 'hasPassword', params: ({ event }) => event.password },
              target: 'removing',
              actions: 'clearError',
            },
            'recovery.close': { target: '#recoveryKey.closed' },
          },
        },
        creating: {
          tags: ['busy'],
          invoke: {
            id: 'create',
            src: 'create',
            input: ({ self, event }) => ({ ...sessionFacts(self.system), password: (event as { password: string }).password }),
            onDone: {
              target: 'showing',
              actions: [
                { type: 'keepKey', params: ({ event }) => event.output.recoveryKey },
                { type: 'tellSession', params: true },
              ],
            },
            onError: {
              target: 'asking',
              actions: { type: 'setError', params: ({ event }) => serverMessageOr(event.error, RECOVERY_KEY_FAILED) },
            },
          },
        },
        /** The key, once. Only "I saved it" closes: the dialog never hides it by accident. */
        showing: {
          on: {
            'recovery.copy': { actions: 'copyKey' },
            'recovery.download': { actions: 'downloadKey' },
            'recovery.saved': {
              target: '#recoveryKey.closed',
              actions: { type: 'notify', params: RECOVERY_KEY_SAVED },
            },
          },
        },
        removing: {
          tags: ['busy'],
          invoke: {
            id: 'remove',
            src: 'remove',
            input: ({ self, event }) => ({ ...sessionFacts(self.system), password: (event as { password: string }).password }),
            onDone: {
              target: '#recoveryKey.closed',
              actions: [{ type: 'tellSession', params: false }, { type: 'notify', params: RECOVERY_KEY_REMOVED }],
            },
            onError: {
              target: 'asking',
              actions: { type: 'setError', params: ({ event }) => serverMessageOr(event.error, RECOVERY_KEY_FAILED) },
            },
          },
        },
      },
    },
  },
})

export type RecoveryKeyMachine = typeof recoveryKeyMachine
