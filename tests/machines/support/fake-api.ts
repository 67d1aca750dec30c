import { vi } from 'vitest'
import { type ApiClient, createApiClient, createSessionBridge } from '../../../src/api/client'

// A module's calls (src/api/*.calls.ts) against a fake fetch: each test says what the server answers and reads back
// the requests the calls made.

export type Handler = (request: Request, attempt: number) => Response | Promise<Response>

/** A JSON answer with its status. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** The calls `make` builds, on a client whose every request `handler` answers (`attempt` counts from 1). */
export function fakeApi<C>(make: (client: ApiClient) => C, handler: Handler) {
  const requests: Request[] = []
  const fetch = vi.fn(async (request: Request) => {
    requests.push(request)
    return handler(request, requests.length)
  })
  const client = createApiClient({ baseUrl: 'http://wren.test/api', fetch, bridge: createSessionBridge() })
  return { calls: make(client), requests, fetch }
}

/** "METHOD /path?query" of a request, as the tests compare it. */
export const where = (request: Request | undefined) => {
  const url = new URL(request?.url ?? 'http://none')
  return `${request?.method} ${url.pathname}${url.search}`
}
