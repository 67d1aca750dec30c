import { Effect } from 'effect'
import { beforeEach, describe, expect, it } from 'vitest'
import { createActor, toPromise } from 'xstate'
import type { KeyHistoryEntry, TrustCalls } from '../../src/api/trust.calls'
import { generateKeyPair } from '../../src/crypto/key-pair'
import { sealWithPassword } from '../../src/crypto/wrap'
import type { MemberKeys } from '../../src/crypto/keys'
import { safetyNumber } from '../../src/crypto/safety-number'
import { deriveSelfKey, openTrustRecord, sealTrustRecord } from '../../src/crypto/trust-record'
import { trustCacheName } from '../../src/machines/conversation/conversation.storage'
import { changedOn, judgeTrust, type TrustFacts } from '../../src/machines/conversation/conversation.trust'
import { trustActors, type TrustCheck, type TrustCheckRequest } from '../../src/machines/conversation/conversation.trust-actors'
import { installLocalStorage } from './support/memory-storage'

// The key-trust rules (conversation.trust.ts) as a table, and the check the conversation actor runs
// (conversation.trust-actors.ts) with real keys and sealed records against a fake server that tries to cheat: it
// cannot make a swapped key look accepted, a record of its own open, or a browser forget a record by deleting it.

const CHEAP = { iterations: 1_000, minIterations: 1_000 }
const ME = '018f0000-0000-7000-8000-0000000000a1'
const BEN = '018f0000-0000-7000-8000-0000000000b1'
const at = '2026-11-27T03:00:00.000Z'

async function member(): Promise<MemberKeys> {
  const pair = await Effect.runPromise(generateKeyPair(sealWithPassword('pw', CHEAP)))
  return { publicKey: pair.publicKey, privateKey: pair.privateKey }
}

describe('judgeTrust', () => {
  const facts = (over: Partial<TrustFacts>): TrustFacts => ({ localOwnKey: 'mine', reportedOwnKey: 'mine', theirKey: 'ben', record: { kind: 'none' }, ...over })
  const record = (contactKey: string, verified = false) => ({ kind: 'opened' as const, record: { contactKey, verified, at } })

  it.each([
    ['no record: trust on first use', facts({}), { kind: 'firstUse' }],
    ['the accepted key', facts({ record: record('ben') }), { kind: 'trusted', verified: false }],
    ['the verified key', facts({ record: record('ben', true) }), { kind: 'trusted', verified: true }],
    ['another key', facts({ record: record('old') }), { kind: 'changed', wasVerified: false }],
    ['another key of a verified contact', facts({ record: record('old', true) }), { kind: 'changed', wasVerified: true }],
    ['a record that does not open', facts({ record: { kind: 'unreadable' } }), { kind: 'changed', wasVerified: false }],
    ['the server reports another own key', facts({ reportedOwnKey: 'fake', record: record('ben', true) }), { kind: 'ownKeyMismatch' }],
    ['the server reports no own key', facts({ reportedOwnKey: null }), { kind: 'ownKeyMismatch' }],
  ])('%s', (_name, given, verdict) => {
    expect(judgeTrust(given)).toEqual(verdict)
  })

  it('says when a key came into use as a date, or nothing', () => {
    expect(changedOn(at)).toBe('27 Nov 2026')
    expect(changedOn(null)).toBeNull()
    expect(changedOn('not a time')).toBeNull()
  })
})

/** The server as the check sees it: a record store and a key history it fills as it likes. */
function fakeServer() {
  const server = {
    records: new Map<string, string>(),
    history: [] as KeyHistoryEntry[],
    puts: [] as string[],
    calls: {
      getKeyHistory: () => Effect.succeed(server.history),
      getTrustRecord: (contactId: string) => Effect.succeed(server.records.get(contactId) ?? null),
      putTrustRecord: (contactId: string, record: string) =>
        Effect.sync(() => {
          server.puts.push(contactId)
          server.records.set(contactId, record)
        }),
    } as TrustCalls,
  }
  return server
}

describe('the key check', () => {
  let me: MemberKeys
  let ben: MemberKeys
  let fake: MemberKeys
  beforeEach(async () => {
    installLocalStorage()
    ;[me, ben, fake] = await Promise.all([member(), member(), member()])
  })

  const check = (server: ReturnType<typeof fakeServer>, request: Partial<TrustCheckRequest>, mine: MemberKeys = me): Promise<TrustCheck> => {
    const actors = trustActors(() => Promise.resolve(mine), server.calls)
    const input: TrustCheckRequest = { me: ME, contactId: BEN, theirKey: ben.publicKey, reportedOwnKey: mine.publicKey, ...request }
    return toPromise(createActor(actors.checkTrust, { input }).start())
  }
  const seal = async (contactKey: string, verified: boolean, by: MemberKeys = me) =>
    Effect.runPromise(sealTrustRecord(await Effect.runPromise(deriveSelfKey(by)), ME, BEN, { contactKey, verified, at }))

  it('first contact records the key given, sealed so that this member opens it, and allows sending', async () => {
    const server = fakeServer()
    const result = await check(server, {})
    expect(result.verdict).toEqual({ kind: 'firstUse' })
    expect(result.safetyNumber).toBe(await Effect.runPromise(safetyNumber(me.publicKey, ben.publicKey)))
    const stored = server.records.get(BEN) ?? ''
    const opened = await Effect.runPromise(openTrustRecord(await Effect.runPromise(deriveSelfKey(me)), ME, BEN, stored))
    expect(opened).toMatchObject({ contactKey: ben.publicKey, verified: false })
    expect(localStorage.getItem(trustCacheName(ME, BEN))).toBe(stored)
  })

  it('the number comes from the key in this browser, whatever the server reports as mine', async () => {
    const server = fakeServer()
    const result = await check(server, { reportedOwnKey: fake.publicKey, theirKey: fake.publicKey })
    expect(result.verdict).toEqual({ kind: 'ownKeyMismatch' })
    expect(result.safetyNumber).toBe(await Effect.runPromise(safetyNumber(me.publicKey, fake.publicKey)))
    expect(result.safetyNumber).not.toBe(await Effect.runPromise(safetyNumber(fake.publicKey, fake.publicKey)))
    expect(server.puts, 'nothing is recorded').toEqual([])
  })

  it('a swapped key is a changed key, with when it came into use, and nothing is recorded', async () => {
    const server = fakeServer()
    server.records.set(BEN, await seal(ben.publicKey, true))
    server.history = [{ publicKey: fake.publicKey, fingerprint: 'x', since: at, until: null }]
    const result = await check(server, { theirKey: fake.publicKey })
    expect(result).toMatchObject({ verdict: { kind: 'changed', wasVerified: true }, changedAt: at })
    expect(server.puts).toEqual([])
  })

  it('a record the server made up (sealed under another key) does not vouch for its key', async () => {
    const server = fakeServer()
    server.records.set(BEN, await seal(fake.publicKey, true, fake))
    expect((await check(server, { theirKey: fake.publicKey })).verdict).toEqual({ kind: 'changed', wasVerified: false })
  })

  it('a record the server withholds is read from this browser\'s copy', async () => {
    const server = fakeServer()
    localStorage.setItem(trustCacheName(ME, BEN), await seal(ben.publicKey, false))
    expect((await check(server, { theirKey: fake.publicKey })).verdict).toEqual({ kind: 'changed', wasVerified: false })
    expect((await check(server, {})).verdict).toEqual({ kind: 'trusted', verified: false })
  })

  it('saving re-seals the decision for this contact', async () => {
    const server = fakeServer()
    const actors = trustActors(() => Promise.resolve(me), server.calls)
    await toPromise(createActor(actors.saveTrust, { input: { me: ME, contactId: BEN, contactKey: fake.publicKey, verified: true } }).start())
    expect((await check(server, { theirKey: fake.publicKey })).verdict).toEqual({ kind: 'trusted', verified: true })
    expect((await check(server, {})).verdict).toEqual({ kind: 'changed', wasVerified: true })
  })
})
