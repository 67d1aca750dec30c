import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { followMachine, PROFILE_FOLLOW_MESSAGES } from '../../src/machines/follow/follow.machine'
import { shownToasts, withToasts } from './support/toasts'
import { blocked, followModel, limited } from './models/follow.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, perform } from './support/model'

// One Follow/Unfollow/Requested button with the followers count beside it. What the member sees: the button's word, the count,
// whether the button is busy, and the toasts. The server's answer always wins (it is the exact count); a refusal puts
// back exactly what was shown before the click. The events are the model's (./models/follow.model.ts), shared with
// `npm run paths -- follow`.

// Each button (a public account, a private one) must reach every state by itself.
describeWalks('follow machine', followModel, async ({ walk, inspect, replay }) => {
  const { input, messages } = walk
  const calls = new Calls()
  const machine = followMachine.provide({ actors: { setFollow: calls.actor('setFollow') } })
  const actor = withToasts(createActor(machine, { input, inspect })).start()

  // `before` is the context before the step (which holds a `before` of its own: what a refusal puts back).
  for await (const { event, before: { context: before }, snapshot, toastsBefore } of replay(actor, { calls, context: false })) {
    expect(snapshot.hasTag('busy')).toBe(snapshot.value === 'saving')
    // A click while saving changes nothing: the button is busy.
    if (snapshot.value === 'saving') expect(snapshot.can({ type: 'follow.toggle' })).toBe(false)
    const toasts = shownToasts()

    if (event.type === 'follow.toggle') {
      // At once: Follow becomes Following (+1) or, on a private account, Requested; Unfollow and Requested go back
      // to Follow (-1 only for a real unfollow); the server is asked for what the member clicked.
      const asked = !before.following && !before.requested
      const shown = before.following
        ? { following: false, requested: false, followers: Math.max(0, before.followers - 1) }
        : before.requested
          ? { following: false, requested: false, followers: before.followers }
          : input.privateAccount
            ? { following: false, requested: true, followers: before.followers }
            : { following: true, requested: false, followers: before.followers + 1 }
      expect(snapshot.context).toMatchObject(shown)
      expect(snapshot.value).toBe('saving')
      expect(calls.started.at(-1)?.input).toEqual({ userId: 'user-ann', follow: asked })
      expect(toasts.length).toBe(toastsBefore)
    } else if (event.type === 'xstate.done.actor.setFollow') {
      const answer = event.output as { following: boolean; requested: boolean; followers: number }
      expect(snapshot.context).toMatchObject({ ...answer, before: null })
      expect(snapshot.value).toBe(answer.following ? 'following' : answer.requested ? 'requested' : 'notFollowing')
      // A request is never 'Following' nor 'Unfollowed'.
      const text = answer.following
        ? messages.followed
        : answer.requested
          ? messages.requested
          : before.before?.requested
            ? messages.cancelled
            : messages.unfollowed
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: text })
    } else if (event.type === 'xstate.error.actor.setFollow') {
      // Back to what was shown before the click.
      expect(before.before).not.toBeNull()
      expect(snapshot.context).toMatchObject({ ...before.before, before: null })
      if (event.error === limited) {
        expect(toasts.slice(toastsBefore)).toEqual([expect.objectContaining({ type: 'error', message: limited.message })])
      } else if (messages.failed === null) {
        expect(toasts.length, 'list rows roll back silently').toBe(toastsBefore)
      } else {
        const text = event.error === blocked ? blocked.message : messages.failed
        expect(toasts.at(-1)).toMatchObject({ type: 'error', message: text })
      }
    }
  }
  actor.stop()
}, { eachWalk: true })

describe('follow machine counts', () => {
  it('never shows a negative count when unfollowing from a stale zero', async () => {
    const calls = new Calls()
    const machine = followMachine.provide({ actors: { setFollow: calls.actor('setFollow') } })
    const actor = createActor(machine, {
      input: { userId: 'user-ann', following: true, followers: 0, messages: PROFILE_FOLLOW_MESSAGES },
    }).start()
    await perform(actor, calls, { type: 'follow.toggle' })
    expect(actor.getSnapshot().context.followers).toBe(0)
    await perform(actor, calls, {
      type: 'xstate.done.actor.setFollow',
      output: { following: false, requested: false, followers: 0 },
    })
    expect(actor.getSnapshot().context).toMatchObject({ following: false, followers: 0 })
    actor.stop()
  })
})

describe('follow machine start', () => {
  it('shows Requested for a pending request and Unfollow when following, whatever else the input says', () => {
    const requested = createActor(followMachine, {
      input: { userId: 'user-ann', following: false, requested: true, followers: 3, messages: PROFILE_FOLLOW_MESSAGES },
    }).start()
    expect(requested.getSnapshot().value).toBe('requested')
    requested.stop()
    const following = createActor(followMachine, {
      input: { userId: 'user-ann', following: true, requested: true, followers: 3, messages: PROFILE_FOLLOW_MESSAGES },
    }).start()
    expect(following.getSnapshot().value).toBe('following')
    expect(following.getSnapshot().context.requested).toBe(false)
    following.stop()
  })
})
