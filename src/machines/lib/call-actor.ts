import { fromCallback, type AnyEventObject, type EventObject } from 'xstate'

/**
 * A server call run by a child actor that reports back with an event (ok or failed), for machines that run many calls
 * at once (one like per post): each call is spawned under its own id and stopped once it reported. Stopping it earlier
 * (the member left, the actor stopped) aborts the fetch, and a late answer is dropped instead of reported.
 */
export function callActor<TInput, TOutput>(
  call: (input: TInput, signal: AbortSignal) => Promise<TOutput>,
  report: {
    done: (input: TInput, output: TOutput) => AnyEventObject
    failed: (input: TInput, error: unknown) => AnyEventObject
  },
) {
  return fromCallback<EventObject, TInput>(({ input, sendBack }) => {
    const controller = new AbortController()
    call(input, controller.signal).then(
      (output) => {
        if (!controller.signal.aborted) sendBack(report.done(input, output))
      },
      (error: unknown) => {
        if (!controller.signal.aborted) sendBack(report.failed(input, error))
      },
    )
    return () => controller.abort()
  })
}
