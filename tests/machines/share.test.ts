import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { shareMachine } from '../../src/machines/share/share.machine'
import { COPY_FAILED, LINK_COPIED } from '../../src/machines/share/share.rules'
import { cancelled, clipboardRefused, fakeService, notAllowed, ORIGIN, shareModel } from './models/share.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, settle } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// A post's Share button, walked path by path (the model: ./models/share.model.ts). After each step the test checks
// what the member sees and what the browser was asked: the share sheet opened with the post page's absolute link
// where there is one, the link copied otherwise or when the sheet was refused, 'Link copied' after a copy, an error
// toast when the clipboard was refused, and nothing at all when the member closed the sheet.

const link = `${ORIGIN}/post/p1`
const toastsOf = (from: number) => shownToasts().slice(from).map((t) => `${t.type}: ${t.message}`)

describeWalks('share machine', shareModel, async ({ walk, inspect, replay }) => {
  const hasSheet = walk.name === 'share sheet'
  const calls = new Calls()
  const machine = shareMachine.provide({ actors: { openShareSheet: calls.actor('openShareSheet'), copyLink: calls.actor('copyLink') } })
  const actor = withToasts(createActor(machine, { input: { service: fakeService(hasSheet) }, inspect })).start()

  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, {
    calls,
    context: (s) => s.context.link,
  })) {
    const started = calls.started.slice(startedBefore)
    const toasts = toastsOf(toastsBefore)
    expect(snapshot.hasTag('busy')).toBe(!snapshot.matches('idle'))
    if (event.type === 'share.post') {
      // The sheet where the browser has one, else the clipboard; either way with the post page's absolute link.
      expect(started).toEqual([{ id: hasSheet ? 'openShareSheet' : 'copyLink', input: expect.objectContaining({ link }) }])
      expect(toasts).toEqual([])
    }
    if (event.type === 'xstate.done.actor.openShareSheet') expect(toasts).toEqual([])
    if (event.type === 'xstate.error.actor.openShareSheet') {
      if (event.error === cancelled) {
        // Closed by the member: nothing copied, nothing said.
        expect(started).toEqual([])
        expect(toasts).toEqual([])
        expect(snapshot.matches('idle')).toBe(true)
      } else {
        expect(started).toEqual([{ id: 'copyLink', input: expect.objectContaining({ link }) }])
      }
    }
    if (event.type === 'xstate.done.actor.copyLink') expect(toasts).toEqual([`success: ${LINK_COPIED}`])
    if (event.type === 'xstate.error.actor.copyLink') expect(toasts).toEqual([`error: ${COPY_FAILED}`])
    // A second press while a share is under way opens nothing more.
    if (!before.matches('idle') && event.type === 'share.post') expect(started).toEqual([])
  }
  actor.stop()
})

describe('share machine with a browser behind it', () => {
  async function press(service: ReturnType<typeof fakeService>) {
    const actor = withToasts(createActor(shareMachine, { input: { service } })).start()
    actor.send({ type: 'share.post', postId: 'p1' })
    for (let i = 0; i < 5; i += 1) await settle()
    const state = actor.getSnapshot()
    actor.stop()
    return { state, toasts: toastsOf(0) }
  }

  it('copies the link and says so where there is no share sheet', async () => {
    const copied: string[] = []
    const { toasts } = await press(fakeService(false, { copy: async (text) => void copied.push(text) }))
    expect(copied).toEqual([link])
    expect(toasts).toEqual([`success: ${LINK_COPIED}`])
  })

  it('uses the share sheet when the browser has one, and copies nothing', async () => {
    const shared: string[] = []
    const copied: string[] = []
    const { toasts } = await press(
      fakeService(true, { share: async (url) => void shared.push(url), copy: async (text) => void copied.push(text) }),
    )
    expect(shared).toEqual([link])
    expect(copied).toEqual([])
    expect(toasts).toEqual([])
  })

  it('does nothing when the member closes the sheet (AbortError)', async () => {
    const copied: string[] = []
    const { state, toasts } = await press(
      fakeService(true, { share: () => Promise.reject(cancelled), copy: async (text) => void copied.push(text) }),
    )
    expect(copied).toEqual([])
    expect(toasts).toEqual([])
    expect(state.matches('idle')).toBe(true)
  })

  it('copies instead when the sheet is refused for another reason', async () => {
    const copied: string[] = []
    const { toasts } = await press(
      fakeService(true, { share: () => Promise.reject(notAllowed), copy: async (text) => void copied.push(text) }),
    )
    expect(copied).toEqual([link])
    expect(toasts).toEqual([`success: ${LINK_COPIED}`])
  })

  it('says clearly when the clipboard is refused', async () => {
    const { toasts } = await press(fakeService(false, { copy: () => Promise.reject(clipboardRefused) }))
    expect(toasts).toEqual([`error: ${COPY_FAILED}`])
  })
})
