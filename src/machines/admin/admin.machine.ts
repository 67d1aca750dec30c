import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { adminCalls } from '../../api/reports.calls'
import { showToast } from '../toasts/notify'
import {
  type AdminOperation,
  type AdminOutcome,
  FAILED,
  fixedOutcome,
  migratedOutcome,
  recalculatedOutcome,
  roleOutcome,
  twoFactorResetOutcome,
  USER_ID_REQUIRED,
  USERNAME_REQUIRED,
} from './admin.rules'

// The admin panel's operations (/admin): Fix All Stats and Migrate Keys ask a confirm first; Recalculate needs a user
// ID and Promote/Demote a username ('Please enter a user ID' / 'Please enter a username' otherwise, nothing sent).
// One operation runs at a time: while one runs every button waits. Done: its toast, its field
// cleared, a line under its section (how many rows were fixed, how many accounts were marked) and the audit log
// reloaded (`logVersion`). Failed: the server's words, else the operation's default; the field keeps what was typed.
// Reset 2FA (a member who lost their phone and recovery codes) takes the user ID like Recalculate and asks a confirm
// like Fix All Stats: it weakens that member's sign-in.

export type AdminEvent =
  | { type: 'admin.userId.input'; value: string }
  | { type: 'admin.username.input'; value: string }
  | { type: 'admin.fixAll' }
  | { type: 'admin.recalculate' }
  | { type: 'admin.resetTwoFactor' }
  | { type: 'admin.promote' }
  | { type: 'admin.demote' }
  | { type: 'admin.migrateKeys' }
  | { type: 'admin.confirm' }
  | { type: 'admin.cancel' }

export interface AdminContext {
  userId: string
  username: string
  /** The operation being confirmed, running, or last finished. */
  operation: AdminOperation | null
  /** What the last finished operation said, by operation. */
  results: Partial<Record<AdminOperation, { ok: boolean; text: string }>>
  /** Moves after every finished operation: the audit log reads itself again. */
  logVersion: number
}

interface Job {
  operation: AdminOperation
  userId: string
  username: string
}

async function perform(job: Job, signal: AbortSignal): Promise<AdminOutcome> {
  switch (job.operation) {
    case 'fixAllStats':
      return fixedOutcome(await run(adminCalls.fixAllStats(), signal))
    case 'recalculate':
      return recalculatedOutcome((await run(adminCalls.recalculateUserStats(job.userId), signal)).user)
    case 'resetTwoFactor':
      return twoFactorResetOutcome((await run(adminCalls.resetTwoFactor(job.userId), signal)).user.username)
    case 'promote': {
      const { user } = await run(adminCalls.promoteUser(job.username), signal)
      return roleOutcome(user.username, user.isAdmin)
    }
    case 'demote': {
      const { user } = await run(adminCalls.demoteUser(job.username), signal)
      return roleOutcome(user.username, user.isAdmin)
    }
    case 'migrateKeys':
      return migratedOutcome(await run(adminCalls.migrateKeys(), signal))
  }
}

/** What every resting state (idle, done, failed) lets the admin start. */
const commands = {
  'admin.fixAll': { target: 'confirming', actions: { type: 'choose', params: 'fixAllStats' } },
  'admin.migrateKeys': { target: 'confirming', actions: { type: 'choose', params: 'migrateKeys' } },
  'admin.recalculate': [
    { guard: 'hasUserId', target: 'running', actions: { type: 'choose', params: 'recalculate' } },
    { actions: { type: 'notifyMissing', params: USER_ID_REQUIRED } },
  ],
  'admin.resetTwoFactor': [
    { guard: 'hasUserId', target: 'confirming', actions: { type: 'choose', params: 'resetTwoFactor' } },
    { actions: { type: 'notifyMissing', params: USER_ID_REQUIRED } },
  ],
  'admin.promote': [
    { guard: 'hasUsername', target: 'running', actions: { type: 'choose', params: 'promote' } },
    { actions: { type: 'notifyMissing', params: USERNAME_REQUIRED } },
  ],
  'admin.demote': [
    { guard: 'hasUsername', target: 'running', actions: { type: 'choose', params: 'demote' } },
    { actions: { type: 'notifyMissing', params: USERNAME_REQUIRED } },
  ],
} as const

export const adminMachine = setup({
  types: {
    context: {} as AdminContext,
    events: {} as AdminEvent,
    tags: {} as 'busy',
  },
  actors: {
    perform: fromPromise<AdminOutcome, Job>(({ input, signal }) => perform(input, signal)),
  },
  actions: {
    typeUserId: assign((_, value: string) => ({ userId: value })),
    typeUsername: assign((_, value: string) => ({ username: value })),
    choose: assign((_, operation: AdminOperation) => ({ operation })),
    notifyMissing: ({ system }, message: string) => showToast(system, 'error', message),
    finish: assign(({ context }, outcome: AdminOutcome) => {
      const operation = context.operation as AdminOperation
      return {
        results: { ...context.results, [operation]: { ok: true, text: outcome.detail } },
        logVersion: context.logVersion + 1,
        userId: operation === 'recalculate' || operation === 'resetTwoFactor' ? '' : context.userId,
        username: operation === 'promote' || operation === 'demote' ? '' : context.username,
      }
    }),
    fail: assign(({ context }, error: unknown) => {
      const operation = context.operation as AdminOperation
      return {
        results: { ...context.results, [operation]: { ok: false, text: serverMessageOr(error, FAILED[operation]) } },
        logVersion: context.logVersion + 1,
      }
    }),
    notifyDone: ({ system }, outcome: AdminOutcome) => showToast(system, 'success', outcome.toast),
    notifyFailed: ({ context, system }, error: unknown) =>
      showToast(system, 'error', serverMessageOr(error, FAILED[context.operation as AdminOperation])),
  },
  guards: {
    hasUserId: ({ context }) => context.userId.trim() !== '',
    hasUsername: ({ context }) => context.username.trim().replace(/^@/, '') !== '',
  },
}).createMachine({
  id: 'admin',
  context: { userId: '', username: '', operation: null, results: {}, logVersion: 0 },
  initial: 'idle',
  on: {
    'admin.userId.input': { actions: { type: 'typeUserId', params: ({ event }) => event.value } },
    'admin.username.input': { actions: { type: 'typeUsername', params: ({ event }) => event.value } },
  },
  states: {
    idle: { on: commands },
    confirming: {
      on: {
        'admin.confirm': 'running',
        'admin.cancel': 'idle',
      },
    },
    running: {
      tags: ['busy'],
      invoke: {
        id: 'perform',
        src: 'perform',
        input: ({ context }) => ({
          operation: context.operation as AdminOperation,
          userId: context.userId.trim(),
          username: context.username.trim().replace(/^@/, ''),
        }),
        onDone: {
          target: 'done',
          actions: [
            { type: 'notifyDone', params: ({ event }) => event.output },
            { type: 'finish', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            { type: 'notifyFailed', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            { type: 'fail', params: ({ event }: { event: ErrorActorEvent }) => event.error },
          ],
        },
      },
    },
    done: { on: commands },
    failed: { on: commands },
  },
})

export type AdminMachine = typeof adminMachine
export type AdminRef = ActorRefFrom<AdminMachine>
