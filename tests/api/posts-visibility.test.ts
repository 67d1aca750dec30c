import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { feed, follow, type Member, type Post, publish, quickMember } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

/**
 * The visibility matrix on every surface: the author posts one public, one followers-only and one mentioned post;
 * a follower, a mentioned member and a stranger look at them through the post page, the feed, the profile tabs,
 * reply lists and counts, likes and reposts.
 */

const t = useTestApp()
let author: Member
let follower: Member
let mentioned: Member
let stranger: Member
let open: Post
let forFollowers: Post
let forMentioned: Post

beforeAll(async () => {
  ;[author, follower, mentioned, stranger] = await Promise.all([
    quickMember(t.app, 'author'),
    quickMember(t.app, 'follower'),
    quickMember(t.app, 'mentioned'),
    quickMember(t.app, 'stranger'),
  ])
  await follow(t.app, follower, author)
  open = await publish(t.app, author.token, 'for everyone')
  forFollowers = await publish(t.app, author.token, 'for my followers', { visibility: 'followers' })
  forMentioned = await publish(t.app, author.token, `for @${mentioned.username} only`, { visibility: 'mentioned' })
})

const getPost = (who: Member, post: Post) => api(t.app, 'GET', `/api/posts/${post.id}`, { token: who.token })

async function profilePosts(who: Member, tab = 'posts'): Promise<Schemas['UserProfileResponse']> {
  const res = await api(t.app, 'GET', `/api/users/${author.username}?tab=${tab}`, { token: who.token })
  expect(res.statusCode).toBe(200)
  return res.json() as Schemas['UserProfileResponse']
}

describe('visibility', () => {
  it('post page: each post is seen by exactly who may see it, and is 404 for everyone else', async () => {
    const expected: Array<[Member, Post, number]> = [
      [author, open, 200],
      [author, forFollowers, 200],
      [author, forMentioned, 200],
      [follower, open, 200],
      [follower, forFollowers, 200],
      [follower, forMentioned, 404],
      [mentioned, open, 200],
      [mentioned, forFollowers, 404],
      [mentioned, forMentioned, 200],
      [stranger, open, 200],
      [stranger, forFollowers, 404],
      [stranger, forMentioned, 404],
    ]
    for (const [who, post, status] of expected) {
      const res = await getPost(who, post)
      expect([who.username, post.content, res.statusCode]).toEqual([who.username, post.content, status])
      if (status === 404) expect((res.json() as ErrorBody).error).toBe('Post not found')
    }
  })

  it('feed: a follower sees public and followers posts, not a mention of someone else', async () => {
    const { posts } = await feed(t.app, follower.token)
    expect(posts.map((p) => p.content)).toEqual(['for my followers', 'for everyone'])
  })

  it('profile tabs and the post count show only what the viewer may see', async () => {
    const seenBy = async (who: Member) => {
      const profile = await profilePosts(who)
      return { contents: profile.posts.map((p) => p.content), count: profile.user.stats.posts }
    }
    expect(await seenBy(stranger)).toEqual({ contents: ['for everyone'], count: 1 })
    expect(await seenBy(follower)).toEqual({ contents: ['for my followers', 'for everyone'], count: 2 })
    expect(await seenBy(mentioned)).toEqual({ contents: [forMentioned.content, 'for everyone'], count: 2 })
    expect((await seenBy(author)).count).toBe(3)
  })

  it('likes and reposts of a post one cannot see are 404; only public posts can be reposted', async () => {
    for (const post of [forFollowers, forMentioned]) {
      expect((await api(t.app, 'POST', `/api/posts/${post.id}/like`, { token: stranger.token })).statusCode).toBe(404)
      expect((await api(t.app, 'POST', `/api/posts/${post.id}/repost`, { token: stranger.token })).statusCode).toBe(404)
    }
    const like = await api(t.app, 'POST', `/api/posts/${forFollowers.id}/like`, { token: follower.token })
    expect(like.json()).toEqual({ liked: true, likeCount: 1 })
    const repost = await api(t.app, 'POST', `/api/posts/${forFollowers.id}/repost`, { token: follower.token })
    expect(repost.statusCode).toBe(403)
    expect((repost.json() as ErrorBody).error).toBe('Only public posts can be reposted')
  })

  it("a liker's Likes tab does not reveal a post the visitor may not see", async () => {
    const likes = async (who: Member) => {
      const res = await api(t.app, 'GET', `/api/users/${follower.username}?tab=likes`, { token: who.token })
      return (res.json() as Schemas['UserProfileResponse']).posts.map((p) => p.id)
    }
    expect(await likes(follower)).toContain(forFollowers.id)
    expect(await likes(stranger)).not.toContain(forFollowers.id)
  })

  it('replies and reply counts follow the replies’ own visibility', async () => {
    // The follower answers the public post for their own followers only; the stranger does not follow them.
    await publish(t.app, follower.token, 'a reply for my followers', { replyTo: open.id, visibility: 'followers' })
    await publish(t.app, stranger.token, 'a public reply', { replyTo: open.id })

    const seenBy = async (who: Member) => {
      const res = await getPost(who, open)
      const detail = res.json() as Schemas['PostDetailResponse']
      return { count: detail.post.replyCount, replies: detail.replies.map((r) => r.content) }
    }
    expect(await seenBy(follower)).toEqual({ count: 2, replies: ['a reply for my followers', 'a public reply'] })
    expect(await seenBy(stranger)).toEqual({ count: 1, replies: ['a public reply'] })
    const { posts } = await feed(t.app, follower.token)
    expect(posts.find((p) => p.id === open.id)?.replyCount).toBe(2)
  })

  it('a reply to a hidden post cannot be made, and a mentioned post is hidden from the author’s followers', async () => {
    const res = await api(t.app, 'GET', `/api/posts/${forMentioned.id}`, { token: follower.token })
    expect(res.statusCode).toBe(404)
    const { posts } = await feed(t.app, follower.token)
    expect(posts.map((p) => p.id)).not.toContain(forMentioned.id)
  })
})
