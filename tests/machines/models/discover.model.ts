import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { discoverMachine } from '../../../src/machines/discover/discover.machine'
import { annUser, down, offline, robinUser, trends, viewerId } from './search.model'
import type { MachineModel } from '../support/walks'

// The discovery panels' model (Trending Now and Who to Follow, shown by Search, Explore and an empty Home): trends,
// none, or a failure (the fixed list); suggestions, or a failure (none). Walked by tests/machines/discover.test.ts and
// printed by `npm run paths -- discover`.

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })

const events: AnyEventObject[] = [
  done('loadTrending', trends),
  done('loadTrending', []),
  { type: 'xstate.error.actor.loadTrending', error: down },
  done('loadSuggestions', [annUser, robinUser]),
  { type: 'xstate.error.actor.loadSuggestions', error: offline },
]

const label = (event: AnyEventObject) =>
  event.type.startsWith('xstate.done.actor.') ? `${event.type.replace('xstate.done.actor.', '')}(${(event.output as unknown[]).length})` : undefined

const serializeState = (s: AnyMachineSnapshot) => {
  const c = s.context as { trends: unknown; suggestions: { user: { id: string } }[] | null }
  return JSON.stringify({ value: s.value, trends: c.trends, suggestions: c.suggestions?.map((r) => r.user.id) ?? null })
}

export const discoverModel = {
  name: 'discover',
  machine: discoverMachine,
  // Both panels (Search, Explore), and one of them alone (an empty Home shows suggestions only): the other is never asked for.
  walks: [
    { name: 'both', options: () => ({ input: { viewerId }, events, serializeState, label }) },
    { name: 'suggestions only', options: () => ({ input: { viewerId, panels: ['suggestions'] }, events, serializeState, label }) },
    { name: 'trending only', options: () => ({ input: { viewerId, panels: ['trending'] }, events, serializeState, label }) },
  ],
} satisfies MachineModel
