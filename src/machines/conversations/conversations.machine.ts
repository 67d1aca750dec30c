import { assign, enqueueActions, fromCallback, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { messageCalls, type Conversation, type ConversationsPage } from '../../api/messages.calls'
import { conversationMachine } from '../conversation/conversation.machine'
import { showToast } from '../toasts/notify'
import { defaultMessageCrypto, type Opened, type SealedMessage } from './message-crypto'
import { appendPage, mergeFirstPage, sealedPreviews } from './conversations.rules'

// The member's conversation list (Messages, left pane; docs/product.md "Direct messages"), one actor for the whole
// session (systemId 'conversations', spawned by the member actor) so the realtime actor can reach it and the sidebar
// badge counts unread conversations on every screen. It reads GET /messages/conversations (spinner, then rows, or
// 'failed' with retry), pages on, decrypts each row's last message for its preview through the provided `decrypt`
// (never the server: it holds ciphertext only), filters rows by 'Search conversations' on the client, refetches the
// first page when the realtime actor says a conversation changed, and every 10 s while the socket is down (spec
// section 9). Archive, mute and delete-for-me take one call each, one at a time, and toast. The open conversation's
// actor is its child (id 'open'): the list hands it the row it opens and passes it the changes the realtime actor
// announces for it (and the poll's, while the socket is down), so the open pane stays live without its own socket.

export const REFETCH_MS = 10_000
export const CONVERSATION_ARCHIVED = 'Conversation archived'
export const CONVERSATION_MUTED = 'Conversation muted'
export const CONVERSATION_UNMUTED = 'Conversation unmuted'
export const CONVERSATION_DELETED = 'Conversation deleted'
export const CONVERSATION_FAILED = 'Failed to update conversation'

export type ConversationChange =
  | { kind: 'archive'; id: string }
  | { kind: 'mute'; id: string; muted: boolean }
  | { kind: 'delete'; id: string }

export type ConversationsEvent =
  | { type: 'conversations.retry' }
  | { type: 'conversations.more' }
  | { type: 'conversations.search'; query: string }
  /** From the realtime actor: a message of this conversation was sent, edited or deleted. */
  | { type: 'conversation.changed'; conversation: string; change?: string }
  /** From the poll actor, every REFETCH_MS: refetch unless the socket is up. */
  | { type: 'conversations.poll' }
  /** From the member actor: the socket's state. */
  | { type: 'realtime.connected' }
  | { type: 'realtime.disconnected'; reason?: string }
  | { type: 'conversation.archive'; id: string }
  | { type: 'conversation.mute'; id: string }
  | { type: 'conversation.delete'; id: string }
  /** The pane shows this conversation (its actor is started) or none (stopped). */
  | { type: 'conversation.open'; id: string }
  | { type: 'conversation.close' }

export interface ConversationsInput {
  /** The viewer's user id: the other participant of each row is the one who is not. */
  userId: string
}

export interface ConversationsContext {
  me: string
  conversations: ReadonlyArray<Conversation>
  nextCursor: string | null
  /** Previews by last message id: the text, or null when it cannot be read. */
  opened: Opened
  search: string
  /** The socket is up: server events keep the list fresh and the 10 s poll stands down. */
  connected: boolean
  /** A change was announced while a call was running: refetch once it is done. */
  stale: boolean
  change: ConversationChange | null
  /** The conversation whose actor runs as the child 'open'. */
  openId: string | null
}

const SUCCESS = (change: ConversationChange): string =>
  change.kind === 'archive' ? CONVERSATION_ARCHIVED : change.kind === 'delete' ? CONVERSATION_DELETED : change.muted ? CONVERSATION_MUTED : CONVERSATION_UNMUTED

function save(change: ConversationChange, signal: AbortSignal): Promise<unknown> {
  switch (change.kind) {
    case 'archive':
      return run(messageCalls.archiveConversation(change.id), signal)
    case 'mute':
      return run(messageCalls.muteConversation(change.id, change.muted), signal)
    case 'delete':
      return run(messageCalls.deleteConversation(change.id), signal)
  }
}

export const conversationsMachine = setup({
  types: {
    context: {} as ConversationsContext,
    events: {} as ConversationsEvent,
    input: {} as ConversationsInput,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    loadConversations: fromPromise<ConversationsPage, { cursor: string | null }>(({ input, signal }) =>
      run(messageCalls.getConversations(input.cursor), signal),
    ),
    change: fromPromise<unknown, ConversationChange>(({ input, signal }) => save(input, signal)),
    conversation: conversationMachine,
    decrypt: defaultMessageCrypto.decrypt,
    /** Ticks every REFETCH_MS for the socket-down fallback; the list decides whether a tick refetches. */
    poll: fromCallback(({ sendBack }) => {
      const timer = setInterval(() => sendBack({ type: 'conversations.poll' }), REFETCH_MS)
      return () => clearInterval(timer)
    }),
  },
  actions: {
    showFirstPage: assign((_, page: ConversationsPage) => ({ conversations: page.conversations.filter((c) => !c.archived), nextCursor: page.nextCursor })),
    mergeFirstPage: assign(({ context }, page: ConversationsPage) => ({
      conversations: mergeFirstPage(context.conversations, page.conversations),
      // Rows past the first page keep their cursor; a list that was one page long takes the fresh one.
      nextCursor: context.nextCursor ?? page.nextCursor,
    })),
    appendPage: assign(({ context }, page: ConversationsPage) => ({
      conversations: appendPage(context.conversations, page.conversations),
      nextCursor: page.nextCursor,
    })),
    addPreviews: assign(({ context }, opened: Opened) => ({ opened: { ...context.opened, ...opened } })),
    /** The decrypt actor never fails by contract; if it does anyway, the previews still to read say they cannot be. */
    failPreviews: assign(({ context }) => ({
      opened: { ...context.opened, ...Object.fromEntries(sealedPreviews(context.conversations, context.me, context.opened).map((s) => [s.id, null])) },
    })),
    setSearch: assign((_, query: string) => ({ search: query })),
    setConnected: assign((_, connected: boolean) => ({ connected })),
    markStale: assign({ stale: true }),
    openConversation: enqueueActions(({ context, enqueue }, id: string) => {
      const row = context.conversations.find((c) => c.id === id)
      if (!row) return
      enqueue.stopChild('open')
      enqueue.spawnChild('conversation', { id: 'open', input: { userId: context.me, conversation: row } })
      enqueue.assign({ openId: id })
    }),
    closeConversation: enqueueActions(({ enqueue }) => {
      enqueue.stopChild('open')
      enqueue.assign({ openId: null })
    }),
    /** The open conversation refetches its messages too, when its conversation changed (or at every poll). */
    tellOpen: enqueueActions(({ context, enqueue }, id: string | null) => {
      if (context.openId !== null && (id === null || id === context.openId)) enqueue.sendTo('open', { type: 'conversation.changed' })
    }),
    clearStale: assign({ stale: false }),
    begin: assign((_, change: ConversationChange) => ({ change })),
    /** What the server agreed to, on screen: an archived or deleted row leaves, a muted one shows the icon. */
    apply: assign(({ context }) => {
      const change = context.change
      if (!change) return {}
      if (change.kind === 'mute') {
        return { change: null, conversations: context.conversations.map((c) => (c.id === change.id ? { ...c, muted: change.muted } : c)) }
      }
      return { change: null, conversations: context.conversations.filter((c) => c.id !== change.id) }
    }),
    notifyChanged: ({ context, system }) => {
      if (context.change) showToast(system, 'success', SUCCESS(context.change))
    },
    notifyRefused: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, CONVERSATION_FAILED)),
    forgetChange: assign({ change: null }),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
    isOpen: ({ context }) => context.openId !== null,
    isStale: ({ context }) => context.stale,
    socketDown: ({ context }) => !context.connected,
    needsPreviews: ({ context }) => sealedPreviews(context.conversations, context.me, context.opened).length > 0,
    isListed: ({ context }, id: string) => context.conversations.some((c) => c.id === id),
  },
}).createMachine({
  id: 'conversations',
  context: ({ input }) => ({
    me: input.userId,
    conversations: [],
    nextCursor: null,
    opened: {},
    search: '',
    connected: false,
    stale: false,
    change: null,
    openId: null,
  }),
  invoke: { id: 'poll', src: 'poll' },
  on: {
    'conversations.search': { actions: { type: 'setSearch', params: ({ event }) => event.query } },
    'conversation.changed': { actions: ['markStale', { type: 'tellOpen', params: ({ event }) => event.conversation }] },
    'conversation.close': { guard: 'isOpen', actions: 'closeConversation' },
    'realtime.connected': { actions: { type: 'setConnected', params: true } },
    'realtime.disconnected': { actions: { type: 'setConnected', params: false } },
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      entry: 'clearStale',
      invoke: {
        id: 'loadConversations',
        src: 'loadConversations',
        input: { cursor: null },
        onDone: { target: 'ready', actions: { type: 'showFirstPage', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: {
        'conversations.retry': 'loading',
        // The socket-down poll also retries a failed first load.
        'conversations.poll': { guard: 'socketDown', target: 'loading' },
      },
    },
    ready: {
      type: 'parallel',
      on: {
        'conversation.open': {
          guard: { type: 'isListed', params: ({ event }) => event.id },
          actions: { type: 'openConversation', params: ({ event }) => event.id },
        },
      },
      states: {
        list: {
          initial: 'idle',
          states: {
            idle: {
              always: { guard: 'isStale', target: 'refreshing' },
              on: {
                'conversations.more': { guard: 'hasMore', target: 'loadingMore' },
                'conversations.poll': { guard: 'socketDown', target: 'refreshing', actions: { type: 'tellOpen', params: null } },
                'conversation.archive': {
                  guard: { type: 'isListed', params: ({ event }) => event.id },
                  target: 'saving',
                  actions: { type: 'begin', params: ({ event }) => ({ kind: 'archive' as const, id: event.id }) },
                },
                'conversation.mute': {
                  guard: { type: 'isListed', params: ({ event }) => event.id },
                  target: 'saving',
                  actions: {
                    type: 'begin',
                    params: ({ context, event }) => ({
                      kind: 'mute' as const,
                      id: event.id,
                      muted: !context.conversations.find((c) => c.id === event.id)?.muted,
                    }),
                  },
                },
                'conversation.delete': {
                  guard: { type: 'isListed', params: ({ event }) => event.id },
                  target: 'saving',
                  actions: { type: 'begin', params: ({ event }) => ({ kind: 'delete' as const, id: event.id }) },
                },
              },
            },
            refreshing: {
              entry: 'clearStale',
              invoke: {
                id: 'refresh',
                src: 'loadConversations',
                input: { cursor: null },
                onDone: { target: 'idle', actions: { type: 'mergeFirstPage', params: ({ event }) => event.output } },
                // The rows on screen stay; the next change or poll tries again.
                onError: { target: 'idle' },
              },
            },
            loadingMore: {
              tags: ['busy'],
              invoke: {
                id: 'loadMore',
                src: 'loadConversations',
                input: ({ context }) => ({ cursor: context.nextCursor }),
                onDone: { target: 'idle', actions: { type: 'appendPage', params: ({ event }) => event.output } },
                onError: { target: 'idle' },
              },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                id: 'change',
                src: 'change',
                input: ({ context }) => context.change as ConversationChange,
                onDone: { target: 'idle', actions: ['notifyChanged', 'apply'] },
                onError: {
                  target: 'idle',
                  actions: [{ type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error }, 'forgetChange'],
                },
              },
            },
          },
        },
        previews: {
          initial: 'idle',
          states: {
            idle: {
              always: { guard: 'needsPreviews', target: 'decrypting' },
            },
            decrypting: {
              invoke: {
                id: 'decrypt',
                src: 'decrypt',
                input: ({ context }): ReadonlyArray<SealedMessage> => sealedPreviews(context.conversations, context.me, context.opened),
                // Back to idle, which decrypts again if rows came in meanwhile.
                onDone: { target: 'idle', actions: { type: 'addPreviews', params: ({ event }) => event.output } },
                onError: { target: 'idle', actions: 'failPreviews' },
              },
            },
          },
        },
      },
    },
  },
})

export type ConversationsMachine = typeof conversationsMachine
export type ConversationsRef = ActorRefFrom<ConversationsMachine>
