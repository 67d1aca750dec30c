import type { AnyEventObject } from 'xstate'
import { Network } from '../../../src/api/errors'
import type { UserSearchResult } from '../../../src/api/discover.calls'
import { newMessageMachine } from '../../../src/machines/new-message/new-message.machine'
import { type MachineModel, valueAndContext } from '../support/walks'

// The New Message modal's model, in two walks: searching and picking with this browser's key ready, and the modal
// of a browser without the key (it says why). Walked by tests/machines/new-message.test.ts and printed by
// `npm run paths -- new-message`.

export const ME = 'u-me'

const member = (id: string, username: string, displayName: string): UserSearchResult => ({
  id,
  username,
  displayName,
  avatar: null,
  verified: false,
  bio: '',
  isFollowing: false,
})

export const bob = member('u-bob', 'bob', 'Bob Builder')
/** The viewer matches their own search, and is left out. */
export const meAsResult = member(ME, 'bobfan', 'Me')

export const found = { users: [meAsResult, bob], suggestions: [], nextCursor: null }
export const onlyMe = { users: [meAsResult], suggestions: [], nextCursor: null }
export const offline = new Network({ message: 'Unable to reach the server.' })
export const KEYS_REASON = 'Your message key could not be unlocked in this browser.'

/** A keys actor as the modal reads it: ready, or unavailable with this reason. */
export const keysSaying = (reason: string | null) => ({
  getSnapshot: () => ({ context: reason === null ? { status: 'ready' as const, reason: null } : { status: 'unavailable' as const, reason } }),
})

// One object each, so the context the graph computed and the actor's hold the same reference.
const readyKeys = keysSaying(null)
const unavailableKeys = keysSaying(KEYS_REASON)

export interface NewMessageWalk {
  readonly name: string
  /** What the keys actor says when the modal opens: null when ready. */
  readonly keysReason: string | null
  readonly options: MachineModel['walks'][number]['options']
}

const label = (event: AnyEventObject): string | undefined => {
  switch (event.type) {
    case 'new-message.query':
      return `query(${JSON.stringify(event.value)})`
    case 'new-message.pick':
      return `pick(${event.userId as string})`
    case 'xstate.done.actor.searchUsers':
      return `found(${(event.output as typeof found).users.map((u) => u.username).join(',')})`
    default:
      return undefined
  }
}

const walk = (name: string, keysReason: string | null, events: AnyEventObject[]): NewMessageWalk => ({
  name,
  keysReason,
  options: () => ({
    events,
    label,
    input: { userId: ME, keys: keysReason === null ? readyKeys : unavailableKeys },
    serializeState: valueAndContext,
    edgesOnly: 'the search text, its results and the picked member are context: every order of typing and answers is its own state',
  }),
})

export const newMessageModel = {
  name: 'new-message',
  machine: newMessageMachine,
  walks: [
    walk('search and pick', null, [
      { type: 'new-message.open' },
      { type: 'new-message.query', value: 'b' },
      { type: 'new-message.query', value: 'bo' },
      { type: 'xstate.done.actor.wait' },
      { type: 'xstate.done.actor.searchUsers', output: found },
      { type: 'xstate.done.actor.searchUsers', output: onlyMe },
      { type: 'xstate.error.actor.searchUsers', error: offline },
      { type: 'new-message.pick', userId: 'u-bob' },
      { type: 'new-message.pick', userId: ME },
      { type: 'new-message.close' },
    ]),
    walk('keys not ready', KEYS_REASON, [{ type: 'new-message.open' }, { type: 'new-message.query', value: 'bo' }, { type: 'new-message.close' }]),
  ],
} satisfies MachineModel<NewMessageWalk>
