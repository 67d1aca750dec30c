import { Effect } from 'effect'
import { fromPromise } from 'xstate'
import { run } from '../../api/calls'
import { trustCalls, type TrustCalls } from '../../api/trust.calls'
import type { MemberKeys } from '../../crypto/keys'
import type { KeySystem } from '../conversations/message-crypto'
import { readCachedRecord, writeCachedRecord } from './conversation.storage'
import { judgeTrust, KEYS_UNAVAILABLE, type RecordRead, type TrustVerdict } from './conversation.trust'

// The conversation actor's two trust actors: `checkTrust` (the own key from this browser against the server's idea
// of it, the contact's key against the member's sealed record, the safety number from the local key) and
// `saveTrust` (seal and store a decision). The rules are in ./conversation.trust.ts; this file only gathers facts and
// seals. The own key comes from the keys actor through `ownKeys` (src/machines/member/member.messaging.ts).

/** The member's own keys in this browser (the keys actor), or a rejection saying why there are none. */
export type OwnKeysFor = (system: KeySystem) => Promise<MemberKeys>

export interface TrustCheckRequest {
  readonly me: string
  readonly contactId: string
  readonly theirKey: string
  readonly reportedOwnKey: string | null
}

export interface TrustCheck {
  readonly verdict: TrustVerdict
  /** From the key in this browser's store and the contact's key as given: what the member compares. */
  readonly safetyNumber: string
  /** When the contact's current key came into use (the key history), for a changed key. */
  readonly changedAt: string | null
}

export interface TrustSave {
  readonly me: string
  readonly contactId: string
  readonly contactKey: string
  readonly verified: boolean
}

/** The record and safety-number code, loaded on first use: it is not needed until a conversation opens. */
const trustCode = () => Promise.all([import('../../crypto/trust-record'), import('../../crypto/safety-number')])

/** Until wired to the keys actor: no own key, so nothing is trusted and nothing sent. */
export const noOwnKeys: OwnKeysFor = () => Promise.reject(new Error(KEYS_UNAVAILABLE))

export function trustActors(ownKeys: OwnKeysFor, calls: TrustCalls = trustCalls) {
  async function seal(me: MemberKeys, input: TrustSave): Promise<string> {
    const [{ deriveSelfKey, sealTrustRecord }] = await trustCode()
    const selfKey = await Effect.runPromise(deriveSelfKey(me))
    const record = { contactKey: input.contactKey, verified: input.verified, at: new Date().toISOString() }
    return Effect.runPromise(sealTrustRecord(selfKey, input.me, input.contactId, record))
  }

  async function store(me: MemberKeys, input: TrustSave, signal: AbortSignal): Promise<void> {
    const sealed = await seal(me, input)
    await run(calls.putTrustRecord(input.contactId, sealed), signal)
    writeCachedRecord(input.me, input.contactId, sealed)
  }

  return {
    checkTrust: fromPromise<TrustCheck, TrustCheckRequest>(async ({ input, system, signal }) => {
      const me = await ownKeys(system)
      const [{ deriveSelfKey, openTrustRecord }, { safetyNumber }] = await trustCode()
      const number = await Effect.runPromise(safetyNumber(me.publicKey, input.theirKey))
      const facts = { localOwnKey: me.publicKey, reportedOwnKey: input.reportedOwnKey, theirKey: input.theirKey }
      if (judgeTrust({ ...facts, record: { kind: 'none' } }).kind === 'ownKeyMismatch') {
        return { verdict: { kind: 'ownKeyMismatch' }, safetyNumber: number, changedAt: null }
      }
      const stored = (await run(calls.getTrustRecord(input.contactId), signal)) ?? readCachedRecord(input.me, input.contactId)
      const selfKey = await Effect.runPromise(deriveSelfKey(me))
      const read: RecordRead =
        stored === null
          ? { kind: 'none' }
          : await Effect.runPromise(
              openTrustRecord(selfKey, input.me, input.contactId, stored).pipe(
                Effect.match({ onFailure: (): RecordRead => ({ kind: 'unreadable' }), onSuccess: (record): RecordRead => ({ kind: 'opened', record }) }),
              ),
            )
      const verdict = judgeTrust({ ...facts, record: read })
      if (verdict.kind === 'firstUse') {
        // Trust on first use: the key given now is recorded; a record that cannot be stored is recorded next time.
        await store(me, { ...input, contactKey: input.theirKey, verified: false }, signal).catch(() => undefined)
      } else if (stored !== null && verdict.kind === 'trusted') {
        writeCachedRecord(input.me, input.contactId, stored)
      }
      let changedAt: string | null = null
      if (verdict.kind === 'changed') {
        const history = await run(calls.getKeyHistory(input.contactId), signal).catch(() => [])
        changedAt = history.find((entry) => entry.publicKey === input.theirKey)?.since ?? null
      }
      return { verdict, safetyNumber: number, changedAt }
    }),
    saveTrust: fromPromise<void, TrustSave>(async ({ input, system, signal }) => store(await ownKeys(system), input, signal)),
  }
}

export const defaultTrustActors = trustActors(noOwnKeys)
