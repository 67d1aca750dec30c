import type { AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import { addToListMachine } from '../../../src/machines/add-to-list/add-to-list.machine'
import { list } from './lists.model'
import { type MachineModel, scenarioWalks, valueAndContext } from '../support/walks'

// A profile's "Add to list": opening reads the viewer's own lists with whether the member is on each; ticking adds,
// clearing removes; failures leave the box as it was. Walked by tests/machines/add-to-list.test.ts and printed by
// `npm run paths -- add-to-list`.

export const onIt = list('l-on', 'Friends', { memberCount: 1, hasMember: true })
export const offIt = list('l-off', 'Birders', { memberCount: 0, hasMember: false })
export const more = list('l-more', 'Later', { memberCount: 0, hasMember: false })
export const offline = new Network({ message: 'Unable to reach the server.' })
export const refused = new Invalid({ message: 'A list can have at most 5,000 members', fromServer: true, status: 400, details: [] })

const opened = [
  { type: 'addToList.open' },
  { type: 'xstate.done.actor.loadLists', output: { lists: [onIt, offIt], nextCursor: 'next' } },
]

const scenarios: Record<string, AnyEventObject[]> = {
  opening: [
    { type: 'addToList.open' },
    { type: 'xstate.error.actor.loadLists', error: offline },
    { type: 'addToList.retry' },
    { type: 'addToList.close' },
    { type: 'xstate.done.actor.loadLists', output: { lists: [onIt, offIt], nextCursor: 'next' } },
  ],
  toggling: [
    ...opened,
    { type: 'addToList.toggle', listId: 'l-off' },
    { type: 'addToList.toggle', listId: 'l-on' },
    { type: 'xstate.done.actor.setMembership', output: { ...offIt, memberCount: 1 } },
    { type: 'xstate.error.actor.setMembership', error: refused },
    { type: 'addToList.close' },
  ],
  more: [
    ...opened,
    { type: 'addToList.more' },
    { type: 'xstate.done.actor.loadMore', output: { lists: [more], nextCursor: null } },
    { type: 'xstate.error.actor.loadMore', error: offline },
  ],
}

const label = (event: AnyEventObject): string | undefined => {
  if (event.type.startsWith('xstate.error.actor.')) return `${event.type.replace('xstate.error.actor.', 'failed ')}(${event.error === offline ? 'offline' : 'server'})`
  if (event.type === 'xstate.done.actor.loadLists') return 'loaded'
  if (event.type === 'xstate.done.actor.loadMore') return 'loaded more'
  if (event.type === 'xstate.done.actor.setMembership') return `saved(${(event.output as { id: string }).id})`
  if (typeof event.listId === 'string') return `${event.type}(${event.listId})`
  return undefined
}

export const addToListModel = {
  name: 'add-to-list',
  machine: addToListMachine,
  walks: scenarioWalks(scenarios, {
    input: { userId: 'u-ann' },
    label,
    serializeState: valueAndContext,
    edgesOnly: 'each list\'s tick changes the context, so every order of opening pages and ticking lists is a state of its own',
    // The saved list is the one being changed.
    offer: (snapshot: { context: { pending: { listId: string } | null } }, event: AnyEventObject) =>
      event.type !== 'xstate.done.actor.setMembership' || (event.output as { id: string }).id === snapshot.context.pending?.listId,
  }),
} satisfies MachineModel
