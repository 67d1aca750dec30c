import { assign, sendTo, setup, type ActorRefFrom, type AnyActorRef } from 'xstate'
import type { UserSearchResponse, UserSearchResult } from '../../api/discover.calls'
import type { ConversationsEvent } from '../conversations/conversations.machine'
import { searchingState, searchUsers, typedQuery, waitForTyping } from '../lib/user-search'
import { isSearchable, keysBlock, recipients, type KeysState } from './new-message.rules'

// The New Message modal (Messages, 'New message'). Opened, it checks that this browser holds the
// member's message key (the keys actor, systemId 'keys'): without it the modal says why and offers nothing to pick.
// Otherwise the 'To:' field searches members (GET /users/search) 500 ms after the last keystroke, from 2 characters;
// the viewer is left out, and an empty answer reads 'No users found'. Picking a member asks the conversation list
// (systemId 'conversations') to start the conversation, which opens it, and the modal closes.

export type NewMessageEvent =
  | { type: 'new-message.open' }
  | { type: 'new-message.close' }
  | { type: 'new-message.query'; value: string }
  | { type: 'new-message.pick'; userId: string }

/** What the modal reads of the keys actor (systemId 'keys'): its snapshot's status and reason. */
export interface KeysSource {
  getSnapshot(): { context: KeysState }
}

export interface NewMessageInput {
  /** The viewer, never offered as a recipient. */
  userId: string
  /** The app's keys actor, read each time the modal opens (the key may have been set up meanwhile). */
  keys: KeysSource
}

export interface NewMessageContext {
  me: string
  keys: KeysSource
  query: string
  results: ReadonlyArray<UserSearchResult>
  /** Why no conversation can be started from this browser (the keys actor's reason), while the modal is open. */
  keysReason: string | null
}

export const newMessageMachine = setup({
  types: {
    context: {} as NewMessageContext,
    events: {} as NewMessageEvent,
    input: {} as NewMessageInput,
    tags: {} as 'searching',
  },
  actors: {
    /** The debounce: the search starts once the member has stopped typing for SEARCH_DEBOUNCE_MS. */
    wait: waitForTyping,
    searchUsers,
  },
  actions: {
    checkKeys: assign(({ context }) => ({ keysReason: keysBlock(context.keys.getSnapshot().context) })),
    setQuery: assign((_, value: string) => ({ query: value })),
    clearResults: assign({ results: [] }),
    showResults: assign(({ context }, page: UserSearchResponse) => ({ results: recipients(page.users, context.me) })),
    reset: assign({ query: '', results: [], keysReason: null }),
    start: sendTo(
      ({ system }) => system.get('conversations') as AnyActorRef,
      (_, recipientId: string): ConversationsEvent => ({ type: 'conversation.start', recipientId }),
    ),
  },
  guards: {
    keysReady: ({ context }) => context.keysReason === null,
    searchable: (_, value: string) => isSearchable(value),
    isResult: ({ context }, userId: string) => context.results.some((u) => u.id === userId),
  },
}).createMachine({
  id: 'newMessage',
  context: ({ input }) => ({ me: input.userId, keys: input.keys, query: '', results: [], keysReason: null }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'new-message.open': { target: 'checking', actions: 'checkKeys' } },
    },
    checking: {
      always: [{ guard: 'keysReady', target: 'open' }, { target: 'keysUnavailable' }],
    },
    /** The modal says why (the keys actor's reason) and has nothing to search. */
    keysUnavailable: {
      on: { 'new-message.close': { target: 'closed', actions: 'reset' } },
    },
    open: {
      initial: 'idle',
      on: {
        'new-message.close': { target: 'closed', actions: 'reset' },
        'new-message.query': typedQuery,
      },
      states: {
        /** Fewer than 2 characters: nothing is asked. */
        idle: {},
        debouncing: {
          tags: ['searching'],
          invoke: { id: 'wait', src: 'wait', onDone: 'searching' },
        },
        searching: searchingState({ done: 'shown', failed: 'failed' }),
        shown: {
          on: {
            'new-message.pick': {
              guard: { type: 'isResult', params: ({ event }) => event.userId },
              target: '#newMessage.closed',
              actions: [{ type: 'start', params: ({ event }) => event.userId }, 'reset'],
            },
          },
        },
        failed: {},
      },
    },
  },
})

export type NewMessageMachine = typeof newMessageMachine
export type NewMessageRef = ActorRefFrom<NewMessageMachine>
