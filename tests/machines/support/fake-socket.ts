import type { RealtimeSocket } from '../../../src/machines/realtime/realtime.actor'

// A socket.io-client stand-in: the test plays the server (connects, refuses, sends events) and reads what the client
// did (connected, authenticated, disconnected).

type Listener = (...args: unknown[]) => void

export class FakeSocket {
  readonly listeners = new Map<string, Listener[]>()
  readonly emitted: Array<{ event: string; payload: unknown }> = []
  connected = false
  disconnected = false

  constructor(readonly token: string) {}

  connect() {
    this.connected = true
  }
  disconnect() {
    this.disconnected = true
    this.connected = false
  }
  emit(event: string, payload: unknown) {
    this.emitted.push({ event, payload })
  }
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener])
  }
  removeAllListeners() {
    this.listeners.clear()
  }

  /** The server side: fire an event at the client's listeners. */
  fire(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args)
  }
}

/** Records every socket the actor opens. */
export function socketFactory() {
  const sockets: FakeSocket[] = []
  const open = (token: string): RealtimeSocket => {
    const socket = new FakeSocket(token)
    sockets.push(socket)
    // socket.io's overloaded `on` is narrower than a fake needs to be; the fake accepts every event.
    return socket as unknown as RealtimeSocket
  }
  return { sockets, open, last: () => sockets.at(-1) }
}
