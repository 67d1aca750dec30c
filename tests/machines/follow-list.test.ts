import { describe, expect, it } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { Server } from '../../src/api/errors'
import type { FollowPage } from '../../src/api/users.calls'
import { FOLLOW_LIST_LOAD_FAILED, FOLLOW_LIST_MORE_FAILED, followListMachine } from '../../src/machines/follow-list/follow-list.machine'
import { followMachine } from '../../src/machines/follow/follow.machine'
import { shownToasts, withToasts } from './support/toasts'
import { bare500, followListModel, lastPage, missing, offline, viewerId } from './models/follow-list.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, perform } from './support/model'

// A followers/following list. What the member sees: a spinner, the rows (each with a Follow/Unfollow button except on
// their own row), Load more while the server has more, 'User not found', or an error with Retry. The events and pages
// are the model's (./models/follow-list.model.ts), shared with `npm run paths -- follow-list`.

type Snapshot = SnapshotFrom<typeof followListMachine>

/** What the screen shows, read the way the view reads it. */
function screen(snapshot: Snapshot) {
  return {
    spinner: snapshot.hasTag('loading'),
    notFound: snapshot.matches('notFound'),
    error: snapshot.matches('failed') || snapshot.matches({ loaded: 'moreFailed' }) ? snapshot.context.error : null,
    rows: snapshot.context.rows.map((row) => ({
      username: row.entry.username,
      button: row.follow === null ? null : row.follow.getSnapshot().context.following ? 'Unfollow' : 'Follow',
    })),
    loadMore:
      snapshot.matches('loaded') &&
      (snapshot.can({ type: 'follows.more' }) || snapshot.hasTag('busy')),
    loadingMore: snapshot.hasTag('busy'),
  }
}

// Each list (followers, following) must reach every state by itself.
describeWalks('follow-list machine', followListModel, async ({ walk, inspect, replay }) => {
  const { kind, input } = walk
  const calls = new Calls()
  const actor = createActor(followListMachine.provide({ actors: { loadPage: calls.actor('loadPage') } }), {
    input,
    inspect,
  }).start()
  expect(screen(actor.getSnapshot())).toMatchObject({ spinner: true, rows: [], loadMore: false })

  for await (const { event, before, snapshot } of replay(actor, { calls, context: false })) {
    const seen = screen(snapshot)

    if (event.type === 'follows.more' || event.type === 'follows.retry') {
      // The page after the last one shown (or the first page again after a failed first load).
      const cursor = before.matches('failed') ? null : before.context.nextCursor
      expect(calls.started.at(-1)?.input).toEqual({ username: 'ann', kind, cursor })
      expect(seen.error).toBeNull()
    }
    if (event.type === 'xstate.done.actor.loadPage') {
      const page = event.output as FollowPage
      // Every row of every page once, in order; no Follow button on the viewer's own row.
      const ids = [...new Set([...before.context.rows.map((r) => r.entry.id), ...page.entries.map((e) => e.id)])]
      expect(seen.rows.map((r) => r.username)).toEqual(ids.map((id) => `member_${id}`))
      const own = seen.rows.find((r) => r.username === `member_${viewerId}`)
      if (own) expect(own.button).toBeNull()
      for (const e of page.entries.filter((e) => e.id !== viewerId)) {
        expect(seen.rows.find((r) => r.username === e.username)?.button).toBe(e.isFollowing ? 'Unfollow' : 'Follow')
      }
      // Load more only while the page came back full and the server says there is more.
      expect(seen.loadMore).toBe(page.entries.length >= 20 && page.nextCursor !== null)
    }
    if (event.type === 'xstate.error.actor.loadPage') {
      const error = event.error
      if (error === missing && before.matches('loading')) {
        expect(seen.notFound).toBe(true)
      } else if (before.matches('loading')) {
        expect(seen.error).toBe(error === bare500 ? bare500.message : offline.message)
        expect(seen.rows).toEqual([])
      } else {
        // A later page failed: the rows stay, and Load more tries again.
        expect(seen.rows.length).toBe(before.context.rows.length)
        expect(seen.error).toBe((error as { message: string }).message || FOLLOW_LIST_MORE_FAILED)
        expect(seen.loadMore).toBe(true)
      }
    }
    expect(seen.spinner).toBe(snapshot.matches('loading'))
    expect(seen.loadingMore).toBe(snapshot.matches({ loaded: 'loadingMore' }))
  }
  actor.stop()
}, { eachWalk: true })

describe('follow-list rows', () => {

  it("each row's button follows on its own and says 'Following user' / 'Unfollowed user'", async () => {
    const calls = new Calls()
    const rowCalls = new Calls()
    const machine = followListMachine.provide({
      actors: {
        loadPage: calls.actor('loadPage'),
        follow: followMachine.provide({ actors: { setFollow: rowCalls.actor('setFollow') } }),
      },
    })
    const actor = withToasts(createActor(machine, { input: { username: 'ann', kind: 'followers', viewerId } })).start()
    await perform(actor, calls, { type: 'xstate.done.actor.loadPage', output: lastPage })
    const [first, , third] = actor.getSnapshot().context.rows
    first?.follow?.send({ type: 'follow.toggle' })
    expect(first?.follow?.getSnapshot().context.following).toBe(true)
    rowCalls.resolve('setFollow', { following: true, followers: 12 })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(shownToasts().at(-1)?.message).toBe('Following user')

    third?.follow?.send({ type: 'follow.toggle' })
    expect(third?.follow?.getSnapshot().context.following).toBe(false)
    rowCalls.reject('setFollow', offline)
    await new Promise((resolve) => setTimeout(resolve, 0))
    // Silent rollback (lists say nothing when a follow fails): the button says Unfollow again, no new toast.
    expect(third?.follow?.getSnapshot().context.following).toBe(true)
    expect(shownToasts().map((t) => t.message)).toEqual(['Following user'])
    actor.stop()
  })

  it('says why the first page failed in words a member can read', async () => {
    const calls = new Calls()
    const actor = createActor(followListMachine.provide({ actors: { loadPage: calls.actor('loadPage') } }), {
      input: { username: 'ann', kind: 'following', viewerId },
    }).start()
    await perform(actor, calls, {
      type: 'xstate.error.actor.loadPage',
      error: new Server({ status: 503, message: '', fromServer: false }),
    })
    expect(actor.getSnapshot().context.error).toBe(FOLLOW_LIST_LOAD_FAILED)
    actor.stop()
  })
})
