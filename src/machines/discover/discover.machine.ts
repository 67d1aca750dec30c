import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { discoverCalls, type Trend, type UserSearchResult } from '../../api/discover.calls'
import { followMachine, LIST_FOLLOW_MESSAGES, type FollowRef } from '../follow/follow.machine'
import { canFollow } from '../follow/follow.rules'
import { trendsOrFallback, type TrendItem } from '../search/search.rules'

// Trending Now and Who to Follow (docs/product.md, "Search and hashtags", "Explore", "Home feed"): the panels that help
// a member find people and topics, wherever they show (an empty Search box, beside Explore, an empty Home). Two regions
// side by side, each loaded once when the actor starts:
// - trending: the trending hashtags; no trends or a failure quietly show the fixed list.
// - suggestions: members to follow, each row with its own Follow actor (none on the viewer's own row); a failure shows
//   none ('No suggestions available').

export interface DiscoverInput {
  viewerId: string
}

export interface SuggestionRow {
  user: UserSearchResult
  /** Null on the viewer's own row. */
  follow: FollowRef | null
}

export interface DiscoverContext {
  viewerId: string
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
  context: ({ input }) => ({ viewerId: input.viewerId, trends: null, suggestions: null }),
  type: 'parallel',
  states: {
    trending: {
      initial: 'loading',
      states: {
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
      initial: 'loading',
      states: {
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
