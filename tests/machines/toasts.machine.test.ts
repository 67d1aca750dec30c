import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { TOAST_DURATIONS, TOAST_LIMIT, toastsMachine, type ToastsEvent, type ToastType } from '../../src/machines/toasts/toasts.machine'
import { toastsModel } from './models/toasts.model'
import { Coverage, walkPaths } from './support/model'

// Toasts (docs/product.md, "Toasts"): blank/error/custom last 4 s, success 2 s, loading until dismissed or replaced;
// at most 20 at once, the oldest going first. Paths add, replace, dismiss and clear toasts; after each step the
// toasts on screen are exactly what the graph expects. Lifetimes are checked with fake timers.

type Snapshot = SnapshotFrom<typeof toastsMachine>

const shown = (s: Snapshot) => s.context.toasts.map((t) => `${t.id}:${t.type}:${t.message}`)

const coverage = new Coverage(toastsMachine)

describe('toasts machine', () => {
  const paths = walkPaths(toastsModel, toastsModel.walks[0]!)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', (_name, path) => {
    const actor = createActor(toastsMachine, { inspect: coverage.inspector }).start()
    coverage.see(actor.getSnapshot())
    for (const step of path.steps) {
      if (step.event.type !== 'xstate.init') actor.send(step.event as ToastsEvent)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(shown(snapshot)).toEqual(shown(step.state as Snapshot))
      // An id is on screen once at most: re-adding replaces in place.
      const ids = snapshot.context.toasts.map((t) => t.id)
      expect(new Set(ids).size).toBe(ids.length)
    }
    actor.stop()
  })

  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })
})

describe('toast lifetimes', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const lifetimes: Array<[ToastType, number | null]> = [
    ['blank', 4_000],
    ['error', 4_000],
    ['custom', 4_000],
    ['success', 2_000],
    ['loading', null],
  ]

  it.each(lifetimes)('a %s toast lasts %s ms', (kind, lifetime) => {
    expect(TOAST_DURATIONS[kind]).toBe(lifetime)
    const actor = createActor(toastsMachine).start()
    actor.send({ type: 'toast.add', kind, message: 'Hello' })
    expect(actor.getSnapshot().context.toasts).toEqual([{ id: 'toast-1', type: kind, message: 'Hello' }])
    if (lifetime === null) {
      vi.advanceTimersByTime(60 * 60 * 1000)
      expect(actor.getSnapshot().context.toasts).toHaveLength(1)
      actor.send({ type: 'toast.dismiss', id: 'toast-1' })
    } else {
      vi.advanceTimersByTime(lifetime - 1)
      expect(actor.getSnapshot().context.toasts).toHaveLength(1)
      vi.advanceTimersByTime(1)
    }
    expect(actor.getSnapshot().context.toasts).toHaveLength(0)
  })

  it('a loading toast replaced by its result gets the result’s lifetime, counted from the replacement', () => {
    const actor = createActor(toastsMachine).start()
    actor.send({ type: 'toast.add', id: 'save', kind: 'loading', message: 'Saving…' })
    vi.advanceTimersByTime(10_000)
    actor.send({ type: 'toast.add', id: 'save', kind: 'success', message: 'Saved' })
    expect(actor.getSnapshot().context.toasts).toEqual([{ id: 'save', type: 'success', message: 'Saved' }])
    vi.advanceTimersByTime(1_999)
    expect(actor.getSnapshot().context.toasts).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(actor.getSnapshot().context.toasts).toHaveLength(0)
  })

  it('an error replaced early does not disappear on the old timer', () => {
    const actor = createActor(toastsMachine).start()
    actor.send({ type: 'toast.add', id: 'x', kind: 'error', message: 'First' })
    vi.advanceTimersByTime(3_000)
    actor.send({ type: 'toast.add', id: 'x', kind: 'error', message: 'Second' })
    vi.advanceTimersByTime(1_500)
    expect(actor.getSnapshot().context.toasts.map((t) => t.message)).toEqual(['Second'])
    vi.advanceTimersByTime(2_500)
    expect(actor.getSnapshot().context.toasts).toHaveLength(0)
  })

  it('keeps at most 20, dropping the oldest; the dropped ones’ timers find nothing', () => {
    const actor = createActor(toastsMachine).start()
    for (let i = 1; i <= TOAST_LIMIT + 5; i++) actor.send({ type: 'toast.add', kind: 'success', message: `Toast ${i}` })
    const messages = actor.getSnapshot().context.toasts.map((t) => t.message)
    expect(TOAST_LIMIT).toBe(20)
    expect(messages).toHaveLength(20)
    expect(messages[0]).toBe('Toast 6')
    expect(messages.at(-1)).toBe('Toast 25')
    vi.advanceTimersByTime(2_000)
    expect(actor.getSnapshot().context.toasts).toHaveLength(0)
  })

  it('clear removes every toast, and their timers then do nothing', () => {
    const actor = createActor(toastsMachine).start()
    actor.send({ type: 'toast.add', kind: 'error', message: 'a' })
    actor.send({ type: 'toast.add', kind: 'loading', message: 'b' })
    actor.send({ type: 'toast.clear' })
    expect(actor.getSnapshot().context.toasts).toEqual([])
    actor.send({ type: 'toast.add', kind: 'blank', message: 'c' })
    vi.advanceTimersByTime(3_999)
    expect(actor.getSnapshot().context.toasts.map((t) => t.message)).toEqual(['c'])
  })
})
