import { fromPromise } from 'xstate'

// The requests public/boot-prefetch.js started before the app's code arrived (docs/architecture.md, "Boot"): the
// session check and Home's first feed page, sent with the stored token. The session and feed actors adopt an answer
// instead of asking again, at most once each, and only:
// - for the token they would send themselves (a different member signed in meanwhile gets nothing of it);
// - when it succeeded: a failed request, a 401 or any other error answer is asked again the normal way, so every
//   failure goes through the one path that reports it (retry, the 401 bridge, the actor's error state);
// - for the feed, while the page is young: a first page fetched at boot is not "the latest posts" minutes later.

export type BootCall = 'me' | 'homeFeed'

export interface BootPrefetch {
  token: string
  /** performance.now() when the requests started. */
  startedAt: number
  me?: Promise<Response>
  homeFeed?: Promise<Response>
}

/** How long after boot the prefetched Home page may still be shown as Home's first page. */
export const HOME_FEED_PREFETCH_MAX_AGE_MS = 30_000

let pending: BootPrefetch | null = null
let clock: () => number = () => performance.now()

function isBootPrefetch(value: unknown): value is BootPrefetch {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return typeof v.token === 'string' && typeof v.startedAt === 'number'
}

/** src/main.tsx hands over what the boot script started (anything else is ignored); tests pass a clock. */
export function installBootPrefetch(prefetch: unknown, now?: () => number): void {
  pending = isBootPrefetch(prefetch) ? prefetch : null
  if (now) clock = now
}

/** The prefetched answer of `call` for `token`, once; null when there is none to adopt. */
export function takeBootAnswer(call: BootCall, token: string | null): Promise<Response> | null {
  if (!pending || token === null || pending.token !== token) return null
  const answer = pending[call] ?? null
  delete pending[call]
  if (call === 'homeFeed' && clock() - pending.startedAt > HOME_FEED_PREFETCH_MAX_AGE_MS) return null
  return answer
}

/** The answer's body when it succeeded, else what `fallback` (the normal call) gives. */
export async function adoptOr<T>(answer: Promise<Response> | null, read: (body: unknown) => T, fallback: () => Promise<T>): Promise<T> {
  if (answer) {
    try {
      const response = await answer
      if (response.ok) return read(await response.json())
    } catch {
      // The request failed or its body did not parse: ask again below.
    }
  }
  return fallback()
}

/**
 * A promise actor that adopts the prefetched answer of `call` (for the token `tokenOf` finds) and otherwise runs
 * `fetchNormally`. `use` says whether this invocation is the one the prefetch stands for (Home's first page, not a
 * next page or a list's).
 */
export function adoptingCall<TOutput, TInput>(options: {
  call: BootCall
  use?: (input: TInput) => boolean
  tokenOf: (args: { input: TInput; system: { get: (id: string) => unknown } }) => string | null
  read: (body: unknown) => TOutput
  fetchNormally: (input: TInput, signal: AbortSignal) => Promise<TOutput>
}) {
  return fromPromise<TOutput, TInput>(({ input, signal, system }) => {
    const wanted = options.use ? options.use(input) : true
    const answer = wanted ? takeBootAnswer(options.call, options.tokenOf({ input, system })) : null
    return adoptOr(answer, options.read, () => options.fetchNormally(input, signal))
  })
}
