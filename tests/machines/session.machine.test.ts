import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { ME_CHECK_MS, sessionMachine } from '../../src/machines/session/session.machine'
import { readStoredSession, SESSION_STORAGE_KEY, writeStoredSession } from '../../src/machines/session/session.storage'
import type { SessionUser, StoredSession } from '../../src/machines/session/session.schema'
import { fromNoSession, fromStoredToken, sessionModel } from './models/session.model'
import { Calls } from './support/controlled-actors'
import { installLocalStorage, installSessionStorage, MemoryStorage } from './support/memory-storage'
import { Coverage, perform, walkPaths, type Path } from './support/model'
import { checkAuthFailures, noSession, robin, robinFromServer, storedRobin } from './support/fixtures'

// Model-based: the model's paths through the session chart (from a stored token and from none) are replayed on a real
// actor whose server calls the test settles. After every step the test checks the product's rules, not the chart's own
// bookkeeping: what localStorage holds, whether the member counts as signed in, and the me-check's keep-or-clear rule.
// The events are the model's (./models/session.model.ts), shared with `npm run paths -- session`.

function stored(storage: MemoryStorage | undefined): StoredSession | null {
  const raw = storage?.getItem(SESSION_STORAGE_KEY) ?? null
  return raw === null ? null : (JSON.parse(raw) as StoredSession)
}

const coverage = new Coverage(sessionMachine)
let storage: MemoryStorage
let tabStorage: MemoryStorage

beforeEach(() => {
  storage = installLocalStorage()
  tabStorage = installSessionStorage()
})

async function replay(start: StoredSession, path: Path) {
  writeStoredSession(start, storage)
  const calls = new Calls()
  const machine = sessionMachine.provide({
    actors: { checkAuth: calls.actor('checkAuth'), logout: calls.actor('logout') },
  })
  const actor = createActor(machine, { input: { stored: readStoredSession(storage) }, inspect: coverage.inspector })
  actor.start()
  coverage.see(actor.getSnapshot())

  for (const step of path.steps) {
    const before = actor.getSnapshot()
    await perform(actor, calls, step.event)
    const snapshot = actor.getSnapshot()
    coverage.see(snapshot)

    // The real actor followed the chart.
    expect(snapshot.value).toEqual(step.state.value)
    expect(snapshot.context).toEqual(step.state.context)

    // What the browser keeps always equals the session (persist on every change), in the tab's storage for a session
    // not remembered and in the browser's otherwise, never in both; a member counts as signed in exactly when a
    // token and a user are held.
    const inTab = !snapshot.context.remember && snapshot.context.token !== null
    const kept = stored(inTab ? tabStorage : storage)
    if (inTab) expect(stored(storage)?.token ?? null).toBeNull()
    else expect(stored(tabStorage)).toBeNull()
    expect(readStoredSession().token).toBe(snapshot.context.token)
    expect(kept?.token ?? null).toBe(snapshot.context.token)
    expect(kept?.user ?? null).toEqual(snapshot.context.user)
    expect(kept?.privateKey ?? null).toBe(snapshot.context.privateKey)
    expect(kept?.isAuthenticated ?? false).toBe(snapshot.context.token !== null && snapshot.context.user !== null)

    // While loading, the app shows its spinner; it is never both loading and signed in.
    expect(snapshot.hasTag('loading') && snapshot.hasTag('authenticated')).toBe(false)

    // The me-check keeps or clears by the kind of failure (docs/product.md, "Session check").
    if (step.event.type === 'xstate.error.actor.checkAuth') {
      const rule = checkAuthFailures.find((f) => f.error === step.event.error)
      expect(rule, 'a listed failure').toBeDefined()
      if (rule?.keeps) {
        expect(snapshot.value).toBe('authenticated')
        expect(snapshot.context.token).toBe(before.context.token)
        expect(snapshot.context.user).toEqual(before.context.user)
      } else {
        expect(snapshot.value).toBe('unauthenticated')
        expect(snapshot.context).toEqual({ user: null, token: null, privateKey: null, remember: true })
      }
    }
    // No answer to the me-check in 10 s: the stored session is kept as it was (the call's abort: see below).
    if (step.event.type === 'xstate.after.meCheck.session.checking') {
      expect(snapshot.value).toBe('authenticated')
      expect(snapshot.context).toEqual(before.context)
    }
    if (step.event.type === 'xstate.done.actor.checkAuth') {
      expect(snapshot.context.user).toEqual(robinFromServer)
      expect(snapshot.context.token).toBe(storedRobin.token)
    }
    // Logout clears whether the server call worked or not.
    if (step.event.type === 'xstate.done.actor.logout' || step.event.type === 'xstate.error.actor.logout') {
      expect(snapshot.value).toBe('unauthenticated')
      expect(kept?.token).toBeNull()
      expect(kept?.user).toBeNull()
    }
    if (step.event.type === 'session.login.succeeded' && before.value === 'unauthenticated') {
      const { token, remember } = step.event.auth as { token: string; remember?: boolean }
      expect(snapshot.context).toEqual({ user: robin, token, privateKey: 'wrapped-key', remember: remember ?? true })
    }
  }
  actor.stop()
  return calls
}

describe('session machine: paths from a stored token', () => {
  const paths = walkPaths(sessionModel, fromStoredToken)

  it('has paths through the me-check', () => {
    expect(paths.length).toBeGreaterThan(checkAuthFailures.length)
  })

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const calls = await replay(fromStoredToken.stored, path)
    // A stored token is always checked first, and only once.
    expect(calls.started.filter((c) => c.id === 'checkAuth')).toHaveLength(1)
  })
})

describe('session machine: paths from no stored session', () => {
  const paths = walkPaths(sessionModel, fromNoSession)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const calls = await replay(fromNoSession.stored, path)
    // Without a token there is nothing to check.
    expect(calls.started.some((c) => c.id === 'checkAuth')).toBe(false)
  })
})

describe('session machine: coverage', () => {
  it('the paths together enter every state and take every transition', () => {
    coverage.expectComplete()
  })
})

describe('session machine: the me-check\'s 10 s', () => {
  it('keeps the stored session unchecked after 10 s without an answer, and aborts the call', async () => {
    vi.useFakeTimers()
    try {
      let signal: AbortSignal | undefined
      const hanging = fromPromise<SessionUser, { token: string | null }>(({ signal: callSignal }) => {
        signal = callSignal
        return new Promise<SessionUser>(() => undefined)
      })
      const actor = createActor(sessionMachine.provide({ actors: { checkAuth: hanging } }), { input: { stored: storedRobin } })
      actor.start()
      await vi.advanceTimersByTimeAsync(ME_CHECK_MS - 1)
      expect(actor.getSnapshot().value).toBe('checking')
      expect(signal?.aborted).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(actor.getSnapshot().value).toBe('authenticated')
      expect(actor.getSnapshot().context.token).toBe(storedRobin.token)
      expect(signal?.aborted).toBe(true)
      actor.stop()
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('session machine: start-up', () => {
  it('starts unauthenticated and loading when a token is stored, then checks it', () => {
    const calls = new Calls()
    const actor = createActor(sessionMachine.provide({ actors: { checkAuth: calls.actor('checkAuth') } }), {
      input: { stored: storedRobin },
    })
    actor.start()
    const snapshot = actor.getSnapshot()
    expect(snapshot.hasTag('loading')).toBe(true)
    expect(snapshot.hasTag('authenticated')).toBe(false)
    expect(calls.isRunning('checkAuth')).toBe(true)
    actor.stop()
  })

  it('is unauthenticated and not loading at once without a token', () => {
    const actor = createActor(sessionMachine, { input: { stored: noSession } }).start()
    expect(actor.getSnapshot().value).toBe('unauthenticated')
    expect(actor.getSnapshot().hasTag('loading')).toBe(false)
    actor.stop()
  })

  it('reads a bad stored value as no session, and overwrites it', () => {
    for (const bad of ['not json', '{"user":1,"token":2}', '[]', '{"token":"t","user":{"id":""}}']) {
      storage.setItem(SESSION_STORAGE_KEY, bad)
      const session = readStoredSession(storage)
      expect(session).toEqual(noSession)
      const actor = createActor(sessionMachine, { input: { stored: session } }).start()
      expect(actor.getSnapshot().value).toBe('unauthenticated')
      expect(stored(storage)).toEqual(noSession)
      actor.stop()
    }
  })

  it('reads a stored session written by an older build (extra fields, no private key)', () => {
    storage.setItem(
      SESSION_STORAGE_KEY,
      JSON.stringify({ user: { ...storedRobin.user, theme: 'x' }, token: 'old-token', isAuthenticated: true }),
    )
    expect(readStoredSession(storage)).toEqual({ ...storedRobin, token: 'old-token', privateKey: null, remember: true })
  })

  it("reads the tab's session before the browser's, and a reload keeps a session not remembered in the tab", () => {
    writeStoredSession({ ...storedRobin, token: 'tab-token', remember: false })
    expect(stored(storage)?.token ?? null).toBeNull()
    expect(readStoredSession()).toEqual({ ...storedRobin, token: 'tab-token', remember: false })
    // A new tab has an empty sessionStorage: signed out.
    expect(readStoredSession({ local: storage, tab: new MemoryStorage() }).token).toBeNull()
    writeStoredSession({ user: null, token: null, privateKey: null })
    expect(stored(tabStorage)).toBeNull()
    expect(readStoredSession().token).toBeNull()
  })
})
