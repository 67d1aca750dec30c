import { expect } from 'vitest'
import { createActor } from 'xstate'
import { muteMachine, USER_MUTED } from '../../src/machines/mute/mute.machine'
import {
  selectBusy,
  selectCanConfirm,
  selectConfirmOpen,
  selectIsMuted,
  selectMuting,
  selectReasonError,
} from '../../src/machines/mute/mute.selectors'
import { MUTE_FAILED, REASON_TOO_LONG, UNMUTE_FAILED, USER_UNMUTED } from '../../src/machines/mutes/mutes.rules'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { already, annId, muteModel } from './models/mute.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { makePost, robinSummary } from './support/post-fixtures'
import { shownToasts, withToasts } from './support/toasts'

// Mute @user from a post card's menu or a profile. What the member sees: the confirm dialog (open while deciding and
// while the mute is on its way) with the reason and its message, the toasts, and what the lists hear: Ann's posts
// announced muted (only Home drops them) while the post cache keeps them (profile and post page still show them).

describeWalks('mute machine', muteModel, async ({ walk, path, inspect, replay }) => {
  const calls = new Calls()
  const machine = muteMachine.provide({
    actors: { muteUser: calls.actor('muteUser'), unmuteUser: calls.actor('unmuteUser') },
  })
  const actor = withToasts(createActor(machine, { input: walk.input, inspect }))
  const posts = createActor(postsMachine, { parent: actor, systemId: 'posts' }).start()
  posts.send({ type: 'posts.received', posts: [makePost('a1'), makePost('m1', { author: robinSummary })] })
  const heard: Array<ReadonlyArray<string>> = []
  posts.on('author.muted', ({ ids }) => heard.push(ids))
  actor.start()

  for await (const { event, before, snapshot, toastsBefore } of replay(actor, { calls, context: false })) {
    expect(selectConfirmOpen(snapshot)).toBe(snapshot.value === 'confirming' || snapshot.value === 'muting')
    expect(selectMuting(snapshot)).toBe(snapshot.value === 'muting')
    // The profile's button: busy while either call is on its way; Unmute exactly while the member is muted.
    expect(selectBusy(snapshot)).toBe(snapshot.value === 'muting' || snapshot.value === 'unmuting')
    if (event.type === 'mute.ask') expect(before.context.muted, 'Mute is offered only when not muted').toBe(false)
    if (event.type === 'mute.undo') {
      expect(before.context.muted, 'Unmute is offered only when muted').toBe(true)
      expect(calls.started.at(-1)).toEqual({ id: 'unmuteUser', input: { userId: annId } })
    }
    if (event.type === 'xstate.done.actor.muteUser') expect(selectIsMuted(snapshot)).toBe(true)
    if (event.type === 'xstate.done.actor.unmuteUser') expect(selectIsMuted(snapshot)).toBe(false)
    if (event.type === 'xstate.error.actor.unmuteUser') expect(selectIsMuted(snapshot), 'still muted').toBe(true)
    const tooLong = snapshot.context.reason.trim().length > 200
    expect(selectReasonError(snapshot)).toBe(tooLong ? REASON_TOO_LONG : null)
    expect(selectCanConfirm(snapshot)).toBe(snapshot.value === 'confirming' && !tooLong)
    if (event.type === 'mute.ask') expect(snapshot.context.reason, 'each ask starts without a reason').toBe('')
    if (event.type === 'mute.confirm') {
      if (before.context.reason.trim().length > 200) {
        expect(snapshot.value, 'a reason over 200 characters is not sent').toBe('confirming')
      } else {
        expect(calls.started.at(-1)).toEqual({ id: 'muteUser', input: { userId: annId, reason: before.context.reason.trim() } })
        expect(snapshot.can({ type: 'mute.confirm' }), 'no second confirm while muting').toBe(false)
      }
    }
    const toasts = shownToasts().slice(toastsBefore)
    if (event.type === 'xstate.done.actor.muteUser') {
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: USER_MUTED })])
      expect(heard.at(-1), "Ann's stored posts are announced muted").toEqual(['a1'])
    } else if (event.type === 'xstate.done.actor.unmuteUser') {
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: USER_UNMUTED })])
    } else if (event.type === 'xstate.error.actor.unmuteUser') {
      expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: UNMUTE_FAILED })])
    } else if (event.type === 'xstate.error.actor.muteUser') {
      const message = event.error === already ? already.message : MUTE_FAILED
      expect(toasts).toEqual([expect.objectContaining({ type: 'error', message })])
      expect(snapshot.context.reason, 'the dialog keeps the reason for another try').toBe(before.context.reason)
    } else {
      expect(toasts, 'nothing else says anything').toEqual([])
    }
    // Mute is feed-only: the cache keeps every post, for the profile and the post page.
    expect(Object.keys(posts.getSnapshot().context.entities).sort()).toEqual(['a1', 'm1'])
    if (!path.steps.some((s) => s.event.type === 'xstate.done.actor.muteUser')) expect(heard).toEqual([])
  }
  actor.stop()
})

