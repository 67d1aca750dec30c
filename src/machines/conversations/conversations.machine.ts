import { assign, enqueueActions, fromCallback, fromPromise, not, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { isApiError, serverMessageOr } from '../../api/errors'
import { messageCalls, type Conversation, type ConversationsPage } from '../../api/messages.calls'
import { callActor } from '../lib/call-actor'
import { navigate } from '../lib/navigation'
import { conversationMachine } from '../conversation/conversation.machine'
import { showToast } from '../toasts/notify'
import { defaultMessageCrypto, type Opened, type SealedMessage } from './message-crypto'
import { appendPage, conversationPath, mergeFirstPage, putOnTop, readWhileOpen, sealedPreviews } from './conversations.rules'

// The member's conversation list (Messages, left pane; docs/product.md "Direct messages"), one actor for the whole
// session (systemId 'conversations', spawned by the member actor) so the realtime actor can reach it and the sidebar
// badge counts unread conversations on every screen. It reads GET /messages/conversations (spinner, then rows, or
// 'failed' with retry), pages on, decrypts each row's last message for its preview through the provided `decrypt`
// (never the server: it holds ciphertext only), filters rows by 'Search conversations' on the client, refetches the
// first page when the realtime actor says a conversation changed, and every 10 s while the socket is down, and
// once each time the socket (re)connects, for what it missed. Archive, mute and delete-for-me take one call each, one
// at a time, and toast. The open conversation's
// actor is its child (id 'open'): the list hands it the row it opens and passes it the changes the realtime actor
// announces for it (and the poll's, while the socket is down), so the open pane stays live without its own socket.
// Starting a conversation (the New Message modal, a profile's Message button) and opening one the loaded list does
// not hold (a link, an archived one, one further down) run at any time, even before the list has loaded, as call
// children ('start', 'fetchOpen') that report back: one start at a time; a missing conversation shows 'Conversation
// not found' in the pane. Archiving or deleting the open conversation leaves it for /messages.

export const REFETCH_MS = 10_000
export const CONVERSATION_ARCHIVED = 'Conversation archived'
export const CONVERSATION_MUTED = 'Conversation muted'
export const CONVERSATION_UNMUTED = 'Conversation unmuted'
export const CONVERSATION_DELETED = 'Conversation deleted'
export const CONVERSATION_FAILED = 'Failed to update conversation'
export const START_FAILED = 'Failed to start conversation'

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
  /** New Message modal, a profile's Message button: start (or reopen) the conversation with this member and show it. */
  | { type: 'conversation.start'; recipientId: string }
  /** From the 'start' call child. */
  | { type: 'conversation.started'; conversation: Conversation }
  | { type: 'conversation.startFailed'; error: unknown }
  /** From the 'fetchOpen' call child: the conversation a link asked for, or why it cannot be shown. */
  | { type: 'conversation.fetched'; conversation: Conversation }
  | { type: 'conversation.fetchFailed'; id: string; error: unknown }

export interface ConversationsInput {
  /** The viewer's user id: the other participant of each row is the one who is not. */
  userId: string
  /** The socket is already up (the list started after it connected): the poll stands down from the start. */
  connected?: boolean
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
  /** The open conversation's row when the list does not hold it (archived, further down, not loaded yet). */
  openRow: Conversation | null
  /** The conversation a link asked for, while it is fetched ('fetchOpen'). */
  fetching: string | null
  /** The conversation a link asked for that cannot be shown: not found (404), or failed to load (retry by opening). */
  missing: { id: string; notFound: boolean } | null
  /** The member a conversation is being started with ('start'); one at a time. */
  starting: string | null
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
    startConversation: callActor<string, Conversation>((recipientId, signal) => run(messageCalls.startConversation(recipientId), signal), {
      done: (_, conversation) => ({ type: 'conversation.started', conversation }),
      failed: (_, error) => ({ type: 'conversation.startFailed', error }),
    }),
    fetchConversation: callActor<string, Conversation>((id, signal) => run(messageCalls.getConversation(id), signal), {
      done: (_, conversation) => ({ type: 'conversation.fetched', conversation }),
      failed: (id, error) => ({ type: 'conversation.fetchFailed', id, error }),
    }),
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
    openConversation: enqueueActions(({ context, enqueue }, row: Conversation | undefined) => {
      if (!row) return
      enqueue.stopChild('open')
      enqueue.stopChild('fetchOpen')
      enqueue.spawnChild('conversation', { id: 'open', input: { userId: context.me, conversation: row } })
      const listed = context.conversations.some((c) => c.id === row.id)
      enqueue.assign({
        openId: row.id,
        openRow: listed ? null : row,
        fetching: null,
        missing: null,
        conversations: readWhileOpen(context.conversations, context.openId),
      })
    }),
    closeConversation: enqueueActions(({ context, enqueue }) => {
      enqueue.stopChild('open')
      enqueue.stopChild('fetchOpen')
      enqueue.assign({ openId: null, openRow: null, fetching: null, missing: null, conversations: readWhileOpen(context.conversations, context.openId) })
    }),
    /** A link to a conversation the list does not hold: the pane shows a spinner while it is fetched. */
    fetchConversation: enqueueActions(({ enqueue }, id: string) => {
      enqueue.stopChild('open')
      enqueue.stopChild('fetchOpen')
      enqueue.spawnChild('fetchConversation', { id: 'fetchOpen', input: id })
      enqueue.assign({ openId: null, openRow: null, fetching: id, missing: null })
    }),
    showMissing: enqueueActions(({ enqueue }, { id, error }: { id: string; error: unknown }) => {
      enqueue.stopChild('fetchOpen')
      enqueue.assign({ fetching: null, missing: { id, notFound: isApiError(error) && error._tag === 'NotFound' } })
    }),
    beginStart: enqueueActions(({ enqueue }, recipientId: string) => {
      enqueue.spawnChild('startConversation', { id: 'start', input: recipientId })
      enqueue.assign({ starting: recipientId })
    }),
    /** The started (or reopened) conversation comes first in the list, replacing its old row. */
    showStarted: enqueueActions(({ enqueue }, conversation: Conversation) => {
      enqueue.stopChild('start')
      enqueue.assign(({ context }) => ({ starting: null, conversations: putOnTop(context.conversations, conversation) }))
    }),
    goTo: (_, id: string) => navigate(conversationPath(id)),
    notifyStartFailed: enqueueActions(({ enqueue, system }, error: unknown) => {
      enqueue.stopChild('start')
      enqueue.assign({ starting: null })
      showToast(system, 'error', serverMessageOr(error, START_FAILED))
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
        const mute = (c: Conversation) => (c.id === change.id ? { ...c, muted: change.muted } : c)
        return { change: null, conversations: context.conversations.map(mute), openRow: context.openRow && mute(context.openRow) }
      }
      return { change: null, conversations: context.conversations.filter((c) => c.id !== change.id) }
    }),
    /** An archived or deleted conversation that was open closes, and the member is back on /messages. */
    leaveIfGone: enqueueActions(({ context, enqueue }) => {
      const change = context.change
      if (!change || change.kind === 'mute' || change.id !== context.openId) return
      enqueue.stopChild('open')
      enqueue.assign({ openId: null, openRow: null })
      enqueue(() => navigate(conversationPath(null)))
    }),
    notifyChanged: ({ context, system }) => {
      if (context.change) showToast(system, 'success', SUCCESS(context.change))
    },
    notifyRefused: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, CONVERSATION_FAILED)),
    forgetChange: assign({ change: null }),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
    /** The pane shows a conversation, or is fetching one, or says one is missing. */
    isOpen: ({ context }) => context.openId !== null || context.fetching !== null || context.missing !== null,
    isStale: ({ context }) => context.stale,
    socketDown: ({ context }) => !context.connected,
    needsPreviews: ({ context }) => sealedPreviews(context.conversations, context.me, context.opened).length > 0,
    isListed: ({ context }, id: string) => context.conversations.some((c) => c.id === id),
    /** Listed, or open from a link (an archived one can still be muted or deleted). */
    isKnown: ({ context }, id: string) => context.conversations.some((c) => c.id === id) || context.openRow?.id === id,
    isShown: ({ context }, id: string) => context.openId === id || context.fetching === id,
    isStarting: ({ context }) => context.starting !== null,
    isFetching: ({ context }, id: string) => context.fetching === id,
  },
}).createMachine({
  id: 'conversations',
  context: ({ input }) => ({
    me: input.userId,
    conversations: [],
    nextCursor: null,
    opened: {},
    search: '',
    connected: input.connected ?? false,
    stale: false,
    change: null,
    openId: null,
    openRow: null,
    fetching: null,
    missing: null,
    starting: null,
  }),
  invoke: { id: 'poll', src: 'poll' },
  on: {
    'conversations.search': { actions: { type: 'setSearch', params: ({ event }) => event.query } },
    'conversation.changed': { actions: ['markStale', { type: 'tellOpen', params: ({ event }) => event.conversation }] },
    'conversation.close': { guard: 'isOpen', actions: 'closeConversation' },
    'conversation.open': [
      // The route sends it on every visit: the conversation already shown (or being fetched) stays as it is.
      { guard: { type: 'isShown', params: ({ event }) => event.id } },
      {
        guard: { type: 'isListed', params: ({ event }) => event.id },
        actions: { type: 'openConversation', params: ({ context, event }) => context.conversations.find((c) => c.id === event.id) },
      },
      { actions: { type: 'fetchConversation', params: ({ event }) => event.id } },
    ],
    'conversation.fetched': {
      guard: { type: 'isFetching', params: ({ event }) => event.conversation.id },
      actions: { type: 'openConversation', params: ({ event }) => event.conversation },
    },
    'conversation.fetchFailed': {
      guard: { type: 'isFetching', params: ({ event }) => event.id },
      actions: { type: 'showMissing', params: ({ event }) => ({ id: event.id, error: event.error }) },
    },
    'conversation.start': {
      guard: not('isStarting'),
      actions: { type: 'beginStart', params: ({ event }) => event.recipientId },
    },
    'conversation.started': {
      guard: 'isStarting',
      actions: [
        { type: 'showStarted', params: ({ event }) => event.conversation },
        { type: 'openConversation', params: ({ event }) => event.conversation },
        { type: 'goTo', params: ({ event }) => event.conversation.id },
      ],
    },
    'conversation.startFailed': { guard: 'isStarting', actions: { type: 'notifyStartFailed', params: ({ event }: { event: { error: unknown } }) => event.error } },
    // (Re)connected: server events sent while the socket was not up (before it first connected, or during a drop)
    // were never heard, so the list refetches once, and the open conversation with it, to catch up; then the poll
    // stands down. Without this a reply that came in before the socket connected stayed unseen.
    'realtime.connected': { actions: [{ type: 'setConnected', params: true }, 'markStale', { type: 'tellOpen', params: null }] },
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
                  guard: { type: 'isKnown', params: ({ event }) => event.id },
                  target: 'saving',
                  actions: { type: 'begin', params: ({ event }) => ({ kind: 'archive' as const, id: event.id }) },
                },
                'conversation.mute': {
                  guard: { type: 'isKnown', params: ({ event }) => event.id },
                  target: 'saving',
                  actions: {
                    type: 'begin',
                    params: ({ context, event }) => ({
                      kind: 'mute' as const,
                      id: event.id,
                      muted: !(context.conversations.find((c) => c.id === event.id) ?? context.openRow)?.muted,
                    }),
                  },
                },
                'conversation.delete': {
                  guard: { type: 'isKnown', params: ({ event }) => event.id },
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
                onDone: { target: 'idle', actions: ['notifyChanged', 'leaveIfGone', 'apply'] },
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
