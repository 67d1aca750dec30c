import type { AnyEventObject } from 'xstate'
import { Network, NotFound } from '../../../src/api/errors'
import { blockMachine, type BlockInput } from '../../../src/machines/block/block.machine'
import type { MachineModel } from '../support/walks'

// Block User's model: ask, cancel or confirm, and the server's answer, from a post card (stays) and from a profile
// (goes home). Walked by tests/machines/block.test.ts and printed by `npm run paths -- block`.

export const gone = new NotFound({ message: 'User not found', fromServer: true })
const offline = new Network({ message: 'Unable to reach the server.' })

export const annId = '0190a6b2-0000-7000-8000-000000000002'
export const blockAnswer = {
  id: 'block-1',
  blocked: { id: annId, username: 'ann', displayName: 'Ann Lark', avatar: null, verified: true },
  createdAt: '2026-01-01T00:00:00.000Z',
}

const events: AnyEventObject[] = [
  { type: 'block.ask' },
  { type: 'block.cancel' },
  { type: 'block.confirm' },
  { type: 'xstate.done.actor.blockUser', output: blockAnswer },
  { type: 'xstate.error.actor.blockUser', error: gone },
  { type: 'xstate.error.actor.blockUser', error: offline },
]

const walk = (name: string, input: BlockInput) => ({
  name,
  input,
  options: () => ({
    input,
    events,
    serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
  }),
})

export const blockModel = {
  name: 'block',
  machine: blockMachine,
  walks: [walk('post card', { userId: annId, leaveTo: null }), walk('profile', { userId: annId, leaveTo: '/' })],
} satisfies MachineModel
