import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type AnyEventObject, type SnapshotFrom } from 'xstate'
import { TOAST_DURATIONS, TOAST_LIMIT, toastsMachine, type ToastsEvent, type ToastType } from '../../src/machines/toasts/toasts.machine'
import { Coverage, describePath, modelPaths, type Path } from './support/model'

// Toasts (docs/product.md, "Toasts"): blank/error/custom last 4 s, success 2 s, loading until dismissed or replaced;
// at most 20 at once, the oldest going first. Paths add, replace, dismiss and clear toasts; after each step the
// toasts on screen are exactly what the graph expects. Lifetimes are checked with fake timers.

type Snapshot = SnapshotFrom<typeof toastsMachine>

const events: AnyEventObject[] = [
  { type: 'toast.add', kind: 'success', message: 'Saved' },
  { type: 'toast.add', id: 'upload', kind: 'loading', message: 'Uploading…' },
  { type: 'toast.add', id: 'upload', kind: 'error', message: 'Upload failed' },
  { type: 'toast.dismiss', id: 'upload' },
  { type: 'toast.dismiss', id: 'toast-1' },
  { type: 'toast.clear' },
]
const shown = (s: Snapshot) => s.context.toasts.map((t) => `${t.id}:${t.type}:${t.message}`)
const label = (e: AnyEventObject) =>
  e.type === 'toast.add' ? `add(${String(e.id ?? 'new')} ${String(e.kind)})` : e.type === 'toast.dismiss' ? `dismiss(${String(e.id)})` : undefined

const coverage = new Coverage(toastsMachine)

describe('toasts machine', () => {
  const paths: Path[] = modelPaths(toastsMachine, {
    events,
    label,
    serializeState: (s) => JSON.stringify((s as Snapshot).context),
    // Adding without an id grows the list: the shortest path to every state and through every edge is plenty, and two
    // id-less toasts show everything there is to see.
    simplePaths: false,
    stopWhen: (s) => (s as Snapshot).context.sequence >= 2,
  })

  it.each(paths.map((path) => [describePath(path, label), path] as const))('%s', (_name, path) => {
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
