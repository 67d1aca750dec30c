import { expect } from 'vitest'
import { createActor } from 'xstate'
import { blockMachine, USER_BLOCKED } from '../../src/machines/block/block.machine'
import { selectBlocking, selectConfirmOpen } from '../../src/machines/block/block.selectors'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { annId, blockModel } from './models/block.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { makePost, robinSummary } from './support/post-fixtures'
import { shownToasts, withToasts } from './support/toasts'

// Block User from a post card's menu or a profile. What the member sees: the confirm dialog (open while deciding and
// while the block is on its way), the toast, the blocked member's posts leaving the post cache (so every list), and
// from a profile the way home. Refusals are silent. The events are the model's (./models/block.model.ts).

// Each way in (a post card, a profile) must reach every state by itself.
describeWalks('block machine', blockModel, async ({ walk, path, inspect, replay }) => {
  const calls = new Calls()
  const left: string[] = []
  const machine = blockMachine.provide({
    actors: { blockUser: calls.actor('blockUser') },
    actions: { leave: ({ context }) => void (context.leaveTo !== null && left.push(context.leaveTo)) },
  })
  const actor = withToasts(createActor(machine, { input: walk.input, inspect }))
  const posts = createActor(postsMachine, { parent: actor, systemId: 'posts' }).start()
  posts.send({ type: 'posts.received', posts: [makePost('a1'), makePost('m1', { author: robinSummary })] })
  actor.start()

  for await (const { event, snapshot, toastsBefore } of replay(actor, { calls, context: false })) {
    expect(selectConfirmOpen(snapshot)).toBe(snapshot.value !== 'idle')
    expect(selectBlocking(snapshot)).toBe(snapshot.value === 'blocking')
    // A second confirm while blocking is not offered.
    if (snapshot.value === 'blocking') {
      expect(snapshot.can({ type: 'block.confirm' })).toBe(false)
      expect(calls.started.at(-1)).toEqual({ id: 'blockUser', input: { userId: annId } })
    }
    const entities = posts.getSnapshot().context.entities
    if (event.type === 'xstate.done.actor.blockUser') {
      expect(shownToasts().at(-1)).toMatchObject({ type: 'success', message: USER_BLOCKED })
      expect(Object.keys(entities), "Ann's posts leave; Robin's stay").toEqual(['m1'])
      expect(left).toEqual(walk.input.leaveTo === null ? [] : [walk.input.leaveTo])
    } else {
      expect(shownToasts().length, 'nothing else says anything; a refusal is silent').toBe(toastsBefore)
      if (!path.steps.some((s) => s.event.type === 'xstate.done.actor.blockUser')) {
        expect(Object.keys(entities).sort()).toEqual(['a1', 'm1'])
        expect(left).toEqual([])
      }
    }
  }
  actor.stop()
}, { eachWalk: true })
