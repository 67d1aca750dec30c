import type { AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import { muteMachine, type MuteInput } from '../../../src/machines/mute/mute.machine'
import { type MachineModel, valueAndContext, type Walk } from '../support/walks'

// Mute @user's model: ask, type a reason (or one too long), cancel or confirm, and the server's answer. Walked by
// tests/machines/mute.test.ts and printed by `npm run paths -- mute`.

export const annId = '0190a6b2-0000-7000-8000-000000000002'
export const muteAnswer = {
  id: 'mute-1',
  reason: 'Too loud',
  muted: { id: annId, username: 'ann', displayName: 'Ann Lark', avatar: null, verified: true },
  createdAt: '2026-01-01T00:00:00.000Z',
}
export const already = new Invalid({ message: 'User already muted', fromServer: true, status: 409, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })

const events: AnyEventObject[] = [
  { type: 'mute.ask' },
  { type: 'mute.cancel' },
  { type: 'mute.reason.input', value: '  Too loud ' },
  { type: 'mute.reason.input', value: 'x'.repeat(201) },
  { type: 'mute.confirm' },
  { type: 'xstate.done.actor.muteUser', output: muteAnswer },
  { type: 'xstate.error.actor.muteUser', error: already },
  { type: 'xstate.error.actor.muteUser', error: offline },
  // A profile that says Ann is muted offers Unmute instead.
  { type: 'mute.undo' },
  { type: 'xstate.done.actor.unmuteUser', output: undefined },
  { type: 'xstate.error.actor.unmuteUser', error: offline },
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'mute.reason.input') {
    const value = event.value as string
    return `mute.reason.input(${value.length > 20 ? `${value.length} chars` : JSON.stringify(value)})`
  }
  if (event.type === 'xstate.error.actor.muteUser') return `refused(${event.error === already ? 'server' : 'offline'})`
  if (event.type === 'xstate.error.actor.unmuteUser') return 'unmute refused(offline)'
  return undefined
}

export const muteModel = {
  name: 'mute',
  machine: muteMachine,
  walks: [
    {
      name: 'from a post menu (not muted)',
      input: { userId: annId },
      options: () => ({
        input: { userId: annId },
        events,
        label,
        serializeState: valueAndContext,
        edgesOnly: 'the reason typed and each answer are context: every order of typing, failures and retries is its own state',
      }),
    },
    {
      name: 'from the profile of a muted member',
      input: { userId: annId, muted: true },
      options: () => ({
        input: { userId: annId, muted: true },
        events,
        label,
        serializeState: valueAndContext,
        edgesOnly: 'the reason typed and each answer are context: every order of typing, failures and retries is its own state',
      }),
    },
  ],
} satisfies MachineModel<Walk & { input: MuteInput }>
