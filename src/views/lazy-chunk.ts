import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import { afterFirstScreen } from '../machines/lib/first-screen'

// A chunk of views loaded on demand, and lazy components over what it exports. Once the chunk is here, a component's
// first render does not suspend: React.lazy reads a thenable that has already settled (`then` calls back at once) as
// resolved. That matters beyond one empty frame: a first render that suspends shows its boundary's fallback, and React
// then holds the content that replaces it for up to 300 ms (it throttles reveals), which on the first screen is the
// feed's first paint.

export interface Chunk<M> {
  /** Fetches the chunk (once; a failure does not stick, so the next use fetches it again). */
  load(): Promise<M>
  /** Fetches it once the first screen is up, so a later first use does not wait; a failure waits for that use. */
  loadAfterFirstScreen(): void
  /** A lazy component over one of the chunk's exports. */
  lazy<P extends object>(pick: (chunk: M) => ComponentType<P>): LazyExoticComponent<ComponentType<P>>
}

export function chunk<M>(importer: () => Promise<M>): Chunk<M> {
  let loading: Promise<M> | null = null
  let loaded: M | null = null
  const load = (): Promise<M> => {
    loading ??= importer().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = null
        throw error
      },
    )
    return loading
  }
  return {
    load,
    loadAfterFirstScreen: () => afterFirstScreen(() => void load().catch(() => undefined)),
    lazy: <P extends object>(pick: (chunk: M) => ComponentType<P>) =>
      lazy<ComponentType<P>>(() => {
        const ready = loaded
        if (ready) {
          const settled = { then: (resolve: (module: { default: ComponentType<P> }) => void) => resolve({ default: pick(ready) }) }
          return settled as unknown as Promise<{ default: ComponentType<P> }>
        }
        return load().then((module) => ({ default: pick(module) }))
      }),
  }
}
