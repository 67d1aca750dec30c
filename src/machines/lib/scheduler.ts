// Timers behind a tiny interface so stores that expire things (toasts) can be driven by a fake clock in tests.

export type TimerHandle = ReturnType<typeof setTimeout>

export interface Scheduler {
  set(callback: () => void, ms: number): TimerHandle
  clear(handle: TimerHandle): void
}

export const browserScheduler: Scheduler = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle),
}
