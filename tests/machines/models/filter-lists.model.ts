import type { AnyEventObject } from 'xstate'
import { type ApiError, Invalid, Network } from '../../../src/api/errors'
import type { FilterListsMachine, FilterPage } from '../../../src/machines/filter-lists/filter-lists.machine'
import { type MachineModel, valueAndContext } from '../support/walks'

// The lists actor's model (src/machines/filter-lists/filter-lists.machine.ts), in three walks (loading and the
// members, keywords, domains) that together take every transition. One model for each feature that uses the actor
// (Blocked Accounts: ./blocked.model.ts, Mute Management's lists: ./mutes.model.ts), walked by
// tests/machines/filter-lists.test.ts with the same assertions and printed by `npm run paths -- <name>`.

export interface FilterListsFixtures<U> {
  firstPage: FilterPage<U>
  secondPage: FilterPage<U>
  /** The id of a listed member of the first page. */
  listedMember: string
  keywordTaken: ApiError
  domainTaken: ApiError
}

export const offline = new Network({ message: 'Unable to reach the server.' })

export const taken = (message: string) => new Invalid({ message, fromServer: true, status: 409, details: [] })

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'filter.input') {
    const value = event.value as string
    return `${event.list as string}.input(${value.length > 20 ? `${value.length} chars` : JSON.stringify(value)})`
  }
  if (event.type === 'filter.add') return `${event.list as string}.add`
  if (event.type === 'filter.remove') return `${event.list as string}.remove(${event.value as string})`
  if (event.type === 'xstate.done.actor.load') return 'loaded'
  if (event.type === 'xstate.done.actor.loadMore') return 'loaded more'
  if (event.type === 'xstate.done.actor.change') return `saved(${JSON.stringify(event.output)})`
  if (event.type === 'user.remove') return `user.remove(${event.userId as string})`
  return undefined
}

export function filterListsModel<U>(name: string, machine: FilterListsMachine<U>, fixtures: FilterListsFixtures<U>) {
  const loaded = { type: 'xstate.done.actor.load', output: fixtures.firstPage }
  const scenarios: Record<string, AnyEventObject[]> = {
    members: [
      loaded,
      { type: 'xstate.error.actor.load', error: offline },
      { type: 'lists.retry' },
      { type: 'users.more' },
      { type: 'xstate.done.actor.loadMore', output: fixtures.secondPage },
      { type: 'xstate.error.actor.loadMore', error: offline },
      { type: 'user.remove', userId: fixtures.listedMember },
      { type: 'xstate.done.actor.change', output: null },
      { type: 'xstate.error.actor.change', error: offline },
    ],
    keywords: [
      loaded,
      { type: 'filter.input', list: 'keywords', value: '  big spoilers ' },
      { type: 'filter.input', list: 'keywords', value: 'a'.repeat(101) },
      { type: 'filter.input', list: 'keywords', value: '' },
      { type: 'filter.add', list: 'keywords' },
      { type: 'filter.remove', list: 'keywords', value: 'spoilers' },
      { type: 'xstate.done.actor.change', output: 'big spoilers' },
      { type: 'xstate.error.actor.change', error: fixtures.keywordTaken },
      { type: 'xstate.error.actor.change', error: offline },
    ],
    domains: [
      loaded,
      { type: 'filter.input', list: 'domains', value: ' Spam.Example ' },
      { type: 'filter.input', list: 'domains', value: 'bad_domain' },
      { type: 'filter.add', list: 'domains' },
      { type: 'filter.remove', list: 'domains', value: 'old.example' },
      { type: 'xstate.done.actor.change', output: 'spam.example' },
      { type: 'xstate.error.actor.change', error: fixtures.domainTaken },
      { type: 'xstate.error.actor.change', error: offline },
    ],
  }
  const model = {
    name,
    machine,
    walks: Object.entries(scenarios).map(([walk, events]) => ({
      name: walk,
      options: () => ({
        events,
        label,
        serializeState: valueAndContext,
        // Typing, adding and removing combine freely: the shortest path to every state and one path through every edge.
        edgesOnly: 'members, keywords and domains are added and removed in any order, each a new context',
      }),
    })),
  } satisfies MachineModel
  return { ...model, fixtures }
}
