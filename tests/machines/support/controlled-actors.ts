import { fromPromise } from 'xstate'

// Promise actors whose outcome the test decides: a path step `xstate.done.actor.<id>` resolves the pending call of
// that id with the step's output, `xstate.error.actor.<id>` rejects it with the step's error. A step for a call that
// is not running fails loudly, so a path the real machine cannot follow is caught.

interface Pending {
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  input: unknown
}

export class Calls {
  readonly #pending = new Map<string, Pending>()
  /** Every started call, in order, with its input (what the machine asked the server). */
  readonly started: Array<{ id: string; input: unknown }> = []

  actor<TOutput, TInput = unknown>(id: string) {
    return fromPromise<TOutput, TInput>(
      ({ input }) =>
        new Promise<TOutput>((resolve, reject) => {
          this.started.push({ id, input })
          this.#pending.set(id, { resolve: (value) => resolve(value as TOutput), reject, input })
        }),
    )
  }

  /**
   * Like `actor`, for one logic that a machine invokes under several ids (a first page and a next page): each call is
   * keyed by the id it was invoked under, so `xstate.done.actor.<that id>` settles it.
   */
  invoked<TOutput, TInput = unknown>() {
    return fromPromise<TOutput, TInput>(
      ({ input, self }) =>
        new Promise<TOutput>((resolve, reject) => {
          this.started.push({ id: self.id, input })
          this.#pending.set(self.id, { resolve: (value) => resolve(value as TOutput), reject, input })
        }),
    )
  }

  isRunning(id: string): boolean {
    return this.#pending.has(id)
  }

  resolve(id: string, output: unknown): void {
    this.#take(id).resolve(output)
  }

  reject(id: string, error: unknown): void {
    this.#take(id).reject(error)
  }

  #take(id: string): Pending {
    const pending = this.#pending.get(id)
    if (!pending) throw new Error(`No call "${id}" is running`)
    this.#pending.delete(id)
    return pending
  }
}
