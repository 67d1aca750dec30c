import type { FastifyInstance } from 'fastify'

/**
 * Shutting down without cutting anyone off. A load balancer asks `/api/ready`; the moment draining starts that answers
 * 503, so it stops sending new requests here. Meanwhile nothing in flight is dropped:
 * - every answer sent from then on carries `Connection: close`, so a client ends its connection after the answer it
 *   was waiting for instead of sending its next request down a socket the server is about to close;
 * - after `delayMs` (time for a balancer that checks every second or two to notice), the server stops listening,
 *   closes the keep-alive connections that sat idle through the whole delay, and waits for the requests still
 *   running before closing the database.
 * Idle connections are not closed at the start: a client that has just had an answer may be writing its next
 * request into that socket at that very moment, and closing it then resets that request (a race HTTP/1.1 cannot
 * avoid, which is why the answers' `Connection: close` does the work instead).
 */
export class Drain {
  private started = false

  get draining(): boolean {
    return this.started
  }

  start(): void {
    this.started = true
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this process is shutting down (server/http/drain.ts). */
    drain: Drain
  }
}

export function addDrain(app: FastifyInstance): void {
  const drain = new Drain()
  app.decorate('drain', drain)
  // onSend runs when each answer goes out, so a request already running when draining starts gets the header too.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (drain.draining) reply.header('connection', 'close')
    done(null, payload)
  })
}

/** What SIGTERM and SIGINT do (server/main.ts): turn not-ready, let the balancer notice, then close. */
export async function drainAndClose(app: FastifyInstance, delayMs: number): Promise<void> {
  app.drain.start()
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
  await app.close()
}
