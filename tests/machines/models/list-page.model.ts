import type { AnyEventObject } from 'xstate'
import { Network, NotFound } from '../../../src/api/errors'
import { listPageMachine } from '../../../src/machines/list-page/list-page.machine'
import { ann, bob, list, me } from './lists.model'
import { type MachineModel, scenarioWalks, valueAndContext } from '../support/walks'

// The list page's model (/lists/{id}): loading, a missing list, a failure and its retry, and Subscribe / Unsubscribe
// on someone else's list; one's own list offers neither; the Members dialog's pages (Load more, a failed page). Walked by tests/machines/list-page.test.ts and printed by
// `npm run paths -- list-page`.

export const theirList = list('l-1', 'Shore watch', { owner: { ...ann }, memberCount: 2, subscriberCount: 4 })
export const ownList = list('l-1', 'Mine', { memberCount: 1 })
export const missing = new NotFound({ message: 'List not found', fromServer: true })
export const offline = new Network({ message: 'Unable to reach the server.' })

const detail = (l: typeof theirList) => ({ list: l, members: [ann], nextCursor: null })

const scenarios: Record<string, AnyEventObject[]> = {
  theirs: [
    { type: 'xstate.error.actor.loadList', error: offline },
    { type: 'listPage.retry' },
    { type: 'xstate.done.actor.loadList', output: detail(theirList) },
    { type: 'listPage.subscribe' },
    { type: 'xstate.done.actor.subscribe', output: { subscribed: true, subscriberCount: 5 } },
    { type: 'xstate.error.actor.subscribe', error: offline },
    { type: 'listPage.unsubscribe' },
    { type: 'xstate.done.actor.unsubscribe', output: { subscribed: false, subscriberCount: 4 } },
    { type: 'xstate.error.actor.unsubscribe', error: offline },
  ],
  own: [
    { type: 'xstate.done.actor.loadList', output: detail(ownList) },
    { type: 'listPage.subscribe' },
    { type: 'listPage.unsubscribe' },
  ],
  missing: [{ type: 'xstate.error.actor.loadList', error: missing }],
  members: [
    { type: 'xstate.done.actor.loadList', output: { list: theirList, members: [ann], nextCursor: 'm-next' } },
    { type: 'listPage.moreMembers' },
    { type: 'xstate.error.actor.loadMembers', error: offline },
    { type: 'xstate.done.actor.loadMembers', output: { list: theirList, members: [ann, bob], nextCursor: null } },
  ],
}

const label = (event: AnyEventObject): string | undefined => {
  if (event.type.startsWith('xstate.error.actor.')) return `${event.type.replace('xstate.error.actor.', 'failed ')}(${event.error === missing ? '404' : 'offline'})`
  if (event.type === 'xstate.done.actor.loadMembers') return 'more members'
  if (event.type === 'xstate.done.actor.loadList') return `loaded(${(event.output as { list: { name: string } }).list.name})`
  if (event.type === 'xstate.done.actor.subscribe' || event.type === 'xstate.done.actor.unsubscribe') {
    return `${event.type.replace('xstate.done.actor.', '')}d(${(event.output as { subscriberCount: number }).subscriberCount})`
  }
  return undefined
}

export const listPageModel = {
  name: 'list-page',
  machine: listPageMachine,
  walks: scenarioWalks(scenarios, {
    input: { listId: 'l-1', viewerId: me },
    label,
    serializeState: valueAndContext,
    edgesOnly: 'the list, its timeline pages and its members are context: every order of pages and changes is its own state',
  }),
} satisfies MachineModel
