import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createToastStore, TOAST_DURATIONS, TOAST_LIMIT, type ToastType } from '../../src/machines/toasts/toast.store'
import type { Scheduler, TimerHandle } from '../../src/machines/lib/scheduler'

// docs/product.md, "Toasts": blank/error/custom last 4 s, success 2 s, loading until dismissed; at most 20 at once.

describe('toast store with fake timers', () => {
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

  it.each(lifetimes)('a %s toast lasts %s ms', (type, lifetime) => {
    expect(TOAST_DURATIONS[type]).toBe(lifetime)
    const { store, toast } = createToastStore()
    const show = type === 'blank' ? toast : toast[type]
    const id = show('Hello')
    expect(store.getSnapshot().context.toasts).toEqual([expect.objectContaining({ id, type, message: 'Hello' })])
    if (lifetime === null) {
      vi.advanceTimersByTime(60 * 60 * 1000)
      expect(store.getSnapshot().context.toasts).toHaveLength(1)
      toast.dismiss(id)
    } else {
      vi.advanceTimersByTime(lifetime - 1)
      expect(store.getSnapshot().context.toasts).toHaveLength(1)
      vi.advanceTimersByTime(1)
    }
    expect(store.getSnapshot().context.toasts).toHaveLength(0)
  })

  it('keeps at most 20, dropping the oldest', () => {
    const { store, toast } = createToastStore()
    for (let i = 1; i <= TOAST_LIMIT + 5; i++) toast.loading(`Toast ${i}`)
    const messages = store.getSnapshot().context.toasts.map((t) => t.message)
    expect(TOAST_LIMIT).toBe(20)
    expect(messages).toHaveLength(20)
    expect(messages[0]).toBe('Toast 6')
    expect(messages.at(-1)).toBe('Toast 25')
  })

  it('dismissing early cancels the timer, so a later toast is not cut short', () => {
    const { store, toast } = createToastStore()
    const first = toast.error('First')
    vi.advanceTimersByTime(3_000)
    toast.dismiss(first)
    expect(vi.getTimerCount()).toBe(0)
    toast.error('Second')
    vi.advanceTimersByTime(3_999)
    expect(store.getSnapshot().context.toasts.map((t) => t.message)).toEqual(['Second'])
  })

  it('re-using an id replaces the toast in place and restarts its clock (loading -> success)', () => {
    const { store, toast } = createToastStore()
    const id = toast.loading('Saving...')
    vi.advanceTimersByTime(10_000)
    toast.success('Saved', { id })
    expect(store.getSnapshot().context.toasts).toEqual([expect.objectContaining({ id, type: 'success', message: 'Saved' })])
    vi.advanceTimersByTime(2_000)
    expect(store.getSnapshot().context.toasts).toHaveLength(0)
  })

  it('clear removes everything and leaves no timers', () => {
    const { store, toast } = createToastStore()
    toast('a')
    toast.success('b')
    toast.clear()
    expect(store.getSnapshot().context.toasts).toHaveLength(0)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('toast store with an injected scheduler', () => {
  it('asks the scheduler for one timer per expiring toast', () => {
    const scheduled: Array<{ callback: () => void; ms: number; cleared: boolean }> = []
    const scheduler: Scheduler = {
      set: (callback, ms) => {
        scheduled.push({ callback, ms, cleared: false })
        return (scheduled.length - 1) as unknown as TimerHandle
      },
      clear: (handle) => {
        const timer = scheduled[handle as unknown as number]
        if (timer) timer.cleared = true
      },
    }
    const { store, toast } = createToastStore({ scheduler, now: () => 42 })
    toast.success('Saved')
    toast.loading('Working')
    expect(scheduled.map((s) => s.ms)).toEqual([2_000])
    expect(store.getSnapshot().context.toasts[0]?.createdAt).toBe(42)
    scheduled[0]?.callback()
    expect(store.getSnapshot().context.toasts.map((t) => t.message)).toEqual(['Working'])
  })
})
