import { describe, expect, it } from 'vitest'
import { Effect } from 'effect'
import { run } from '../../src/api/calls'
import { makeUserCalls } from '../../src/api/users.calls'
import { robin } from './support/fixtures'
import { ann } from './support/profile-fixtures'
import { fakeApi, type Handler, json, where } from './support/fake-api'

// The user calls against a fake fetch: the right method, path and query for each, the avatar/banner as a real
// multipart file, the follow lists' two shapes read as one, and the retry policy (reads once more, writes never).

const setup = (handler: Handler) => fakeApi(makeUserCalls, handler)

const entry = { id: ann.id, username: 'ann', displayName: 'Ann', avatar: null, verified: false, privateAccount: false, isFollowing: true, requested: false }

describe('user calls', () => {
  it('reads a profile tab, with the cursor of the next page when there is one', async () => {
    const { calls, requests } = setup(() => json(200, { user: ann, posts: [], nextCursor: null }))
    await run(calls.getProfile({ username: 'ann', tab: 'media' }))
    await run(calls.getProfile({ username: 'ann', tab: 'likes', cursor: 'abc' }))
    expect(requests.map(where)).toEqual(['GET /api/users/ann?tab=media', 'GET /api/users/ann?tab=likes&cursor=abc'])
  })

  it('reads followers and following as one page shape', async () => {
    const { calls, requests } = setup((request) =>
      json(200, request.url.includes('/followers') ? { followers: [entry], nextCursor: 'c2' } : { following: [entry], nextCursor: null }),
    )
    await expect(run(calls.getFollowers({ username: 'ann' }))).resolves.toEqual({ entries: [entry], nextCursor: 'c2' })
    await expect(run(calls.getFollowing({ username: 'ann', cursor: 'c1' }))).resolves.toEqual({ entries: [entry], nextCursor: null })
    expect(requests.map(where)).toEqual(['GET /api/users/ann/followers', 'GET /api/users/ann/following?cursor=c1'])
  })

  it('follows with POST and unfollows with DELETE, answering the state and the exact count', async () => {
    const { calls, requests } = setup((request) =>
      json(200, { following: request.method === 'POST', followers: request.method === 'POST' ? 8 : 7 }),
    )
    await expect(run(calls.follow(ann.id))).resolves.toEqual({ following: true, followers: 8 })
    await expect(run(calls.unfollow(ann.id))).resolves.toEqual({ following: false, followers: 7 })
    expect(requests.map(where)).toEqual([`POST /api/users/${ann.id}/follow`, `DELETE /api/users/${ann.id}/follow`])
  })

  it('saves the profile and the privacy settings as JSON and answers the saved member', async () => {
    const { calls, requests } = setup(() => json(200, { user: robin }))
    await expect(run(calls.updateProfile({ displayName: 'Robin', bio: '', privateAccount: true }))).resolves.toEqual(robin)
    await run(calls.updatePrivacy({ showSensitiveContent: true, allowDMs: 'none', allowMentions: 'following' }))
    expect(requests.map(where)).toEqual(['PATCH /api/users/profile', 'PATCH /api/users/settings/privacy'])
    expect(await requests[0]?.json()).toEqual({ displayName: 'Robin', bio: '', privateAccount: true })
    expect(await requests[1]?.json()).toEqual({ showSensitiveContent: true, allowDMs: 'none', allowMentions: 'following' })
  })

  it.each([
    ['uploadAvatar', '/api/users/profile/avatar'],
    ['uploadBanner', '/api/users/profile/banner'],
  ] as const)('%s sends the file itself as multipart `image`', async (call, path) => {
    const { calls, requests } = setup(() => json(200, { user: { ...robin, avatar: '/media/a.webp' } }))
    const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])
    const file = new File([bytes], 'me.png', { type: 'image/png' })
    await expect(run(calls[call](file))).resolves.toMatchObject({ avatar: '/media/a.webp' })
    const request = requests[0]
    expect(where(request)).toBe(`POST ${path}`)
    expect(request?.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/)
    const form = await request?.formData()
    const sent = form?.get('image')
    expect(sent).toBeInstanceOf(Blob)
    expect(new Uint8Array(await (sent as Blob).arrayBuffer())).toEqual(bytes)
    expect((sent as File).name).toBe('me.png')
  })

  it("a refused upload is a typed error with the server's words", async () => {
    const { calls } = setup(() => json(400, { error: 'Unsupported file type: the image must be JPEG, PNG, WebP or GIF' }))
    const error = await Effect.runPromise(Effect.flip(calls.uploadAvatar(new File(['x'], 'x.txt'))))
    expect(error).toMatchObject({ _tag: 'Invalid', fromServer: true, message: /Unsupported file type/ })
  })

  it('reads retry once on a transient failure; follows and uploads never retry', async () => {
    const read = setup((_request, attempt) => (attempt === 1 ? json(503, { error: 'busy' }) : json(200, { followers: [], nextCursor: null })))
    await run(read.calls.getFollowers({ username: 'ann' }))
    expect(read.fetch).toHaveBeenCalledTimes(2)
    const write = setup(() => json(503, { error: 'busy' }))
    await Effect.runPromise(Effect.flip(write.calls.follow(ann.id)))
    await Effect.runPromise(Effect.flip(write.calls.uploadBanner(new File(['x'], 'b.png'))))
    expect(write.fetch).toHaveBeenCalledTimes(2)
  })
})
