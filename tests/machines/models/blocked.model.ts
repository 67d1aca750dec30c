import type { AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import { blockedMachine } from '../../../src/machines/blocked/blocked.machine'
import type { MachineModel } from '../support/walks'

// Settings -> Blocked Accounts' model, in three walks (loading and the members, keywords, domains) that together take
// every transition. Walked by tests/machines/blocked.test.ts and printed by `npm run paths -- blocked`.

const member = (id: string, username: string) => ({
  id: `block-${id}`,
  blocked: { id, username, displayName: username.toUpperCase(), avatar: null, verified: false },
  createdAt: '2026-01-01T00:00:00.000Z',
})

export const ann = member('user-ann', 'ann')
export const bob = member('user-bob', 'bob')
/** The first page: Ann blocked, one keyword, one domain, and a next page of members. */
export const firstPage = { users: [ann], keywords: ['spoilers'], domains: ['old.example'], nextCursor: 'c2' }
export const secondPage = { users: [bob], keywords: ['spoilers'], domains: ['old.example'], nextCursor: null }

export const keywordTaken = new Invalid({ message: 'This keyword is already blocked', fromServer: true, status: 409, details: [] })
export const domainTaken = new Invalid({ message: 'This domain is already blocked', fromServer: true, status: 409, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })

const loaded = { type: 'xstate.done.actor.loadBlocks', output: firstPage }

const scenarios: Record<string, AnyEventObject[]> = {
  members: [
    loaded,
    { type: 'xstate.error.actor.loadBlocks', error: offline },
    { type: 'blocked.retry' },
    { type: 'users.more' },
    { type: 'xstate.done.actor.loadMore', output: secondPage },
    { type: 'xstate.error.actor.loadMore', error: offline },
    { type: 'user.unblock', userId: 'user-ann' },
    { type: 'xstate.done.actor.change', output: null },
    { type: 'xstate.error.actor.change', error: offline },
  ],
  keywords: [
    loaded,
    { type: 'keyword.input', value: '  big spoilers ' },
    { type: 'keyword.input', value: 'a'.repeat(101) },
    { type: 'keyword.input', value: '' },
    { type: 'keyword.add' },
    { type: 'keyword.remove', keyword: 'spoilers' },
    { type: 'xstate.done.actor.change', output: 'big spoilers' },
    { type: 'xstate.error.actor.change', error: keywordTaken },
    { type: 'xstate.error.actor.change', error: offline },
  ],
  domains: [
    loaded,
    { type: 'domain.input', value: ' Spam.Example ' },
    { type: 'domain.input', value: 'bad_domain' },
    { type: 'domain.add' },
    { type: 'domain.remove', domain: 'old.example' },
    { type: 'xstate.done.actor.change', output: 'spam.example' },
    { type: 'xstate.error.actor.change', error: domainTaken },
    { type: 'xstate.error.actor.change', error: offline },
  ],
}

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'keyword.input' || event.type === 'domain.input') {
    const value = event.value as string
    return `${event.type}(${value.length > 20 ? `${value.length} chars` : JSON.stringify(value)})`
  }
  if (event.type === 'xstate.done.actor.loadBlocks') return 'loaded'
  if (event.type === 'xstate.done.actor.loadMore') return 'loaded more'
  if (event.type === 'xstate.done.actor.change') return `saved(${JSON.stringify(event.output)})`
  if (event.type === 'user.unblock') return `user.unblock(${event.userId as string})`
  if (event.type === 'keyword.remove') return `keyword.remove(${event.keyword as string})`
  if (event.type === 'domain.remove') return `domain.remove(${event.domain as string})`
  return undefined
}

export const blockedModel = {
  name: 'blocked',
  machine: blockedMachine,
  walks: Object.entries(scenarios).map(([name, events]) => ({
    name,
    options: () => ({
      events,
      label,
      serializeState: (s: { value: unknown; context: unknown }) => JSON.stringify({ value: s.value, context: s.context }),
      // Typing, adding and removing combine freely: the shortest path to every state and one path through every edge.
      simplePaths: false,
    }),
  })),
} satisfies MachineModel
