import { describe, expect, it } from 'vitest'
import { run } from '../../src/api/calls'
import { makeDiscoverCalls } from '../../src/api/discover.calls'
import { fakeApi, json } from './support/fake-api'

// The member search call against a fake fetch: the query it sends and the body it reads, and a refusal as a typed error.

const setup = (handler: (request: Request) => Response) => fakeApi(makeDiscoverCalls, handler)

const bob = { id: 'u-bob', username: 'bob', displayName: 'Bob', avatar: null, verified: false, bio: '', isFollowing: false }

describe('search calls', () => {
  it('asks GET /users/search?q= and answers the body', async () => {
    const { calls, requests } = setup(() => json(200, { users: [bob], suggestions: [], nextCursor: null }))
    const page = await run(calls.searchUsers({ q: 'bo b' }))
    expect(page.users).toEqual([bob])
    const url = new URL(requests[0]?.url ?? '')
    expect(`${requests[0]?.method} ${url.pathname}`).toBe('GET /api/users/search')
    expect(url.searchParams.get('q')).toBe('bo b')
  })

  it('fails with the server words on a 400', async () => {
    const { calls } = setup(() => json(400, { error: 'q must be at least 2 characters' }))
    await expect(run(calls.searchUsers({ q: 'b' }))).rejects.toMatchObject({ _tag: 'Invalid', message: 'q must be at least 2 characters' })
  })
})
