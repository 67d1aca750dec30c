import { describe, expect, it } from 'vitest'
import { type AnyEventObject, createActor } from 'xstate'
import { callActor } from '../../src/machines/lib/call-actor'
import {
  POST_DELETED,
  postsMachine,
  type PostsContext,
  type PostsEmitted,
} from '../../src/machines/posts/posts.machine'
import { BOOKMARK_REMOVE_FAILED, BOOKMARK_REMOVED } from '../../src/machines/bookmarks/bookmarks.rules'
import { selectMutedNotice } from '../../src/machines/posts/posts.selectors'
import { shownToasts, withToasts } from './support/toasts'
import { blockedAuthorId, limited, p1, postsModel, reply } from './models/posts.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, settle, walkPaths } from './support/model'
import { SpawnedCalls } from './support/post-fixtures'

// The post cache. Three small models (likes, reposts, everything else) instead of one: together they reach every
// transition, and each stays small enough to walk every simple path. After each step the test checks what a card
// would show (liked, counts, present or gone, hidden or revealed), which calls went out, the toasts and the news the
// lists hear. The walks and events are the model's (./models/posts.model.ts), shared with `npm run paths -- posts`.

const coverage = new Coverage(postsMachine)

/** Whether the refusal answered a call the cache was waiting for (else the cache ignores it). */
function settledInFlight(before: PostsContext, event: AnyEventObject): boolean {
  const id = String(event.id)
  if (event.type === 'post.reaction.refused') return before.pending[event.reaction as 'like' | 'repost'][id] !== undefined
  return event.type === 'post.bookmark.refused' && before.bookmarking[id] !== undefined
}

describe.each(postsModel.walks.map((walk) => [walk.name, walk] as const))('post cache: %s', (_name, walk) => {
  const paths = walkPaths(postsModel, walk)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
    const spawned = new SpawnedCalls()
    const machine = postsMachine.provide({
      actors: {
        reactionCall: spawned.logic('reactionCall'),
        deleteCall: spawned.logic('deleteCall'),
        bookmarkCall: spawned.logic('bookmarkCall'),
      },
    })
    const actor = withToasts(createActor(machine, { inspect: coverage.inspector })).start()
    const heard: PostsEmitted[] = []
    actor.on('*', (event) => void heard.push(event))
    coverage.see(actor.getSnapshot())

    for (const step of path.steps) {
      const before = actor.getSnapshot().context
      const toastsBefore = shownToasts().length
      const heardBefore = heard.length
      const startedBefore = spawned.started.length
      await perform(actor, new Calls(), step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      const { entities } = snapshot.context
      const event = step.event

      if (event.type === 'post.like' || event.type === 'post.repost') {
        const reaction = event.type === 'post.like' ? 'like' : 'repost'
        const was = before.entities[event.id]
        const now = entities[event.id]
        if (!was || !now) throw new Error('a reaction is only offered for a stored post')
        // The card changes at once, and exactly one call goes out.
        if (reaction === 'like') {
          expect(now.liked).toBe(!was.liked)
          expect(now.likeCount).toBe(was.likeCount + (was.liked ? -1 : 1))
        } else {
          expect(now.reposted).toBe(!was.reposted)
          expect(now.repostCount).toBe(was.repostCount + (was.reposted ? -1 : 1))
          expect(was.visibility === 'public' || was.reposted, 'only public posts can be reposted').toBe(true)
        }
        expect(spawned.started.at(-1)).toEqual({ src: 'reactionCall', input: { id: event.id, reaction } })
        // A second click while the first is in flight is not offered.
        expect(snapshot.can({ type: event.type, id: event.id })).toBe(false)
      }
      if (event.type === 'post.quote.detached') {
        // A detached quote shows the quoted post unavailable; a post that quotes nothing stays as it was.
        const was = before.entities[event.id]
        expect(entities[event.id]).toEqual(was?.quote ? { ...was, quote: { post: null } } : was)
      }
      if (event.type === 'post.reaction.settled') {
        const now = entities[event.id]
        expect(event.reaction === 'like' ? now?.liked : now?.reposted).toBe(event.active)
        expect(event.reaction === 'like' ? now?.likeCount : now?.repostCount).toBe(event.count)
        expect(spawned.stopped.at(-1)?.input).toEqual({ id: event.id, reaction: event.reaction })
      }
      if (event.type === 'post.reaction.refused') {
        // Rolled back to what the card showed before the click.
        const shown = before.pending[event.reaction as 'like' | 'repost'][event.id]
        const now = entities[event.id]
        expect(event.reaction === 'like' ? now?.liked : now?.reposted).toBe(shown?.active)
        expect(event.reaction === 'like' ? now?.likeCount : now?.repostCount).toBe(shown?.count)
      }
      if (event.type === 'posts.received' && before.pending.like.p1) {
        // A page read before the server counted the like does not undo it on screen.
        expect(entities.p1?.liked).toBe(before.entities.p1?.liked)
        expect(entities.p1?.likeCount).toBe(before.entities.p1?.likeCount)
        // ...while the rest of the post is the server's latest.
        expect(entities.p1?.views).toBe((event.posts as Array<{ views: number }>)[0]?.views)
      }
      if (event.type === 'post.created') {
        expect(entities.r1).toEqual(reply)
        // Counted once: a reply announced again (or whose parent is not held) changes no count.
        const parent = before.entities.p1
        if (parent) expect(entities.p1?.replyCount).toBe(parent.replyCount + (before.entities.r1 ? 0 : 1))
        expect(heard.slice(heardBefore)).toEqual([{ type: 'post.created', post: reply }])
      }
      if (event.type === 'author.blocked') {
        // Every post of the blocked member goes at once, each announced deleted so the lists drop it; others stay.
        const gone = Object.values(before.entities).filter((post) => post.author.id === blockedAuthorId).map((post) => post.id)
        expect(Object.values(entities).filter((post) => post.author.id === blockedAuthorId)).toEqual([])
        expect(Object.keys(entities).sort()).toEqual(Object.keys(before.entities).filter((id) => !gone.includes(id)).sort())
        // Then the lists hear the block itself, so they drop the member's reposts of others' posts too.
        expect(heard.slice(heardBefore)).toEqual([
          ...gone.map((id) => ({ type: 'post.deleted', id })),
          { type: 'author.blocked', authorId: blockedAuthorId },
        ])
        // Their calls in flight are stopped: an answer about a post no longer shown changes nothing.
        for (const id of gone) {
          expect(snapshot.context.deleting[id]).toBeUndefined()
          expect(snapshot.context.pending.like[id]).toBeUndefined()
          if (before.pending.like[id]) expect(spawned.stopped.map((call) => call.input)).toContainEqual({ id, reaction: 'like' })
        }
      }
      const holdsAlready = event.type === 'post.bookmark' && event.bookmarked !== undefined && before.entities[event.id]?.bookmarked === event.bookmarked
      if (event.type === 'post.bookmark' && holdsAlready) {
        // The dialog's Remove for a post the cache knows unsaved: nothing to ask; the dialog hears it and drops the row.
        expect(entities).toEqual(before.entities)
        expect(spawned.started.length).toBe(startedBefore)
        expect(heard.slice(heardBefore)).toEqual([{ type: 'post.bookmarked', id: event.id, bookmarked: event.bookmarked }])
      } else if (event.type === 'post.bookmark') {
        // The card flips at once (to the state asked for: the dialog's Remove asks for unsaved), one call goes out
        // asking for the new state, and a second click waits for it.
        const was = before.entities[event.id]
        expect(entities[event.id]?.bookmarked).toBe(event.bookmarked ?? !was?.bookmarked)
        expect(spawned.started.at(-1)).toEqual({ src: 'bookmarkCall', input: { id: event.id, bookmarked: !was?.bookmarked } })
        expect(snapshot.can({ type: 'post.bookmark', id: event.id })).toBe(false)
        expect(snapshot.can({ type: 'post.bookmark', id: event.id, bookmarked: false })).toBe(false)
      }
      if (event.type === 'post.bookmark.settled') {
        expect(entities[event.id]?.bookmarked).toBe(event.bookmarked)
        expect(snapshot.context.bookmarking[event.id]).toBeUndefined()
        expect(spawned.stopped.at(-1)).toEqual({ src: 'bookmarkCall', input: { id: event.id, bookmarked: event.bookmarked } })
        // The Bookmarks dialog hears it; a removal says so.
        expect(heard.slice(heardBefore)).toEqual([{ type: 'post.bookmarked', id: event.id, bookmarked: event.bookmarked }])
      }
      if (event.type === 'post.bookmark.refused') {
        // Rolled back to what the card showed before the click.
        expect(entities[event.id]?.bookmarked).toBe(before.bookmarking[event.id])
        expect(snapshot.context.bookmarking[event.id]).toBeUndefined()
      }
      if (event.type === 'post.bookmarked') expect(entities[event.id]?.bookmarked).toBe(event.bookmarked)
      if (event.type === 'post.poll.voted') {
        // The post shows the counted poll; nothing else of it changes, and an unknown post is not made up.
        const was = before.entities[event.id]
        expect(entities[event.id]).toEqual(was ? { ...was, poll: event.poll } : undefined)
      }
      if (event.type === 'post.reveal') expect(snapshot.context.revealed.p2).toBe(true)
      if (event.type === 'author.muted') {
        // Feed-only: every post stays in the cache (profile, post page); the lists hear the muted member's post ids.
        expect(entities).toEqual(before.entities)
        const ids = Object.values(before.entities).filter((post) => post.author.id === blockedAuthorId).map((post) => post.id)
        expect(heard.slice(heardBefore)).toEqual([{ type: 'author.muted', authorId: blockedAuthorId, ids }])
      } else if (
        event.type !== 'post.created' &&
        event.type !== 'post.delete.succeeded' &&
        event.type !== 'author.blocked' &&
        event.type !== 'post.bookmark.settled' &&
        !holdsAlready
      ) {
        expect(heard.length, 'nothing else is announced').toBe(heardBefore)
      }
      if (event.type === 'posts.received' || event.type === 'post.showMuted') {
        // The post page's notice shows until 'Show anyway', then the post.
        const notice = selectMutedNotice('p3')(snapshot)
        if (entities.p3) expect(notice).toBe(snapshot.context.shownMuted.p3 ? null : '@ann')
        if (event.type === 'post.showMuted') expect(notice).toBeNull()
      }
      if (event.type === 'post.delete') {
        expect(entities.p1, 'still shown (dimmed) until the server agrees').toBeDefined()
        expect(snapshot.context.deleting.p1).toBe(true)
        expect(spawned.started.at(-1)).toEqual({ src: 'deleteCall', input: { id: 'p1' } })
      }
      const toasts = shownToasts()
      if (event.type === 'post.delete.succeeded') {
        expect(entities.p1).toBeUndefined()
        expect(heard.slice(heardBefore)).toEqual([{ type: 'post.deleted', id: 'p1' }])
        expect(toasts.at(-1)).toMatchObject({ type: 'success', message: POST_DELETED })
      } else if (event.type === 'post.bookmark.settled' && !event.bookmarked) {
        expect(toasts.slice(toastsBefore)).toEqual([expect.objectContaining({ type: 'success', message: BOOKMARK_REMOVED })])
      } else if (event.error === limited && settledInFlight(before, event)) {
        // A rate limit says how long to wait, even where other refusals are silent.
        expect(toasts.slice(toastsBefore)).toEqual([expect.objectContaining({ type: 'error', message: limited.message })])
      } else if (event.type === 'post.bookmark.refused' && !event.bookmarked) {
        // A refused removal says so (the server's words, else the default); a refused save is silent, like a like.
        expect(toasts.slice(toastsBefore)).toEqual([expect.objectContaining({ type: 'error', message: BOOKMARK_REMOVE_FAILED })])
      } else {
        expect(toasts.length, "only a deletion says anything: other failures are silent").toBe(toastsBefore)
      }
      if (event.type === 'post.delete.failed') {
        expect(entities.p1).toEqual(before.entities.p1)
        expect(snapshot.context.deleting.p1).toBeUndefined()
      }
    }
    actor.stop()
  })
})

describe('post cache', () => {
  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })

  it('call actors report the server answer to the cache (and a refusal rolls back)', async () => {
    const answers: Array<{ resolve: (v: { active: boolean; count: number }) => void; reject: (e: unknown) => void }> = []
    const logic = callActor<{ id: string; reaction: 'like' | 'repost' }, { active: boolean; count: number }>(
      () => new Promise((resolve, reject) => void answers.push({ resolve, reject })),
      {
        done: ({ id, reaction }, out) => ({ type: 'post.reaction.settled', id, reaction, ...out }),
        failed: ({ id, reaction }) => ({ type: 'post.reaction.refused', id, reaction }),
      },
    )
    const actor = withToasts(createActor(postsMachine.provide({ actors: { reactionCall: logic } }))).start()
    actor.send({ type: 'posts.received', posts: [p1] })

    actor.send({ type: 'post.like', id: 'p1' })
    expect(actor.getSnapshot().context.entities.p1).toMatchObject({ liked: true, likeCount: 8 })
    answers[0]?.resolve({ active: true, count: 20 })
    await settle()
    expect(actor.getSnapshot().context.entities.p1).toMatchObject({ liked: true, likeCount: 20 })
    expect(actor.getSnapshot().children['like:p1'], 'the finished call is stopped').toBeUndefined()

    actor.send({ type: 'post.like', id: 'p1' })
    expect(actor.getSnapshot().context.entities.p1).toMatchObject({ liked: false, likeCount: 19 })
    answers[1]?.reject(new Error('refused'))
    await settle()
    expect(actor.getSnapshot().context.entities.p1).toMatchObject({ liked: true, likeCount: 20 })

    // Stopped while a call is in flight: the fetch is aborted and a late answer goes nowhere.
    actor.send({ type: 'post.like', id: 'p1' })
    actor.stop()
    answers[2]?.resolve({ active: false, count: 19 })
    await settle()
  })
})
