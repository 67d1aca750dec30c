import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { createFeatureBannerStore } from '../../src/machines/feature-banner/feature-banner.store'
import { BANNER_DISMISSED_KEY, readFlag, TOUR_COMPLETED_KEY } from '../../src/machines/lib/local-flags'
import { TOUR_STEPS, tourMachine } from '../../src/machines/tour/tour.machine'
import { installLocalStorage, type MemoryStorage } from './support/memory-storage'
import { tourModel } from './models/tour.model'
import { describeWalks } from './support/model'

// The welcome tour, from a first visit (opens by itself) and from a later one (closed until Help). After each step:
// which of the six steps shows, which buttons it offers (Skip Tour and Next, or Get Started on the last), what the
// browser remembers, and that Help drops ?show-help from the address. The events are the model's
// (./models/tour.model.ts), shared with `npm run paths -- tour`.

const stepOf = (value: unknown) => TOUR_STEPS.find((step) => JSON.stringify(value) === JSON.stringify({ open: step })) ?? null

let storage: MemoryStorage
beforeEach(() => {
  storage = installLocalStorage()
})

describeWalks('tour machine', tourModel, async ({ walk, inspect, replay }) => {
  const { completed } = walk
  if (completed) storage.setItem(TOUR_COMPLETED_KEY, 'true')
  const clearHelpQuery = vi.fn()
  const actor = createActor(tourMachine.provide({ actions: { clearHelpQuery } }), {
    input: { completed: readFlag(TOUR_COMPLETED_KEY) },
    inspect,
  }).start()
  // A first visit opens on the welcome step; a later one stays closed.
  expect(stepOf(actor.getSnapshot().value)).toBe(completed ? null : 'welcome')

  let helps = 0
  for await (const { event, snapshot } of replay(actor, { context: false })) {
    const shown = stepOf(snapshot.value)
    expect(snapshot.hasTag('open')).toBe(shown !== null)
    if (shown) {
      const last = shown === 'customising'
      // The buttons: Skip Tour and Next on every step but the last, which offers Get Started.
      expect(snapshot.can({ type: 'tour.next' })).toBe(!last)
      expect(snapshot.can({ type: 'tour.finish' })).toBe(last)
      expect(snapshot.can({ type: 'tour.skip' })).toBe(true)
    }
    if (event.type === 'tour.next') {
      const before = TOUR_STEPS.indexOf(stepOf(snapshot.value) ?? 'welcome')
      expect(before).toBeGreaterThan(0)
    }
    if (event.type === 'tour.skip' || event.type === 'tour.finish') {
      expect(shown).toBeNull()
      expect(storage.getItem(TOUR_COMPLETED_KEY)).toBe('true')
    }
    if (event.type === 'tour.help.requested') {
      helps += 1
      expect(shown).toBe('welcome')
    }
    expect(clearHelpQuery).toHaveBeenCalledTimes(helps)
  }
  actor.stop()
})

describe('welcome tour', () => {
  it('walks the six steps in order with Next', () => {
    const actor = createActor(tourMachine, { input: { completed: false } }).start()
    const seen = [stepOf(actor.getSnapshot().value)]
    while (actor.getSnapshot().can({ type: 'tour.next' })) {
      actor.send({ type: 'tour.next' })
      seen.push(stepOf(actor.getSnapshot().value))
    }
    expect(seen).toEqual([...TOUR_STEPS])
    actor.stop()
  })
})

describe('feature banner', () => {
  it('shows until dismissed, then stays dismissed in this browser', () => {
    const store = createFeatureBannerStore(readFlag(BANNER_DISMISSED_KEY))
    expect(store.getSnapshot().context.dismissed).toBe(false)
    store.send({ type: 'banner.dismiss' })
    expect(store.getSnapshot().context.dismissed).toBe(true)
    expect(storage.getItem(BANNER_DISMISSED_KEY)).toBe('true')
    expect(createFeatureBannerStore(readFlag(BANNER_DISMISSED_KEY)).getSnapshot().context.dismissed).toBe(true)
  })
})
