import { fromCallback, setup, type AnyEventObject, type EventObject } from 'xstate'
import { appMachine, type AppInput } from '../../../src/machines/app/app.machine'
import type { MemberContext, MemberEvent } from '../../../src/machines/member/member.machine'
import type { RealtimeInput } from '../../../src/machines/realtime/realtime.actor'
import type { MachineModel } from '../support/walks'
import { noSession } from '../support/fixtures'

// The app actor's model: the session changes it hears, the realtime socket's ups and downs, and a screen actor
// opening and closing. Walked by tests/machines/app.machine.test.ts and printed by `npm run paths -- app`.

export const ann: RealtimeInput = { userId: 'user-ann', token: 'token-ann' }

/** A screen's own actor, as a view would open one. */
export const screenMachine = setup({}).createMachine({ id: 'screen' })

const events: AnyEventObject[] = [
  { type: 'app.session.loading' },
  { type: 'app.session.signedIn', ...ann },
  { type: 'app.session.signedOut' },
  { type: 'realtime.connected' },
  { type: 'realtime.disconnected', reason: 'transport close' },
  { type: 'realtime.refused', reason: 'Session expired or revoked' },
  { type: 'app.screen.open', id: 'screen-1', logic: screenMachine },
  { type: 'app.screen.close', id: 'screen-1' },
]

const label = (e: AnyEventObject) =>
  e.type === 'app.session.signedIn' ? `signedIn(${String(e.userId)})` : e.type.startsWith('app.screen.') ? `${e.type}(${String(e.id)})` : undefined

export const appInput: AppInput = { stored: noSession, theme: 'dark' }

/** The member actor's shape without its children: walking the graph runs nothing, so it must register no systemIds. */
const standInMember = setup({
  types: { input: {} as RealtimeInput, context: {} as MemberContext, events: {} as MemberEvent },
}).createMachine({
  id: 'member',
  context: ({ input }) => ({ member: input, connected: false, waiting: {} }),
  // The same states, none of them doing anything (the later chunk is never loaded here).
  initial: 'laterWaits',
  states: { laterWaits: {}, laterLoading: {}, laterFailed: {}, laterReady: {} },
})

const idle = fromCallback<EventObject>(() => () => undefined)

export const appModel = {
  name: 'app',
  machine: appMachine.provide({ actors: { member: standInMember, apiBridge: idle, watchSession: idle } }),
  walks: [
    {
      name: '',
      options: () => ({
        input: appInput,
        events,
        label,
        serializeState: (s: { value: unknown; context: unknown }) => JSON.stringify([s.value, s.context]),
      }),
    },
  ],
} satisfies MachineModel
