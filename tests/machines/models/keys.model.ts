import type { AnyEventObject } from 'xstate'
import { KeyStoreFailed } from '../../../src/crypto'
import { keysMachine, type KeysEvent } from '../../../src/machines/keys/keys'
import { robin } from '../support/fixtures'
import type { MachineModel } from '../support/walks'

// The keys actor's model: login or register settling the keys (ready, or why not), a reload loading them from the
// browser's store (found, absent, store failing), saving them, and sign-out forgetting them. Walked by
// tests/machines/keys.machine.test.ts and printed by `npm run paths -- keys`.

export const storedPrivateKey = { type: 'private', extractable: false } as unknown as CryptoKey
export const robinKeys = { userId: robin.id, publicKey: 'robin-public-key', privateKey: storedPrivateKey }
export const storeFailure = new KeyStoreFailed({ message: 'Your encryption key could not be read in this browser.' })

const events: Array<KeysEvent | AnyEventObject> = [
  { type: 'keys.load', userId: robin.id },
  { type: 'keys.settled', userId: robin.id, outcome: { status: 'ready', keys: robinKeys } },
  { type: 'keys.settled', userId: robin.id, outcome: { status: 'unavailable', reason: 'Encryption needs https.' } },
  { type: 'keys.forget' },
  { type: 'xstate.done.actor.loadKeys', output: robinKeys },
  { type: 'xstate.done.actor.loadKeys', output: undefined },
  { type: 'xstate.error.actor.loadKeys', error: storeFailure },
  { type: 'xstate.done.actor.saveKeys', output: undefined },
  { type: 'xstate.error.actor.saveKeys', error: storeFailure },
  { type: 'xstate.done.actor.forgetKeys', output: undefined },
  { type: 'xstate.error.actor.forgetKeys', error: storeFailure },
]

export const keysModel = {
  name: 'keys',
  machine: keysMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events,
        // Any state takes login, reload and sign-out: simple paths would explode; every state and edge is still walked.
        edgesOnly: 'what the browser\'s store holds and which member\'s keys are loaded are context: every order of sign-ins, reloads and sign-outs repeats the same steps',
        label: (event) => {
          if (event.type === 'keys.settled') return `keys.settled (${(event as unknown as { outcome: { status: string } }).outcome.status})`
          if (event.type === 'xstate.done.actor.loadKeys') return `loadKeys ${event.output ? 'found' : 'absent'}`
          return undefined
        },
        serializeState: (s) => {
          const { userId, status, reason, keys } = s.context as { userId: unknown; status: unknown; reason: unknown; keys: unknown }
          return JSON.stringify({ value: s.value, userId, status, reason, keys: keys !== null })
        },
      }),
    },
  ],
} satisfies MachineModel
