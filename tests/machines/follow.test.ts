import { beforeEach, describe, expect, it } from 'vitest'
import { createActor, type AnyEventObject } from 'xstate'
import { Forbidden, Network } from '../../src/api/errors'
import {
  followMachine,
  LIST_FOLLOW_MESSAGES,
  PROFILE_FOLLOW_MESSAGES,
  type FollowMessages,
} from '../../src/machines/follow/follow.machine'
import { shownToasts, withToasts } from './support/toasts'
import { Calls } from './support/controlled-actors'
import { Coverage, describePath, modelPaths, perform } from './support/model'

// One Follow/Unfollow button with the followers count beside it. What the member sees: the button's word, the count,
// whether the button is busy, and the toasts. The server's answer always wins (it is the exact count); a refusal puts
// back exactly what was shown before the click.

const blocked = new Forbidden({ message: 'You cannot follow this member', fromServer: true })
const offline = new Network({ message: 'Unable to reach the server.' })

const followed = { following: true, followers: 8 }
const unfollowed = { following: false, followers: 6 }
const answers = new Map<unknown, string>([
  [followed, 'following, 8'],
  [unfollowed, 'not following, 6'],
])
const label = (event: AnyEventObject) => (answers.has(event.output) ? `${event.type}(${answers.get(event.output)})` : undefined)

const events: AnyEventObject[] = [
  { type: 'follow.toggle' },
  { type: 'xstate.done.actor.setFollow', output: followed },
  { type: 'xstate.done.actor.setFollow', output: unfollowed },
  { type: 'xstate.error.actor.setFollow', error: blocked },
  { type: 'xstate.error.actor.setFollow', error: offline },
]

const start = { userId: 'user-ann', following: false, followers: 7 }

describe.each([
  { name: 'profile header', messages: PROFILE_FOLLOW_MESSAGES },
  { name: 'list row', messages: LIST_FOLLOW_MESSAGES },
])('follow machine ($name)', ({ messages }: { messages: FollowMessages }) => {
  const input = { ...start, messages }
  const paths = modelPaths(followMachine, {
    input,
    events,
    label,
    serializeState: (s) =>
      JSON.stringify({ value: s.value, following: s.context.following, followers: s.context.followers, before: s.context.before }),
  })
  const coverage = new Coverage(followMachine)

  beforeEach(() => {
  })

  it.each(paths.map((path) => [describePath(path, label), path] as const))('%s', async (_name, path) => {
    const calls = new Calls()
    const machine = followMachine.provide({ actors: { setFollow: calls.actor('setFollow') } })
    const actor = withToasts(createActor(machine, { input, inspect: coverage.inspector })).start()
    coverage.see(actor.getSnapshot())

    for (const step of path.steps) {
      const before = actor.getSnapshot().context
      const toastsBefore = shownToasts().length
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.hasTag('busy')).toBe(snapshot.value === 'saving')
      // A click while saving changes nothing: the button is busy.
      if (snapshot.value === 'saving') expect(snapshot.can({ type: 'follow.toggle' })).toBe(false)
      const toasts = shownToasts()

      if (step.event.type === 'follow.toggle') {
        // At once: the other word and the count moved by one, and the server is asked for what the member clicked.
        expect(snapshot.context.following).toBe(!before.following)
        expect(snapshot.context.followers).toBe(before.followers + (before.following ? -1 : 1))
        expect(calls.started.at(-1)?.input).toEqual({ userId: 'user-ann', follow: !before.following })
        expect(toasts.length).toBe(toastsBefore)
      } else if (step.event.type === 'xstate.done.actor.setFollow') {
        const answer = step.event.output as { following: boolean; followers: number }
        expect(snapshot.context).toMatchObject({ following: answer.following, followers: answer.followers, before: null })
        expect(toasts.at(-1)).toMatchObject({
          type: 'success',
          message: answer.following ? messages.followed : messages.unfollowed,
        })
      } else if (step.event.type === 'xstate.error.actor.setFollow') {
        // Back to what was shown before the click.
        expect(before.before).not.toBeNull()
        expect(snapshot.context).toMatchObject({ ...before.before, before: null })
        if (messages.failed === null) {
          expect(toasts.length, 'list rows roll back silently').toBe(toastsBefore)
        } else {
          const text = step.event.error === blocked ? blocked.message : messages.failed
          expect(toasts.at(-1)).toMatchObject({ type: 'error', message: text })
        }
      }
    }
    actor.stop()
  })

  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })
})

describe('follow machine counts', () => {
  it('never shows a negative count when unfollowing from a stale zero', async () => {
    const calls = new Calls()
    const machine = followMachine.provide({ actors: { setFollow: calls.actor('setFollow') } })
    const actor = createActor(machine, {
      input: { userId: 'user-ann', following: true, followers: 0, messages: PROFILE_FOLLOW_MESSAGES },
    }).start()
    await perform(actor, calls, { type: 'follow.toggle' })
    expect(actor.getSnapshot().context.followers).toBe(0)
    await perform(actor, calls, { type: 'xstate.done.actor.setFollow', output: { following: false, followers: 0 } })
    expect(actor.getSnapshot().context).toMatchObject({ following: false, followers: 0 })
    actor.stop()
  })
})
