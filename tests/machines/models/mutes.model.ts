import type { AnyEventObject } from 'xstate'
import { muteListsMachine, mutesMachine, type MutesInput } from '../../../src/machines/mutes/mutes.machine'
import { type MachineModel, scenarioWalks } from '../support/walks'
import { filterListsModel, taken } from './filter-lists.model'

// The Mute Management dialog's models. `mutesModel`: opening and closing the dialog (by `?tab=mutes` or Manage
// Mutes) and its tabs, walked by tests/machines/mutes.test.ts. `muteListsModel`: the lists inside it, the lists
// actor's walks (./filter-lists.model.ts) on muted members, walked by tests/machines/filter-lists.test.ts. Printed by
// `npm run paths -- mutes` and `npm run paths -- mute-lists`.

const at = '2026-01-01T00:00:00.000Z'
const member = (id: string, username: string, reason: string | null) => ({
  id: `mute-${id}`,
  reason,
  muted: { id, username, displayName: username.toUpperCase(), avatar: null, verified: false },
  createdAt: at,
})

export const ann = member('user-ann', 'ann', 'Too many threads')
export const bob = member('user-bob', 'bob', null)

export const muteListsModel = filterListsModel('mute-lists', muteListsMachine, {
  /** The first page: Ann muted, one keyword, one domain, and a next page of members. */
  firstPage: { users: [ann], keywords: ['spoilers'], domains: ['old.example'], nextCursor: 'c2' },
  secondPage: { users: [bob], keywords: ['spoilers'], domains: ['old.example'], nextCursor: null },
  listedMember: 'user-ann',
  keywordTaken: taken('Keyword already muted'),
  domainTaken: taken('Domain already muted'),
})

interface MutesWalk {
  name: string
  input: MutesInput
  events: AnyEventObject[]
}

const scenarios: MutesWalk[] = [
  {
    name: 'opened later',
    input: { open: false },
    events: [{ type: 'mutes.open' }, { type: 'mutes.close' }, { type: 'mutes.tab', tab: 'keywords' }],
  },
  {
    name: 'opened at once',
    input: { open: true },
    events: [{ type: 'mutes.close' }, { type: 'mutes.open' }, { type: 'mutes.tab', tab: 'domains' }],
  },
]

const label = (event: AnyEventObject): string | undefined =>
  event.type === 'mutes.tab' ? `mutes.tab(${event.tab as string})` : undefined

export const mutesModel = {
  name: 'mutes',
  machine: mutesMachine,
  walks: scenarioWalks(scenarios, {
    label,
    // The lists actor is walked by its own model; here only whether the dialog holds one.
    serializeState: (s: { value: unknown; context: { open: boolean; tab: string; lists: unknown } }) =>
      JSON.stringify({ value: s.value, tab: s.context.tab, lists: s.context.lists !== null }),
  }),
} satisfies MachineModel
