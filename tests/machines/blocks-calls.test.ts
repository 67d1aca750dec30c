import { describe, expect, it } from 'vitest'
import { Effect } from 'effect'
import { run } from '../../src/api/calls'
import { makeBlockCalls } from '../../src/api/blocks.calls'
import { fakeApi, type Handler, json, where } from './support/fake-api'

// The block calls against a fake fetch: the right method and path for each, keywords and domains encoded in the path,
// the bodies, what each answers, and the retry policy (the read once more, writes never).

const setup = (handler: Handler) => fakeApi(makeBlockCalls, handler)

const ann = { id: 'user-ann', username: 'ann', displayName: 'Ann', avatar: null, verified: false }
const block = { id: 'block-1', blocked: ann, createdAt: '2026-01-01T00:00:00.000Z' }

describe('block calls', () => {
  it('reads the blocks, with the cursor of the next page of members when there is one', async () => {
    const page = { users: [block], keywords: ['spoilers'], domains: ['spam.example'], nextCursor: 'c2' }
    const { calls, requests } = setup(() => json(200, page))
    await expect(run(calls.getBlocks())).resolves.toEqual(page)
    await run(calls.getBlocks('c2'))
    expect(requests.map(where)).toEqual(['GET /api/blocks', 'GET /api/blocks?cursor=c2'])
  })

  it('blocks a member with POST (no body) and unblocks with DELETE', async () => {
    const { calls, requests } = setup((request) => (request.method === 'POST' ? json(201, { block }) : new Response(null, { status: 204 })))
    await expect(run(calls.blockUser(ann.id))).resolves.toEqual(block)
    await expect(run(calls.unblockUser(ann.id))).resolves.toBeUndefined()
    expect(requests.map(where)).toEqual([`POST /api/blocks/user/${ann.id}`, `DELETE /api/blocks/user/${ann.id}`])
  })

  it('blocks a keyword and a domain as JSON and answers what the server stored', async () => {
    const { calls, requests } = setup((request) =>
      request.url.endsWith('/keyword') ? json(201, { keyword: 'big spoilers' }) : json(201, { domain: 'spam.example' }),
    )
    await expect(run(calls.blockKeyword('big spoilers'))).resolves.toBe('big spoilers')
    await expect(run(calls.blockDomain('spam.example'))).resolves.toBe('spam.example')
    expect(requests.map(where)).toEqual(['POST /api/blocks/keyword', 'POST /api/blocks/domain'])
    expect(await requests[0]?.json()).toEqual({ keyword: 'big spoilers' })
    expect(await requests[1]?.json()).toEqual({ domain: 'spam.example' })
  })

  it('unblocks a keyword and a domain with the value encoded in the path', async () => {
    const { calls, requests } = setup(() => new Response(null, { status: 204 }))
    await run(calls.unblockKeyword('big spoilers/#1?'))
    await run(calls.unblockDomain('spam.example'))
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE http://wren.test/api/blocks/keyword/big%20spoilers%2F%231%3F',
      'DELETE http://wren.test/api/blocks/domain/spam.example',
    ])
  })

  it("a refusal is a typed error with the server's words", async () => {
    const { calls } = setup(() => json(409, { error: 'This keyword is already blocked' }))
    const error = await Effect.runPromise(Effect.flip(calls.blockKeyword('spoilers')))
    expect(error).toMatchObject({ fromServer: true, message: 'This keyword is already blocked' })
  })

  it('the read retries once on a transient failure; writes never retry', async () => {
    const read = setup((_request, attempt) =>
      attempt === 1 ? json(503, { error: 'busy' }) : json(200, { users: [], keywords: [], domains: [], nextCursor: null }),
    )
    await run(read.calls.getBlocks())
    expect(read.fetch).toHaveBeenCalledTimes(2)
    const write = setup(() => json(503, { error: 'busy' }))
    await Effect.runPromise(Effect.flip(write.calls.blockUser(ann.id)))
    await Effect.runPromise(Effect.flip(write.calls.unblockDomain('spam.example')))
    expect(write.fetch).toHaveBeenCalledTimes(2)
  })
})
