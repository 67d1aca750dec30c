import { describe, expect, it } from 'vitest'
import { assign, createActor, setup, spawnChild, type AnyEventObject } from 'xstate'
import { SERVER_EVENTS, SOCKET_REFUSALS } from '../../src/api/contract/socket-events'
import { realtimeLogic, type RealtimeInput } from '../../src/machines/realtime/realtime.actor'
import { socketFactory } from './support/fake-socket'

// The realtime actor (docs/product.md, "Realtime"): it opens the socket with the member's token, says who it is once
// connected, turns each server event into an event for the actor that owns the data (by systemId), treats a refused
// token as a 401 (the session ends), and closes the socket when it is stopped (logout, 401, sign-in as someone else).

const member: RealtimeInput = { token: 'token-1', userId: 'user-1' }

/** What an actor in the system heard. */
const recorder = setup({ types: { context: {} as { heard: AnyEventObject[] }, events: {} as AnyEventObject } }).createMachine({
  context: { heard: [] },
  on: { '*': { actions: assign({ heard: ({ context, event }) => [...context.heard, event] }) } },
})

function start() {
  const factory = socketFactory()
  const host = setup({
    types: { context: {} as { heard: AnyEventObject[] }, events: {} as AnyEventObject },
    actors: { realtime: realtimeLogic(factory.open), recorder },
  }).createMachine({
    context: { heard: [] },
    entry: [
      spawnChild('recorder', { id: 'session', systemId: 'session' }),
      spawnChild('recorder', { id: 'conversations', systemId: 'conversations' }),
      spawnChild('recorder', { id: 'notifications', systemId: 'notifications' }),
    ],
    initial: 'on',
    states: {
      on: {
        invoke: { id: 'realtime', src: 'realtime', input: member },
        on: { stop: 'off', '*': { actions: assign({ heard: ({ context, event }) => [...context.heard, event] }) } },
      },
      off: {},
    },
  })
  const actor = createActor(host).start()
  const heardBy = (id: 'session' | 'conversations' | 'notifications') =>
    (actor.system.get(id)?.getSnapshot() as { context: { heard: AnyEventObject[] } }).context.heard
  return { actor, factory, socket: () => factory.last()!, parentHeard: () => actor.getSnapshot().context.heard, heardBy }
}

describe('realtime actor', () => {
  it('connects with the token and, once connected, says which member it is', () => {
    const { socket, parentHeard } = start()
    expect(socket().token).toBe('token-1')
    expect(socket().connected).toBe(true)
    expect(socket().emitted).toEqual([])
    socket().fire('connect')
    expect(socket().emitted).toEqual([{ event: 'authenticate', payload: 'user-1' }])
    expect(parentHeard()).toEqual([{ type: 'realtime.connected' }])
  })

  it.each(['new_message', 'message_edited', 'message_deleted'])('%s becomes conversation.changed for the conversations actor', (name) => {
    const { socket, heardBy } = start()
    socket().fire(name, { conversationId: 'c-42' })
    expect(heardBy('conversations')).toEqual([{ type: 'conversation.changed', conversation: 'c-42', change: name }])
  })

  it('messages_read (a read receipt) becomes conversation.changed too, so ticks and badges refresh at once', () => {
    const { socket, heardBy } = start()
    socket().fire('messages_read', { conversationId: 'c-7', readerId: 'user-2', readAt: '2026-01-01T00:00:00.000Z' })
    expect(heardBy('conversations')).toEqual([{ type: 'conversation.changed', conversation: 'c-7', change: 'messages_read' }])
  })

  it('listens to every server event the contract declares', () => {
    const { socket, heardBy } = start()
    for (const name of SERVER_EVENTS) socket().fire(name, { conversationId: `c-${name}` })
    expect(heardBy('conversations').map((e) => e.change)).toEqual([...SERVER_EVENTS])
  })

  it.each([[null], [{}], [{ conversationId: 42 }], [{ conversationId: '' }], [{ conversationId: 'x'.repeat(101) }], ['c-1']])(
    'drops a malformed server event: %j',
    (payload) => {
      const { socket, heardBy } = start()
      socket().fire('new_message', payload)
      expect(heardBy('conversations')).toEqual([])
    },
  )

  it('notification (the unread count) becomes notifications.count for the notifications actor', () => {
    const { socket, heardBy } = start()
    socket().fire('notification', { unreadCount: 3 })
    socket().fire('notification', { unreadCount: 0 })
    expect(heardBy('notifications')).toEqual([
      { type: 'notifications.count', unreadCount: 3 },
      { type: 'notifications.count', unreadCount: 0 },
    ])
    expect(heardBy('conversations')).toEqual([])
  })

  it.each([[null], [{}], [{ unreadCount: -1 }], [{ unreadCount: 1.5 }], [{ unreadCount: '3' }], [{ unreadCount: Number.NaN }], [{ unreadCount: Infinity }], [7]])(
    'drops a malformed notification event: %j',
    (payload) => {
      const { socket, heardBy } = start()
      socket().fire('notification', payload)
      expect(heardBy('notifications')).toEqual([])
    },
  )

  it.each(SOCKET_REFUSALS)("a refused token ('%s') ends the session", (reason) => {
    const { socket, heardBy, parentHeard } = start()
    socket().fire('connect_error', new Error(reason))
    expect(heardBy('session')).toEqual([{ type: 'session.expired' }])
    expect(parentHeard()).toEqual([{ type: 'realtime.refused', reason }])
  })

  it('any other connection error is left to socket.io to retry; a drop is reported', () => {
    const { socket, heardBy, parentHeard } = start()
    socket().fire('connect_error', new Error('xhr poll error'))
    expect(heardBy('session')).toEqual([])
    socket().fire('connect')
    socket().fire('disconnect', 'transport close')
    expect(parentHeard()).toEqual([{ type: 'realtime.connected' }, { type: 'realtime.disconnected', reason: 'transport close' }])
  })

  it('a socket the server dropped on purpose asks again, so a revoked session hears its refusal', () => {
    const { socket, heardBy } = start()
    socket().fire('connect')
    socket().disconnect() // as socket.io does on a server disconnect
    socket().fire('disconnect', 'io server disconnect')
    expect(socket().connected, 'connecting again').toBe(true)
    socket().fire('connect_error', new Error('Session expired or revoked'))
    expect(heardBy('session')).toEqual([{ type: 'session.expired' }])
  })

  it('a dropped transport is left to socket.io to retry', () => {
    const { socket } = start()
    socket().fire('connect')
    socket().disconnect()
    socket().fire('disconnect', 'transport close')
    expect(socket().connected).toBe(false)
  })

  it('stopping it closes the socket and stops listening', () => {
    const { actor, socket, heardBy } = start()
    actor.send({ type: 'stop' })
    expect(socket().disconnected).toBe(true)
    socket().fire('new_message', { conversationId: 'c-1' })
    socket().fire('notification', { unreadCount: 1 })
    expect(heardBy('conversations')).toEqual([])
    expect(heardBy('notifications')).toEqual([])
  })
})
