import { describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback } from 'xstate'
import type { Post, PostDetailResponse } from '../../src/api/posts.calls'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { postPageMachine } from '../../src/machines/post-page/post-page.machine'
import { detail, mine, post, postPageModel, r1 } from './models/post-page.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, perform, settle } from './support/model'

// The post page, walked path by path on a real actor with a real post cache. After each step the test checks what the
// page shows: the spinner, 'Post not found' (for a missing post and for an unreachable server alike), the replies in
// order with Load more while the server has more, a reply posted here at the end, and leaving when the post is deleted.
// The events are the model's (./models/post-page.model.ts), shared with `npm run paths -- post-page`.

const idsOf = (entries: ReadonlyArray<{ id: string }>) => entries.map((e) => e.id)

describeWalks('post page machine', postPageModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const posts = createActor(postsMachine).start()
  const leave = vi.fn()
  const machine = postPageMachine.provide({
    actors: { loadPost: calls.invoked(), watchPosts: fromCallback(() => {}) },
    actions: { leave },
  })
  const actor = createActor(machine, { input: { posts, postId: 'p1' }, inspect }).start()
  expect(calls.started[0]).toEqual({ id: 'loadPost', input: { id: 'p1' } })

  for await (const { event, before, snapshot } of replay(actor, { calls, context: (snapshot) => idsOf(snapshot.context.replies) })) {
    const replies = idsOf(snapshot.context.replies)

    expect(snapshot.hasTag('busy')).toBe(snapshot.matches('loading') || snapshot.matches({ loaded: 'loadingMore' }))
    // Load more shows exactly while the server said there is more.
    expect(snapshot.can({ type: 'replies.loadMore' })).toBe(snapshot.matches({ loaded: 'more' }))
    if (event.type === 'xstate.error.actor.loadPost') expect(snapshot.matches('notFound')).toBe(true)
    if (event.type === 'xstate.done.actor.loadPost') {
      const page = event.output as PostDetailResponse
      expect(replies).toEqual(page.replies.map((r) => r.id))
      // The post and its replies are in the cache, where the cards read them.
      expect(posts.getSnapshot().context.entities.p1).toEqual(post)
      for (const reply of page.replies) expect(posts.getSnapshot().context.entities[reply.id]).toEqual(reply)
    }
    if (event.type === 'replies.loadMore') {
      expect(calls.started.at(-1)).toEqual({ id: 'loadMore', input: { id: 'p1', cursor: before.context.cursor } })
    }
    if (event.type === 'xstate.done.actor.loadMore') {
      // Oldest first: the next page goes after what is shown.
      expect(replies).toEqual([...new Set([...idsOf(before.context.replies), 'r3'])])
    }
    if (event.type === 'xstate.error.actor.loadMore') {
      expect(replies).toEqual(idsOf(before.context.replies))
    }
    if (event.type === 'post.created') {
      const created = event.post as Post
      const shown = idsOf(before.context.replies)
      // A reply to this post goes at the end, once; anything else leaves the list alone.
      if (created.replyTo === 'p1' && !shown.includes(created.id)) expect(replies).toEqual([...shown, created.id])
      else expect(replies).toEqual(shown)
    }
    if (event.type === 'post.deleted' && event.id === 'r1') expect(replies).not.toContain('r1')
    if (event.type === 'post.deleted' && event.id === 'p1') {
      expect(snapshot.matches('deleted')).toBe(true)
      expect(leave).toHaveBeenCalledTimes(1)
    } else {
      expect(leave).not.toHaveBeenCalled()
    }
  }
  actor.stop()
  posts.stop()
})

describe('post page machine', () => {
  it('a reply posted from the page appears at the end (through the post cache) and counts on the post', async () => {
    const calls = new Calls()
    const posts = createActor(postsMachine).start()
    const page = createActor(postPageMachine.provide({ actors: { loadPost: calls.invoked() } }), {
      input: { posts, postId: 'p1' },
    }).start()
    await perform(page, calls, { type: 'xstate.done.actor.loadPost', output: detail([r1], null) })
    posts.send({ type: 'post.created', post: mine })
    await settle()
    expect(idsOf(page.getSnapshot().context.replies)).toEqual(['r1', 'm1'])
    expect(posts.getSnapshot().context.entities.p1?.replyCount).toBe(4)
    page.stop()
    posts.stop()
  })
})
