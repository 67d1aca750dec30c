import { expect, it } from 'vitest'
import { createActor, fromCallback, type AnyEventObject } from 'xstate'
import {
  CONVERSATION_ARCHIVED,
  CONVERSATION_DELETED,
  CONVERSATION_MUTED,
  CONVERSATION_UNMUTED,
  conversationsMachine,
  START_FAILED,
  type ConversationChange,
} from '../../src/machines/conversations/conversations.machine'
import type { ConversationMachine } from '../../src/machines/conversation/conversation.machine'
import { MESSAGE_DELETED, MESSAGE_UNAVAILABLE } from '../../src/machines/conversations/conversations.rules'
import {
  selectEmpty,
  selectLoading,
  selectMissing,
  selectOpen,
  selectOpening,
  selectRows,
  selectStarting,
  selectUnreadCount,
} from '../../src/machines/conversations/conversations.selectors'
import { conversationsModel, firstPage, ME, notFound, refusedByEve } from './models/conversations.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, perform } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The conversation list. What the member sees after each step: the spinner, the rows (names, previews, unread, muted)
// as the search filters them, the badge, the toasts, and what was asked of the server and of the decrypt actor.

const SUCCESS = (change: ConversationChange) =>
  change.kind === 'archive' ? CONVERSATION_ARCHIVED : change.kind === 'delete' ? CONVERSATION_DELETED : change.muted ? CONVERSATION_MUTED : CONVERSATION_UNMUTED

const quiet = fromCallback(() => () => undefined)

/** Where the machine navigated (src/machines/lib/navigation writes the browser's history; node has none). */
const visited: string[] = []
const history = {
  location: { pathname: '/', search: '' },
  history: { pushState: (_: unknown, __: string, to: string) => visited.push(to), replaceState: () => undefined },
}
Object.assign(globalThis, { window: history })

describeWalks('conversation list', conversationsModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  // The open conversation's actor, as a recorder: what it was started with and what the list told it.
  const toldOpen: Array<{ id: string; event: string }> = []
  const opened: string[] = []
  // (Cast: provide wants the machine's own logic type; the list only starts it, sends it events and stops it.)
  const conversation = fromCallback<AnyEventObject, { conversation: { id: string } }>(({ input, receive }) => {
    opened.push(input.conversation.id)
    receive((e) => toldOpen.push({ id: input.conversation.id, event: e.type }))
  })
  // The start and fetch calls report with events the path sends itself; these record what was asked.
  const asked: Array<{ call: string; input: string }> = []
  const recorder = (call: string) =>
    fromCallback<AnyEventObject, string>(({ input }) => {
      asked.push({ call, input })
    })
  const machine = conversationsMachine.provide({
    actors: {
      loadConversations: calls.invoked(),
      change: calls.actor('change'),
      decrypt: calls.actor('decrypt'),
      poll: quiet,
      conversation: conversation as unknown as ConversationMachine,
      // (Casts: the recorders stand in for the call actors, which take the same input and report by event.)
      startConversation: recorder('start') as never,
      fetchConversation: recorder('fetch') as never,
    },
  })
  const actor = withToasts(createActor(machine, { input: { userId: ME }, inspect })).start()
  expect(calls.started).toEqual([{ id: 'loadConversations', input: { cursor: null } }])

  const replayed = replay(actor, {
    calls,
    mark: () => ({ toldBefore: toldOpen.length, openedBefore: opened.length, askedBefore: asked.length, visitedBefore: visited.length }),
  })
  for await (const { event, before, snapshot, toastsBefore, startedBefore, marked } of replayed) {
    const { toldBefore, openedBefore, askedBefore, visitedBefore } = marked
    const { context } = snapshot
    const rows = selectRows(snapshot)

    const toasts = shownToasts()

    expect(selectLoading(snapshot)).toBe(snapshot.value === 'loading')
    // The search keeps rows whose other member's name or username holds the query, in any case.
    const query = context.search.trim().toLowerCase()
    for (const row of rows) expect(query === '' || `${row.name}|${row.username}`.toLowerCase().includes(query)).toBe(true)
    if (query === '') expect(rows.length).toBe(context.conversations.length)
    if (event.type === 'conversations.search' && event.query === 'BOB' && snapshot.matches('ready')) {
      expect(rows.map((r) => r.name)).toEqual(['Bob Builder'])
    }
    if (event.type === 'conversations.search' && event.query === 'dee' && context.conversations.some((c) => c.id === 'c-dee')) {
      expect(rows.map((r) => r.name)).toEqual(['Dee Dee'])
    }
    // Muted conversations raise no badge, nor does the open one (it is read as it comes in).
    expect(selectUnreadCount(snapshot)).toBe(context.conversations.filter((c) => c.unreadCount > 0 && !c.muted && c.id !== context.openId).length)
    if (event.type === 'conversation.close' && before.context.openId !== null) {
      // Closed, the conversation read there stays read.
      expect(context.conversations.find((c) => c.id === before.context.openId)?.unreadCount ?? 0).toBe(0)
    }
    expect(selectEmpty(snapshot)).toBe(snapshot.matches('ready') && context.conversations.length === 0)
    // Previews: the decrypted text, the placeholder, or the deleted text; never the ciphertext.
    for (const row of rows) {
      expect(row.preview).not.toMatch(/^m1\./)
      const c = context.conversations.find((x) => x.id === row.id)
      if (c?.lastMessage?.deleted) expect(row.preview).toBe(MESSAGE_DELETED)
      // A read tick only on the viewer's own last message that is still there.
      expect(row.fromMe).toBe(c?.lastMessage?.senderId === ME && !c.lastMessage.deleted)
      if (c?.lastMessage && context.opened[c.lastMessage.id] === null) expect(row.preview).toBe(MESSAGE_UNAVAILABLE)
      const opened = c?.lastMessage ? context.opened[c.lastMessage.id] : undefined
      if (c?.lastMessage && !c.lastMessage.deleted && typeof opened === 'string') expect(row.preview).toBe(opened)
      if (!c?.lastMessage) expect(row.preview).toBe('')
    }
    if (snapshot.matches({ ready: { previews: 'decrypting' } }) && !before.matches({ ready: { previews: 'decrypting' } })) {
      // Only ciphertexts not yet opened go to the decrypt actor, with the other member's public key.
      const asked = calls.started.slice(startedBefore).find((c) => c.id === 'decrypt')
      expect(asked).toBeDefined()
      for (const sealed of asked?.input as Array<{ id: string; content: string; otherPublicKey: string }>) {
        expect(before.context.opened).not.toHaveProperty(sealed.id)
        expect(sealed.content).toMatch(/^m1\./)
        expect(sealed.otherPublicKey).toMatch(/^pk-u-/)
      }
    }
    if (event.type === 'xstate.error.actor.decrypt') {
      for (const c of context.conversations) if (c.lastMessage && !c.lastMessage.deleted) expect(context.opened).toHaveProperty(c.lastMessage.id)
    }
    if (event.type === 'xstate.done.actor.decrypt' && 'm-ann' in (event.output as object)) {
      expect(rows.find((r) => r.id === 'c-ann')?.preview ?? 'See you at noon').toBe('See you at noon')
      expect(rows.find((r) => r.id === 'c-bob')?.preview).toBe(MESSAGE_UNAVAILABLE)
    }
    const cy = context.conversations.find((c) => c.id === 'c-cy')
    if (event.type === 'xstate.done.actor.decrypt' && 'm-cy' in (event.output as object) && cy?.lastMessage?.id === 'm-cy') {
      expect(rows.find((r) => r.id === 'c-cy')?.preview).toBe('Fresh news')
    }
    if (event.type === 'xstate.done.actor.loadConversations') expect(context.conversations.map((c) => c.id)).toEqual(['c-ann', 'c-bob', 'c-cy'])
    if (event.type === 'xstate.done.actor.refresh') {
      // Cy's new message puts Cy first; archived elsewhere, Ann's row leaves.
      expect(context.conversations.map((c) => c.id)).toEqual(['c-cy', 'c-bob'])
    }
    if (event.type === 'xstate.done.actor.loadMore') expect(context.conversations.map((c) => c.id)).toEqual(['c-ann', 'c-bob', 'c-cy', 'c-dee'])
    if (event.type === 'conversations.more') expect(calls.started.at(-1)).toEqual({ id: 'loadMore', input: { cursor: 'n2' } })
    if (snapshot.matches({ ready: { list: 'refreshing' } }) && !before.matches({ ready: { list: 'refreshing' } })) {
      expect(calls.started.slice(startedBefore)).toContainEqual({ id: 'refresh', input: { cursor: null } })
    }
    if (event.type === 'conversations.poll') {
      // The poll refetches only while the socket is down.
      const refetched = calls.started.slice(startedBefore).some((c) => c.id === 'refresh' || c.id === 'loadConversations')
      expect(refetched).toBe(!before.context.connected)
    }
    if (event.type === 'realtime.connected') {
      // Events sent while the socket was not up were missed: the list refetches once (now, or after what runs).
      expect(context.connected).toBe(true)
      if (before.matches({ ready: { list: 'idle' } })) expect(snapshot.matches({ ready: { list: 'refreshing' } })).toBe(true)
      else if (!before.matches('failed')) expect(context.stale || snapshot.matches({ ready: { list: 'refreshing' } })).toBe(true)
    }
    if (event.type === 'conversation.changed' && before.matches({ ready: { list: 'idle' } })) {
      expect(snapshot.matches({ ready: { list: 'refreshing' } })).toBe(true)
    }
    if (snapshot.matches({ ready: { list: 'saving' } }) && !before.matches({ ready: { list: 'saving' } })) {
      expect(calls.started.at(-1)).toEqual({ id: 'change', input: context.change })
      if (event.type === 'conversation.mute') {
        const wasMuted = before.context.conversations.find((c) => c.id === 'c-bob')?.muted
        expect(context.change).toEqual({ kind: 'mute', id: 'c-bob', muted: !wasMuted })
      }
    }
    // The open conversation: started with its row, stopped on close, told of its changes and of polls.
    expect(selectOpen(snapshot) === undefined).toBe(context.openId === null)
    const askedNow = asked.slice(askedBefore)
    const shown = before.context.openId === event.id || before.context.fetching === event.id
    if (event.type === 'conversation.open' && shown) {
      // The route sends it on every visit: what is shown stays.
      expect(opened.length).toBe(openedBefore)
      expect(askedNow).toEqual([])
    } else if (event.type === 'conversation.open' && before.context.conversations.some((c) => c.id === event.id)) {
      expect(opened.slice(openedBefore)).toEqual([event.id])
      expect(context.openId).toBe(event.id)
    } else if (event.type === 'conversation.open') {
      // Not in the list: fetched first, the pane says it is loading.
      expect(askedNow).toEqual([{ call: 'fetch', input: event.id }])
      expect(selectOpening(snapshot)).toBe(true)
      expect(context.openId).toBeNull()
    } else if ((event.type === 'conversation.fetched' && before.context.fetching !== null) || (event.type === 'conversation.started' && before.context.starting !== null)) {
      const row = event.conversation as { id: string }
      expect(opened.slice(openedBefore)).toEqual([row.id])
      expect(context.openId).toBe(row.id)
      expect(selectOpening(snapshot)).toBe(false)
    } else {
      expect(opened.length, 'no conversation actor started').toBe(openedBefore)
    }
    if (event.type === 'conversation.fetched') {
      // An archived conversation opens from its link without joining the list.
      expect(rows.map((r) => r.id)).not.toContain('c-zed')
    }
    if (event.type === 'conversation.fetchFailed' && before.context.fetching === event.id) {
      const notFoundError = (event.error as { _tag: string })._tag === 'NotFound'
      expect(selectMissing(snapshot)).toEqual({ id: event.id, notFound: notFoundError })
      expect(selectOpen(snapshot)).toBeUndefined()
    }
    if (event.type === 'conversation.close') expect(selectMissing(snapshot)).toBeNull()
    // Starting: one call at a time; the started conversation comes first, opens, and its page is shown.
    if (event.type === 'conversation.start') {
      expect(askedNow).toEqual(before.context.starting === null ? [{ call: 'start', input: event.recipientId }] : [])
      expect(selectStarting(snapshot)).toBe(true)
    }
    if (event.type === 'conversation.started' && before.context.starting !== null) {
      const row = event.conversation as { id: string }
      expect(rows[0]?.id).toBe(row.id)
      expect(rows.filter((r) => r.id === row.id)).toHaveLength(1)
      expect(visited.slice(visitedBefore)).toEqual([`/messages/${row.id}`])
      expect(selectStarting(snapshot)).toBe(false)
    } else if (event.type === 'xstate.done.actor.change' && before.context.change?.kind !== 'mute' && before.context.change?.id === before.context.openId) {
      // The open conversation archived or deleted: back to Messages.
      expect(visited.slice(visitedBefore)).toEqual(['/messages'])
      expect(context.openId).toBeNull()
    } else {
      expect(visited.length, 'no navigation').toBe(visitedBefore)
    }
    if (event.type === 'conversation.close') expect(context.openId).toBeNull()
    const told = toldOpen.slice(toldBefore)
    const openId = before.context.openId
    const polled = event.type === 'conversations.poll' && !before.context.connected && before.matches({ ready: { list: 'idle' } })
    // A (re)connected socket: the open conversation catches up too.
    const reconnected = event.type === 'realtime.connected'
    if (openId !== null && ((event.type === 'conversation.changed' && event.conversation === openId) || polled || reconnected)) {
      expect(told).toEqual([{ id: openId, event: 'conversation.changed' }])
    } else {
      expect(told).toEqual([])
    }
    if (event.type === 'conversation.delete' && event.id === 'c-nobody') expect(calls.started.length, 'nothing is sent').toBe(startedBefore)

    if (event.type === 'xstate.done.actor.change') {
      const change = before.context.change as ConversationChange
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: SUCCESS(change) })
      if (change.kind === 'mute') expect(rows.find((r) => r.id === change.id)?.muted).toBe(change.muted)
      else expect(rows.map((r) => r.id)).not.toContain(change.id)
    } else if (event.type === 'xstate.error.actor.change') {
      expect(toasts.at(-1)).toMatchObject({ type: 'error', message: notFound.message })
      expect(context.conversations).toEqual(before.context.conversations)
    } else if (event.type === 'conversation.startFailed' && before.context.starting !== null) {
      // The server's words (a block, allowDMs), else the default.
      expect(toasts.at(-1)).toMatchObject({ type: 'error', message: event.error === refusedByEve ? refusedByEve.message : START_FAILED })
      expect(selectStarting(snapshot)).toBe(false)
    } else {
      expect(toasts.length, 'only a saved or refused change says anything').toBe(toastsBefore)
    }
  }
  actor.stop()
}, {
  alsoCovered: (coverage) => {
    // A self-loop the graph walk cannot show (the state does not change): the route sends `conversation.open` on every
    // visit, and the conversation already shown is neither restarted nor fetched again.
    it('keeps the conversation already shown when the route opens it again', async () => {
      const calls = new Calls()
      const started: string[] = []
      const conversation = fromCallback<AnyEventObject, { conversation: { id: string } }>(({ input }) => {
        started.push(input.conversation.id)
      })
      const machine = conversationsMachine.provide({
        actors: { loadConversations: calls.invoked(), decrypt: calls.actor('decrypt'), poll: quiet, conversation: conversation as unknown as ConversationMachine },
      })
      const actor = createActor(machine, { input: { userId: ME }, inspect: coverage.inspector }).start()
      await perform(actor, calls, { type: 'xstate.done.actor.loadConversations', output: firstPage })
      actor.send({ type: 'conversation.open', id: 'c-ann' })
      actor.send({ type: 'conversation.open', id: 'c-ann' })
      expect(started).toEqual(['c-ann'])
      expect(actor.getSnapshot().context.openId).toBe('c-ann')
      actor.stop()
    })
  },
})
