import type { AnyEventObject } from 'xstate'
import { Invalid, Network, NotFound } from '../../../src/api/errors'
import { followRequestsMachine } from '../../../src/machines/follow-requests/follow-requests.machine'
import { type MachineModel, scenarioWalks, valueAndContext } from '../support/walks'

// The follow-requests list's model, in two walks (loading and paging; answering rows) that together take every
// transition. Walked by tests/machines/follow-requests.test.ts and printed by `npm run paths -- follow-requests`.

const request = (id: string, username: string) => ({
  id,
  username,
  displayName: username.toUpperCase(),
  avatar: null,
  verified: false,
  requestedAt: '2026-01-01T00:00:00.000Z',
})

export const ann = request('user-ann', 'ann')
export const bob = request('user-bob', 'bob')
export const cy = request('user-cy', 'cy')
/** The first page: Ann and Bob asked, and there is a next page. */
export const firstPage = { requests: [ann, bob], nextCursor: 'c2' }
/** The next page repeats Bob (a newer request shifted the pages) and brings Cy. */
export const secondPage = { requests: [bob, cy], nextCursor: null }

export const offline = new Network({ message: 'Unable to reach the server.' })
/** The requester cancelled meanwhile: the server's own words. */
export const gone = new NotFound({ message: 'Follow request not found', fromServer: true })
/** A refusal without words of the server's: the screen's default says it. */
export const bare = new Invalid({ message: 'Request failed (429)', fromServer: false, status: 429, details: [] })

const loaded = { type: 'xstate.done.actor.loadRequests', output: firstPage }

const scenarios: Record<string, AnyEventObject[]> = {
  list: [
    loaded,
    { type: 'xstate.error.actor.loadRequests', error: offline },
    { type: 'requests.retry' },
    { type: 'requests.more' },
    { type: 'xstate.done.actor.loadMore', output: secondPage },
    { type: 'xstate.error.actor.loadMore', error: offline },
  ],
  answers: [
    loaded,
    { type: 'request.approve', userId: 'user-ann' },
    { type: 'request.decline', userId: 'user-bob' },
    // Not on the list: ignored.
    { type: 'request.approve', userId: 'user-zed' },
    { type: 'xstate.done.actor.answer', output: undefined },
    { type: 'xstate.error.actor.answer', error: offline },
    { type: 'xstate.error.actor.answer', error: gone },
    { type: 'xstate.error.actor.answer', error: bare },
  ],
}

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'xstate.done.actor.loadRequests') return 'loaded'
  if (event.type === 'xstate.done.actor.loadMore') return 'loaded more'
  if (event.type === 'xstate.done.actor.answer') return 'answered'
  if (event.type === 'request.approve' || event.type === 'request.decline') return `${event.type}(${event.userId as string})`
  return undefined
}

export const followRequestsModel = {
  name: 'follow-requests',
  machine: followRequestsMachine,
  walks: scenarioWalks(scenarios, {
    label,
    serializeState: valueAndContext,
    // Answers combine freely as rows go: the shortest path to every state and one path through every edge.
    edgesOnly: 'requests page in and leave as they are answered: every order of pages and answers is its own state',
  }),
} satisfies MachineModel
