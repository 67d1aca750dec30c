import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { discoverCalls, type Trend, type UserSearchResult } from '../../api/discover.calls'
import { followMachine, LIST_FOLLOW_MESSAGES, type FollowRef } from '../follow/follow.machine'
import { canFollow } from '../follow/follow.rules'
import { trendsOrFallback, type TrendItem } from '../search/search.rules'

// Trending Now and Who to Follow (docs/product.md, "Search and hashtags", "Explore", "Home feed"): the panels that help
// a member find people and topics, wherever they show (an empty Search box, beside Explore, an empty Home). Two regions
// side by side, each loaded once when the actor starts, and only if its screen shows it (`panels`; an empty Home
// shows suggestions only, and asks for nothing else):
// - trending: the trending hashtags; no trends or a failure quietly show the fixed list.
// - suggestions: members to follow, each row with its own Follow actor (none on the viewer's own row); a failure shows
//   none ('No suggestions available').

export type DiscoverPanel = 'trending' | 'suggestions'

export interface DiscoverInput {
  viewerId: string
  /** The panels shown, so loaded; both when absent. */
  panels?: ReadonlyArray<DiscoverPanel>
}

export interface SuggestionRow {
  user: UserSearchResult
  /** Null on the viewer's own row. */
  follow: FollowRef | null
}

export interface DiscoverContext {
  viewerId: string
  panels: ReadonlyArray<DiscoverPanel>
  /** Null while loading. */
  trends: TrendItem[] | null
  /** Null while loading. */
  suggestions: SuggestionRow[] | null
}

export const discoverMachine = setup({
  types: {
    context: {} as DiscoverContext,
    input: {} as DiscoverInput,
  },
  actors: {
    loadTrending: fromPromise<Trend[]>(({ signal }) => run(discoverCalls.getTrending(), signal).then((r) => r.trends)),
    loadSuggestions: fromPromise<UserSearchResult[]>(({ signal }) =>
      run(discoverCalls.searchUsers(null), signal).then((r) => r.suggestions),
    ),
    follow: followMachine,
  },
  guards: {
    shows: ({ context }, panel: DiscoverPanel) => context.panels.includes(panel),
  },
  actions: {
    showTrends: assign((_, trends: Trend[] | null) => ({ trends: trendsOrFallback(trends) })),
    showSuggestions: assign(({ context, spawn }, users: UserSearchResult[]) => ({
      suggestions: users.map(
        (user): SuggestionRow => ({
          user,
          follow: canFollow(user.id, context.viewerId)
            ? spawn('follow', {
                id: `suggested-${user.id}`,
                input: { userId: user.id, following: user.isFollowing, followers: 0, messages: LIST_FOLLOW_MESSAGES },
              })
            : null,
        }),
      ),
    })),
  },
}).createMachine({
  id: 'discover',
  context: ({ input }) => ({ viewerId: input.viewerId, panels: input.panels ?? ['trending', 'suggestions'], trends: null, suggestions: null }),
  type: 'parallel',
  states: {
    trending: {
      initial: 'start',
      states: {
        start: { always: [{ guard: { type: 'shows', params: 'trending' }, target: 'loading' }, { target: 'hidden' }] },
        /** Not shown on this screen: never asked for. */
        hidden: {},
        loading: {
          invoke: {
            id: 'loadTrending',
            src: 'loadTrending',
            onDone: { target: 'ready', actions: { type: 'showTrends', params: ({ event }) => event.output } },
            // Silent: the fixed list stands in.
            onError: { target: 'ready', actions: { type: 'showTrends', params: null } },
          },
        },
        ready: {},
      },
    },
    suggestions: {
      initial: 'start',
      states: {
        start: { always: [{ guard: { type: 'shows', params: 'suggestions' }, target: 'loading' }, { target: 'hidden' }] },
        /** Not shown on this screen: never asked for. */
        hidden: {},
        loading: {
          invoke: {
            id: 'loadSuggestions',
            src: 'loadSuggestions',
            onDone: { target: 'ready', actions: { type: 'showSuggestions', params: ({ event }) => event.output } },
            onError: { target: 'ready', actions: { type: 'showSuggestions', params: [] } },
          },
        },
        ready: {},
      },
    },
  },
})

export type DiscoverMachine = typeof discoverMachine
export type DiscoverRef = ActorRefFrom<DiscoverMachine>
