import { describe, expect, it, vi } from 'vitest'
import { Effect } from 'effect'
import { createApiClient, createSessionBridge } from '../../src/api/client'
import { makeCalls, run } from '../../src/api/calls'
import { describeError, limitMessage, serverMessageOr, TOO_OFTEN } from '../../src/api/errors'
import { robin, robinAuth } from './support/fixtures'

/** Request bodies of the shape the calls take (the server is a stub here). */
const SECRET = 'A'.repeat(43)
const KDF = { algorithm: 'argon2id', salt: 'AAECAwQFBgcICQoLDA0ODw', memory: 32_768, iterations: 3, parallelism: 1 } as const
const CHANGE = { currentAuthSecret: SECRET, newAuthSecret: SECRET, kdf: KDF }

// The api layer against a fake fetch: status codes become typed errors, 401s reach the session (except on the
// credential forms), the me-check's time budget aborts the fetch, and only queries retry.

type Handler = (request: Request, attempt: number) => Response | Promise<Response>

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function setup(handler: Handler) {
  const bridge = createSessionBridge()
  const requests: Request[] = []
  const fetch = vi.fn(async (request: Request) => {
    requests.push(request)
    return handler(request, requests.length)
  })
  const client = createApiClient({ baseUrl: 'http://wren.test/api', fetch, bridge })
  const expired = vi.fn()
  bridge.onUnauthorized(expired)
  return { bridge, calls: makeCalls(client), requests, fetch, expired }
}

/** Runs a call and returns its typed failure (or fails the test if it succeeded). */
async function failure<A, E>(effect: Effect.Effect<A, E>): Promise<E> {
  return Effect.runPromise(Effect.flip(effect))
}

describe('api client', () => {
  it('sends the bearer token from the provider, and none once the provider says null', async () => {
    const { bridge, calls, requests } = setup(() => json(200, { user: robin }))
    let token: string | null = 'abc'
    bridge.setTokenProvider(() => token)
    await run(calls.me())
    token = null
    await run(calls.me())
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer abc')
    expect(requests[1]?.headers.has('Authorization')).toBe(false)
  })

  it('401 on a call becomes Unauthorized and sends session.expired once', async () => {
    const { calls, expired, fetch } = setup(() => json(401, { error: 'Invalid or expired token' }))
    const error = await failure(calls.me())
    expect(error).toMatchObject({ _tag: 'Unauthorized', message: 'Invalid or expired token', fromServer: true })
    expect(expired).toHaveBeenCalledTimes(1)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('401 on login or register is a form error, not an expired session', async () => {
    const { calls, expired } = setup(() => json(401, { error: 'Invalid username or password' }))
    const error = await failure(calls.login({ username: 'robin', password: 'nope' }))
    expect(error._tag).toBe('Unauthorized')
    expect(describeError(error, 'fallback')).toBe('Invalid username or password')
    await failure(calls.register({ username: 'robin', email: 'r@x.org', displayName: 'R', authSecret: SECRET, kdf: KDF }))
    expect(expired).not.toHaveBeenCalled()
  })

  it('unsubscribing stops session.expired', async () => {
    const bridge = createSessionBridge()
    const listener = vi.fn()
    const stop = bridge.onUnauthorized(listener)
    stop()
    const client = createApiClient({ baseUrl: 'http://wren.test/api', fetch: async () => json(401, {}), bridge })
    await failure(makeCalls(client).logout())
    expect(listener).not.toHaveBeenCalled()
  })

  it.each([
    [403, { error: 'Admins only' }, { _tag: 'Forbidden', message: 'Admins only' }],
    [404, { error: 'No such user' }, { _tag: 'NotFound', message: 'No such user' }],
    [
      400,
      { error: 'Invalid request', details: ['username: too short', 'email: invalid'] },
      { _tag: 'Invalid', status: 400, details: ['username: too short', 'email: invalid'] },
    ],
    [409, { error: 'Username is already taken' }, { _tag: 'Invalid', status: 409, message: 'Username is already taken' }],
    [429, { error: 'Too many attempts' }, { _tag: 'Invalid', status: 429 }],
    [500, { error: 'Internal error' }, { _tag: 'Server', status: 500 }],
    [503, { error: 'Database unavailable' }, { _tag: 'Server', status: 503, message: 'Database unavailable' }],
  ])('%i becomes a typed error', async (status, body, expected) => {
    const { calls } = setup(() => json(status, body))
    const error = await failure(calls.changePassword(CHANGE))
    expect(error).toMatchObject(expected)
  })

  it('a non-JSON error body (a proxy page) still maps, with our own message', async () => {
    const { calls } = setup(() => new Response('<html>Bad gateway</html>', { status: 502 }))
    const error = await failure(calls.changePassword(CHANGE))
    expect(error).toMatchObject({ _tag: 'Server', status: 502, fromServer: false })
    expect(serverMessageOr(error, 'Failed to change password')).toBe('Failed to change password')
  })

  it("a rate limit's refusal keeps the server's wait, and says what happened when a proxy answered instead", async () => {
    const limited = await failure(
      setup(() => json(429, { error: 'Too many posts. Try again in 12 minutes.' })).calls.changePassword(CHANGE),
    )
    expect(limitMessage(limited)).toBe('Too many posts. Try again in 12 minutes.')
    const bare = await failure(
      setup(() => new Response('<html>Slow down</html>', { status: 429 })).calls.changePassword(CHANGE),
    )
    expect(limitMessage(bare)).toBe(TOO_OFTEN)
    const refused = await failure(
      setup(() => json(409, { error: 'Username is already taken' })).calls.changePassword(CHANGE),
    )
    expect(limitMessage(refused)).toBeNull()
  })

  it('a fetch that cannot connect becomes Network', async () => {
    const { calls } = setup(() => {
      throw new TypeError('fetch failed')
    })
    const error = await failure(calls.login({ username: 'robin', password: 'x' }))
    expect(error._tag).toBe('Network')
  })

  it('stopping the caller (an actor signal) aborts the fetch', async () => {
    let signal: AbortSignal | undefined
    const { calls } = setup(
      (request) =>
        new Promise<Response>(() => {
          signal = request.signal
        }),
    )
    const controller = new AbortController()
    const pending = run(calls.me(), controller.signal).catch(() => 'stopped')
    await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort()
    expect(await pending).toBe('stopped')
    expect(signal?.aborted).toBe(true)
  })

  it('queries retry once on a transient failure (503 then 200)', async () => {
    const { calls, fetch } = setup((_request, attempt) => (attempt === 1 ? json(503, { error: 'busy' }) : json(200, { user: robin })))
    await expect(run(calls.me())).resolves.toEqual(robin)
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('queries retry only once', async () => {
    const { calls, fetch } = setup(() => json(503, { error: 'busy' }))
    expect((await failure(calls.me()))._tag).toBe('Server')
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('queries do not retry an answer that would not change (401)', async () => {
    const { calls, fetch } = setup(() => json(401, { error: 'expired' }))
    await failure(calls.me())
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('mutations never retry', async () => {
    const { calls, fetch } = setup(() => json(503, { error: 'busy' }))
    await failure(calls.register({ username: 'robin', email: 'r@x.org', displayName: 'R', authSecret: SECRET, kdf: KDF }))
    await failure(calls.login({ username: 'robin', password: 'x' }))
    await failure(calls.logout())
    expect(fetch).toHaveBeenCalledTimes(3)
  })

  it('run resolves with the data and rejects with the typed error itself', async () => {
    const ok = setup(() => json(200, robinAuth))
    await expect(run(ok.calls.login({ username: 'robin', password: 'Sparrow2026' }))).resolves.toEqual(robinAuth)
    const bad = setup(() => json(400, { error: 'Unknown field: isAdmin' }))
    await expect(run(bad.calls.login({ username: 'robin', password: 'x' }))).rejects.toMatchObject({
      _tag: 'Invalid',
      message: 'Unknown field: isAdmin',
    })
  })

  it('logout accepts an empty 204', async () => {
    const { calls, requests } = setup(() => new Response(null, { status: 204 }))
    await expect(run(calls.logout())).resolves.toBeUndefined()
    expect(requests[0]?.method).toBe('POST')
    expect(new URL(requests[0]?.url ?? '').pathname).toBe('/api/auth/logout')
  })
})
