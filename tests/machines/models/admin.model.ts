import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import { adminMachine } from '../../../src/machines/admin/admin.machine'
import type { AdminOutcome } from '../../../src/machines/admin/admin.rules'
import {
  fixedOutcome,
  migratedOutcome,
  recalculatedOutcome,
  roleOutcome,
  twoFactorResetOutcome,
} from '../../../src/machines/admin/admin.rules'
import type { MachineModel } from '../support/walks'

// The admin operations actor's model: type a user ID and a username (or leave them empty), start each operation,
// confirm or cancel the two that ask, and the server's answers. Walked by tests/machines/admin.test.ts and printed by
// `npm run paths -- admin`.

export const outcomes: Record<string, AdminOutcome> = {
  fixAllStats: fixedOutcome({ recalculated: 20, fixed: 3 }),
  recalculate: recalculatedOutcome({ username: 'ann', stats: { followers: 2, following: 1, posts: 5 } }),
  resetTwoFactor: twoFactorResetOutcome('ann'),
  promote: roleOutcome('ann', true),
  demote: roleOutcome('ann', false),
  migrateKeys: migratedOutcome({ migrated: 4, pending: 6 }),
}
export const lastAdmin = new Invalid({
  message: 'The last admin cannot be demoted: promote another member first',
  fromServer: true,
  status: 409,
  details: [],
})
export const offline = new Network({ message: 'Unable to reach the server.' })

const events: AnyEventObject[] = [
  { type: 'admin.userId.input', value: '0190a6b2-0000-7000-8000-000000000002' },
  { type: 'admin.username.input', value: '@ann' },
  { type: 'admin.fixAll' },
  { type: 'admin.recalculate' },
  { type: 'admin.resetTwoFactor' },
  { type: 'admin.promote' },
  { type: 'admin.demote' },
  { type: 'admin.migrateKeys' },
  { type: 'admin.confirm' },
  { type: 'admin.cancel' },
  ...Object.values(outcomes).map((output) => ({ type: 'xstate.done.actor.perform', output })),
  { type: 'xstate.error.actor.perform', error: lastAdmin },
  { type: 'xstate.error.actor.perform', error: offline },
]

/** The answer of the operation that runs, no other. */
function offer(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  if (event.type !== 'xstate.done.actor.perform') return true
  const operation = (snapshot.context as { operation: string | null }).operation
  return operation !== null && event.output === outcomes[operation]
}

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'xstate.done.actor.perform') {
    const found = Object.entries(outcomes).find(([, o]) => o === event.output)
    return `done(${found?.[0] ?? '?'})`
  }
  if (event.type === 'xstate.error.actor.perform') return `failed(${event.error === lastAdmin ? 'server' : 'offline'})`
  return undefined
}

export const adminModel = {
  name: 'admin',
  machine: adminMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events,
        label,
        offer,
        // Results and the log version only accumulate: states are told apart by what the admin sees now.
        serializeState: (s: { value: unknown; context: unknown }) => {
          const c = s.context as { userId: string; username: string; operation: string | null }
          return JSON.stringify({ value: s.value, userId: c.userId, username: c.username, operation: c.operation })
        },
        edgesOnly: 'the typed user ID and username and each operation\'s answer are context: every order of typing and answers is its own state',
      }),
    },
  ],
} satisfies MachineModel
