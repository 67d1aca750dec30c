import { Effect } from 'effect'
import { deriveConversationKey } from '../../src/crypto/conversation-key'
import { generateKeyPair } from '../../src/crypto/key-pair'
import { sealWithPassword } from '../../src/crypto/wrap'
import { indexedDbKeyStore } from '../../src/crypto/key-store'
import { decryptMessage, encryptMessage } from '../../src/crypto/messages'

// Runs in Chromium, loaded twice by key-store.smoke.mjs with the same profile: the first load saves keys in
// IndexedDB, the second (a new browser process, like a reopened laptop) reads them back and uses them. The result goes
// back to the script by POST /result.

const CHEAP = { iterations: 1_000, minIterations: 1_000 }
const context = { conversationId: 'c1', senderId: 'ann' }

async function first(): Promise<string[]> {
  const store = indexedDbKeyStore()
  const ann = await Effect.runPromise(generateKeyPair(sealWithPassword('ann-Password1', CHEAP)))
  const bob = await Effect.runPromise(generateKeyPair(sealWithPassword('bob-Password1', CHEAP)))
  await Effect.runPromise(store.save({ userId: 'ann', publicKey: ann.publicKey, privateKey: ann.privateKey }))
  await Effect.runPromise(store.save({ userId: 'bob', publicKey: bob.publicKey, privateKey: bob.privateKey }))
  const key = await Effect.runPromise(deriveConversationKey(ann, bob.publicKey))
  localStorage.setItem('envelope', await Effect.runPromise(encryptMessage(key, 'survives a restart', context)))
  localStorage.setItem('bob', bob.publicKey)
  return ['saved']
}

function bob0<T>(keys: T | undefined): T {
  if (!keys) throw new Error('bob missing')
  return keys
}

async function second(): Promise<string[]> {
  const checks: string[] = []
  const store = indexedDbKeyStore()
  const ann = await Effect.runPromise(store.load('ann'))
  if (!ann) return ['ann missing']
  checks.push(`extractable=${ann.privateKey.extractable}`)
  const exported = await crypto.subtle.exportKey('pkcs8', ann.privateKey).then(
    () => 'exported',
    () => 'export refused',
  )
  checks.push(exported)
  const key = await Effect.runPromise(deriveConversationKey(ann, localStorage.getItem('bob') ?? ''))
  checks.push(await Effect.runPromise(decryptMessage(key, localStorage.getItem('envelope') ?? '', context)))
  await Effect.runPromise(store.forget('ann'))
  checks.push(`ann after forget=${String(await Effect.runPromise(store.load('ann')))}`)
  checks.push(`bob before forgetAll=${(await Effect.runPromise(store.load('bob'))) ? 'kept' : 'missing'}`)
  // Bob is signed in in another tab: a sign-out here keeps his key and forgets the rest.
  await Effect.runPromise(store.save({ ...bob0(await Effect.runPromise(store.load('bob'))), userId: 'carol' }))
  await Effect.runPromise(store.forgetAll(new Set(['bob'])))
  checks.push(`after forgetAll keeping bob: bob ${(await Effect.runPromise(store.load('bob'))) ? 'kept' : 'missing'}, carol=${String(await Effect.runPromise(store.load('carol')))}`)
  await Effect.runPromise(store.forgetAll())
  checks.push(`bob after forgetAll=${String(await Effect.runPromise(store.load('bob')))}`)
  return checks
}

const phase = new URLSearchParams(location.search).get('phase')
;(phase === 'second' ? second() : first())
  .catch((error: unknown) => [`error: ${String(error)}`])
  .then((checks) => fetch('/result', { method: 'POST', body: JSON.stringify(checks) }))
