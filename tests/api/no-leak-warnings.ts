import { afterEach, expect } from 'vitest'

// An API test fails when the process warns that an emitter gained more listeners than Node expects of one
// (MaxListenersExceededWarning): that is a request or a connection holding on to handlers it should have let go, and
// printed among hundreds of passing tests nobody reads it. Node emits a warning on the next tick, so one raised at the
// end of a test may fail the next test of its file instead.

const seen: string[] = []
const marker = Symbol.for('wren.api.listenerWarnings')
const registry = globalThis as { [marker]?: string[] }

// The API files share one module graph per worker, so the listener is added once per process.
if (!registry[marker]) {
  registry[marker] = seen
  process.on('warning', (warning) => {
    if (warning.name === 'MaxListenersExceededWarning') registry[marker]?.push(warning.message)
  })
}

afterEach(() => {
  const warnings = registry[marker] ?? []
  const found = warnings.splice(0)
  expect(found, 'listener warnings').toEqual([])
})
