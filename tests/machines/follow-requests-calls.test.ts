import { describe, expect, it } from 'vitest'
import { Effect } from 'effect'
import { run } from '../../src/api/calls'
import { makeFollowRequestCalls } from '../../src/api/follow-requests.calls'
import { fakeApi, type Handler, json, where } from './support/fake-api'

// The follow-request calls against a fake fetch: the method and path of each, what each answers, the server's words
// on a refusal, and the retry policy (the read once more, approve and decline never).

const setup = (handler: Handler) => fakeApi(makeFollowRequestCalls, handler)

const ann = { id: 'user-ann', username: 'ann', displayName: 'Ann', avatar: null, verified: false, requestedAt: '2026-01-01T00:00:00.000Z' }

describe('follow-request calls', () => {
  it('reads the requests, with the cursor of the next page when there is one', async () => {
    const page = { requests: [ann], nextCursor: 'c2' }
    const { calls, requests } = setup(() => json(200, page))
    await expect(run(calls.getFollowRequests())).resolves.toEqual(page)
    await run(calls.getFollowRequests('c2'))
    expect(requests.map(where)).toEqual(['GET /api/follow-requests', 'GET /api/follow-requests?cursor=c2'])
  })

  it("approves with POST and answers the member's followers count; declines with POST and answers nothing", async () => {
    const { calls, requests } = setup((request) =>
      request.url.endsWith('/approve') ? json(200, { following: true, followers: 4 }) : new Response(null, { status: 204 }),
    )
    await expect(run(calls.approve(ann.id))).resolves.toEqual({ following: true, followers: 4 })
    await expect(run(calls.decline(ann.id))).resolves.toBeUndefined()
    expect(requests.map(where)).toEqual([`POST /api/follow-requests/${ann.id}/approve`, `POST /api/follow-requests/${ann.id}/decline`])
  })

  it("a refusal is a typed error with the server's words", async () => {
    const { calls } = setup(() => json(404, { error: 'Follow request not found' }))
    const error = await Effect.runPromise(Effect.flip(calls.approve(ann.id)))
    expect(error).toMatchObject({ _tag: 'NotFound', fromServer: true, message: 'Follow request not found' })
  })

  it('the read retries once on a transient failure; approve and decline never retry', async () => {
    const read = setup((_request, attempt) => (attempt === 1 ? json(503, { error: 'busy' }) : json(200, { requests: [], nextCursor: null })))
    await expect(run(read.calls.getFollowRequests())).resolves.toEqual({ requests: [], nextCursor: null })
    expect(read.fetch).toHaveBeenCalledTimes(2)
    const write = setup(() => json(503, { error: 'busy' }))
    await Effect.runPromise(Effect.flip(write.calls.approve(ann.id)))
    await Effect.runPromise(Effect.flip(write.calls.decline(ann.id)))
    expect(write.fetch).toHaveBeenCalledTimes(2)
  })
})
