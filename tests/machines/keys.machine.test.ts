import { memoryPresence } from '../../src/machines/keys/tab-presence'
import { describe, expect, it } from 'vitest'
import { createActor, createEmptyActor, fromPromise } from 'xstate'
import { Effect } from 'effect'
import { generateKeyPair, memoryKeyStore, parsePublicKey } from '../../src/crypto'
import { sealWithPassword, type KdfPolicy } from '../../src/crypto/wrap'
import {
  conversationKeyFor,
  keysActors,
  keysMachine,
  KeysNotReady,
  KEY_NOT_KEPT,
  keysKept,
  NO_KEY_IN_BROWSER,
} from '../../src/machines/keys/keys'
import { keysModel, robinKeys, storeFailure } from './models/keys.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { robin } from './support/fixtures'

// The keys actor (systemId 'keys'). Each path is replayed on the real machine with its store calls settled by the
// test; after every step the test checks what the rest of the app reads: the status, whose keys, the reason, and
// that a usable key is held exactly when the status is 'ready'. Then, with the real crypto and a memory store,
// `conversationKeyFor` as the Messages screens use it.

describeWalks('keys machine', keysModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = keysMachine.provide({
    actors: { loadKeys: calls.actor('loadKeys'), saveKeys: calls.actor('saveKeys'), forgetKeys: calls.actor('forgetKeys') },
  })
  const actor = createActor(machine, { inspect }).start()

  for await (const { event, before, snapshot } of replay(actor, { calls, context: false })) {
    const { status, keys, userId, reason } = snapshot.context

    // A usable key is held exactly when the status says ready; a reason is given whenever it is not.
    expect(keys !== null).toBe(status === 'ready')
    if (status !== 'ready' && userId !== null && !snapshot.matches('loading')) expect(reason).not.toBeNull()

    switch (event.type) {
      case 'keys.settled':
        expect(userId).toBe(robin.id)
        if (status === 'ready') expect(calls.started.at(-1)).toEqual({ id: 'saveKeys', input: robinKeys })
        break
      case 'keys.load':
        expect(before.context.userId).not.toBe(robin.id)
        expect(calls.started.at(-1)).toEqual({ id: 'loadKeys', input: { userId: robin.id } })
        break
      case 'xstate.done.actor.loadKeys':
        expect(status).toBe(event.output ? 'ready' : 'missing')
        if (!event.output) expect(reason).toBe(NO_KEY_IN_BROWSER)
        break
      case 'xstate.error.actor.loadKeys':
        expect(status).toBe('unavailable')
        expect(reason).toBe(storeFailure.message)
        break
      case 'xstate.error.actor.saveKeys':
        // Not kept for the next reload, but usable in this tab.
        expect(status).toBe('ready')
        expect(reason).toBe(KEY_NOT_KEPT)
        break
      case 'keys.forget':
        // Forgotten at once: nothing reads the old keys while the store is being emptied.
        expect({ userId, status, keys }).toEqual({ userId: null, status: 'missing', keys: null })
        expect(snapshot.context.cache.size).toBe(0)
        break
    }
  }
  actor.stop()
})

describe('keys machine', () => {
  it('ignores a load for the member whose keys are known (login settled them before the session signed in)', () => {
    const calls = new Calls()
    const machine = keysMachine.provide({ actors: { saveKeys: calls.actor('saveKeys'), loadKeys: calls.actor('loadKeys') } })
    const actor = createActor(machine).start()
    actor.send({ type: 'keys.settled', userId: robin.id, outcome: { status: 'ready', keys: robinKeys } })
    const before = actor.getSnapshot()
    actor.send({ type: 'keys.load', userId: robin.id })
    expect(actor.getSnapshot()).toBe(before)
    expect(calls.started.map(({ id }) => id)).toEqual(['saveKeys'])
    actor.stop()
  })

  it('signing in waits until the keys are in the store (a reload then finds them), and no longer than its limit', async () => {
    const calls = new Calls()
    const machine = keysMachine.provide({ actors: { saveKeys: calls.actor('saveKeys') } })
    const actor = createActor(machine).start()
    await expect(keysKept(actor)).resolves.toBeUndefined()
    actor.send({ type: 'keys.settled', userId: robin.id, outcome: { status: 'ready', keys: robinKeys } })
    let kept = false
    const waiting = keysKept(actor).then(() => (kept = true))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(kept).toBe(false)
    calls.resolve('saveKeys', undefined)
    await waiting
    expect(actor.getSnapshot().value).toBe('settled')

    // A store that never answers (some private modes) holds the sign-in up for the limit only.
    actor.send({ type: 'keys.settled', userId: robin.id, outcome: { status: 'ready', keys: robinKeys } })
    expect(actor.getSnapshot().value).toBe('saving')
    await keysKept(actor, 30)
    expect(actor.getSnapshot().value).toBe('saving')
    actor.stop()
  })
})

describe('keys actor with the real crypto', () => {
  // A low iteration count keeps the test fast; the real count is covered in crypto.test.ts.
  const fastKdf: KdfPolicy = { iterations: 1_000, minIterations: 1_000 }

  async function settledActor(presence = memoryPresence()) {
    const store = memoryKeyStore()
    const actor = createActor(keysMachine.provide({ actors: keysActors(store, presence) }), { systemId: 'keys' }).start()
    const pair = await Effect.runPromise(generateKeyPair(sealWithPassword('Sparrow2026', fastKdf)))
    actor.send({
      type: 'keys.settled',
      userId: robin.id,
      outcome: { status: 'ready', keys: { userId: robin.id, publicKey: pair.publicKey, privateKey: pair.privateKey } },
    })
    await new Promise((resolve) => setTimeout(resolve, 0))
    return { actor, store, pair, presence }
  }

  it('saves the keys, derives conversation keys once per public key, and forgets both on sign-out', async () => {
    const { actor, store } = await settledActor()
    expect(await Effect.runPromise(store.load(robin.id))).toBeDefined()
    const other = await Effect.runPromise(generateKeyPair(sealWithPassword('Nightingale2027', fastKdf)))
    const key = await conversationKeyFor(actor.system, other.publicKey)
    expect(key.algorithm.name).toBe('AES-GCM')
    expect(key.extractable).toBe(false)
    expect(await conversationKeyFor(actor.system, other.publicKey)).toBe(key)
    expect(actor.getSnapshot().context.cache.size).toBe(1)
    await expect(conversationKeyFor(actor.system, 'not-a-key')).rejects.toMatchObject({ _tag: 'InvalidPublicKey' })

    actor.send({ type: 'keys.forget' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(await Effect.runPromise(store.load(robin.id))).toBeUndefined()
    expect(actor.getSnapshot().context.cache.size).toBe(0)
    await expect(conversationKeyFor(actor.system, other.publicKey)).rejects.toBeInstanceOf(KeysNotReady)
    expect((await Effect.runPromise(parsePublicKey(other.publicKey))).text).toBe(other.publicKey)
    actor.stop()
  })

  it('marks this tab signed in while it holds keys, and leaves it on sign-out', async () => {
    const { actor, presence } = await settledActor()
    expect(presence.here).toBe(robin.id)
    actor.send({ type: 'keys.forget' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(presence.here).toBeNull()
    actor.stop()
  })

  it('keeps the key of a member still signed in in another tab of this browser, and forgets the others', async () => {
    // Another tab is signed in as Robin (a session without Remember me lives in its tab; the key store is shared).
    const { actor, store, pair } = await settledActor(memoryPresence([robin.id]))
    await Effect.runPromise(store.save({ userId: 'someone-else', publicKey: pair.publicKey, privateKey: pair.privateKey }))
    actor.send({ type: 'keys.forget' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(await Effect.runPromise(store.load(robin.id))).toBeDefined()
    expect(await Effect.runPromise(store.load('someone-else'))).toBeUndefined()
    expect(actor.getSnapshot().context).toMatchObject({ userId: null, keys: null })
    actor.stop()
  })

  it('loads the keys a reload finds in the store', async () => {
    const { actor, store } = await settledActor()
    const reloaded = createActor(keysMachine.provide({ actors: keysActors(store, memoryPresence()) })).start()
    reloaded.send({ type: 'keys.load', userId: robin.id })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(reloaded.getSnapshot().context.status).toBe('ready')
    reloaded.send({ type: 'keys.load', userId: 'someone-else' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(reloaded.getSnapshot().context).toMatchObject({ status: 'missing', reason: NO_KEY_IN_BROWSER })
    actor.stop()
    reloaded.stop()
  })

  it('a conversation key asked for while a reload still reads the store waits for the read', async () => {
    const { actor, store } = await settledActor()
    // A store whose read the test ends: the key is there, the read is slow (a busy phone's IndexedDB).
    let endRead = () => {}
    const slowStore = {
      ...store,
      load: (userId: string) =>
        Effect.flatMap(
          Effect.promise(() => new Promise<void>((resolve) => (endRead = resolve))),
          () => store.load(userId),
        ),
    }
    const reloaded = createActor(keysMachine.provide({ actors: keysActors(slowStore, memoryPresence()) }), {
      systemId: 'keys',
    }).start()
    reloaded.send({ type: 'keys.load', userId: robin.id })
    const other = await Effect.runPromise(generateKeyPair(sealWithPassword('Nightingale2027', fastKdf)))
    const asked = conversationKeyFor(reloaded.system, other.publicKey)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(reloaded.getSnapshot().matches('loading')).toBe(true)
    endRead()
    expect((await asked).algorithm.name).toBe('AES-GCM')
    actor.stop()
    reloaded.stop()
  })

  it('answers KeysNotReady when no keys actor runs or it holds no key', async () => {
    await expect(conversationKeyFor(createEmptyActor().system, robinKeys.publicKey)).rejects.toBeInstanceOf(KeysNotReady)
    const actor = createActor(
      keysMachine.provide({ actors: { loadKeys: fromPromise(() => Promise.reject(storeFailure)) } }),
      { systemId: 'keys' },
    ).start()
    actor.send({ type: 'keys.load', userId: robin.id })
    await new Promise((resolve) => setTimeout(resolve, 0))
    await expect(conversationKeyFor(actor.system, robinKeys.publicKey)).rejects.toMatchObject({
      status: 'unavailable',
      message: storeFailure.message,
    })
    actor.stop()
  })
})
