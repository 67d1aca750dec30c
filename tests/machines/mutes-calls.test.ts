import { describe, expect, it } from 'vitest'
import { Effect } from 'effect'
import { run } from '../../src/api/calls'
import { makeMuteCalls } from '../../src/api/mutes.calls'
import { fakeApi, type Handler, json, where } from './support/fake-api'

// The mute calls against a fake fetch: the right method and path for each, keywords and domains encoded in the path,
// the bodies (the reason only when given), what each answers, and the retry policy (the read once more, writes never).

const setup = (handler: Handler) => fakeApi(makeMuteCalls, handler)

const at = '2026-01-01T00:00:00.000Z'
const ann = { id: 'user-ann', username: 'ann', displayName: 'Ann', avatar: null, verified: false }
const mute = { id: 'mute-1', reason: 'Too loud', muted: ann, createdAt: at }
const keyword = { id: 'kw-1', keyword: 'big spoilers', createdAt: at }
const domain = { id: 'dm-1', domain: 'spam.example', createdAt: at }

describe('mute calls', () => {
  it('reads the mutes, with the cursor of the next page of members when there is one', async () => {
    const page = { mutedUsers: [mute], mutedKeywords: [keyword], mutedDomains: [domain], nextCursor: 'c2' }
    const { calls, requests } = setup(() => json(200, page))
    await expect(run(calls.getMutes())).resolves.toEqual(page)
    await run(calls.getMutes('c2'))
    expect(requests.map(where)).toEqual(['GET /api/mutes', 'GET /api/mutes?cursor=c2'])
  })

  it('mutes a member with the reason only when one is given, and unmutes with DELETE', async () => {
    const { calls, requests } = setup((request) => (request.method === 'POST' ? json(201, { mute }) : new Response(null, { status: 204 })))
    await expect(run(calls.muteUser(ann.id, 'Too loud'))).resolves.toEqual(mute)
    await run(calls.muteUser(ann.id))
    await expect(run(calls.unmuteUser(ann.id))).resolves.toBeUndefined()
    expect(requests.map(where)).toEqual(['POST /api/mutes/user', 'POST /api/mutes/user', `DELETE /api/mutes/user/${ann.id}`])
    expect(await requests[0]?.json()).toEqual({ userId: ann.id, reason: 'Too loud' })
    expect(await requests[1]?.json()).toEqual({ userId: ann.id })
  })

  it('mutes a keyword and a domain as JSON and answers the stored mute', async () => {
    const { calls, requests } = setup((request) =>
      request.url.endsWith('/keyword') ? json(201, { mute: keyword }) : json(201, { mute: domain }),
    )
    await expect(run(calls.muteKeyword('big spoilers'))).resolves.toEqual(keyword)
    await expect(run(calls.muteDomain('spam.example'))).resolves.toEqual(domain)
    expect(requests.map(where)).toEqual(['POST /api/mutes/keyword', 'POST /api/mutes/domain'])
    expect(await requests[0]?.json()).toEqual({ keyword: 'big spoilers' })
    expect(await requests[1]?.json()).toEqual({ domain: 'spam.example' })
  })

  it('unmutes a keyword and a domain with the value encoded in the path', async () => {
    const { calls, requests } = setup(() => new Response(null, { status: 204 }))
    await run(calls.unmuteKeyword('big spoilers/#1?'))
    await run(calls.unmuteDomain('spam.example'))
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE http://wren.test/api/mutes/keyword/big%20spoilers%2F%231%3F',
      'DELETE http://wren.test/api/mutes/domain/spam.example',
    ])
  })

  it("a refusal is a typed error with the server's words", async () => {
    const { calls } = setup(() => json(409, { error: 'Keyword already muted' }))
    const error = await Effect.runPromise(Effect.flip(calls.muteKeyword('spoilers')))
    expect(error).toMatchObject({ _tag: 'Invalid', fromServer: true, message: 'Keyword already muted' })
  })

  it('the read retries once on a transient failure; writes never retry', async () => {
    const read = setup((_request, attempt) =>
      attempt === 1 ? json(503, { error: 'busy' }) : json(200, { mutedUsers: [], mutedKeywords: [], mutedDomains: [], nextCursor: null }),
    )
    await run(read.calls.getMutes())
    expect(read.fetch).toHaveBeenCalledTimes(2)
    const write = setup(() => json(503, { error: 'busy' }))
    await Effect.runPromise(Effect.flip(write.calls.muteUser(ann.id)))
    await Effect.runPromise(Effect.flip(write.calls.unmuteDomain('spam.example')))
    expect(write.fetch).toHaveBeenCalledTimes(2)
  })
})
