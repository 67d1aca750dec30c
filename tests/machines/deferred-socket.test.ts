import { describe, expect, it, vi } from 'vitest'
import { deferredSocket, type RealtimeSocket } from '../../src/machines/realtime/realtime.actor'

// The socket whose library loads after the first screen: calls made before it arrives are replayed in
// order; a disconnect before then means it is never opened.

function recordingSocket(log: string[]): RealtimeSocket {
  return {
    connect: () => log.push('connect'),
    disconnect: () => log.push('disconnect'),
    emit: (event, userId) => log.push(`emit ${event} ${userId}`),
    on: ((event: string) => log.push(`on ${event}`)) as RealtimeSocket['on'],
    removeAllListeners: () => log.push('removeAllListeners'),
  }
}

describe('deferredSocket', () => {
  it('replays the calls made while loading, in order, then passes calls straight through', async () => {
    const log: string[] = []
    let resolve: (s: RealtimeSocket) => void = () => undefined
    const socket = deferredSocket(() => new Promise((r) => (resolve = r)))
    socket.on('connect', () => undefined)
    socket.connect()
    expect(log).toEqual([])
    resolve(recordingSocket(log))
    await vi.waitFor(() => expect(log).toEqual(['on connect', 'connect']))
    socket.emit('authenticate', 'u1')
    expect(log).toEqual(['on connect', 'connect', 'emit authenticate u1'])
  })

  it('never opens a socket disconnected before it loaded', async () => {
    const log: string[] = []
    let resolve: (s: RealtimeSocket) => void = () => undefined
    const socket = deferredSocket(() => new Promise((r) => (resolve = r)))
    socket.connect()
    socket.removeAllListeners()
    socket.disconnect()
    resolve(recordingSocket(log))
    await new Promise((r) => setTimeout(r, 10))
    expect(log).toEqual([])
  })
})
