import type { AnyEventObject } from 'xstate'
import { IDEMPOTENCY_KEY_IN_PROGRESS } from '../../../src/api/contract/idempotency'
import { Forbidden, Invalid, Network } from '../../../src/api/errors'
import type { Conversation, DirectMessage } from '../../../src/api/messages.calls'
import type { Attachment } from '../../../src/crypto/attachments'
import { conversationMachine, type ConversationContext, type ConversationInput } from '../../../src/machines/conversation/conversation.machine'
import type { TrustCheck } from '../../../src/machines/conversation/conversation.trust-actors'
import { type MachineModel, valueAndContext, type Walk } from '../support/walks'

// The open conversation's model, in walks that together take every transition: the history (first page, older pages,
// refreshes), reading (auto mark-read, decrypting), sending, editing and deleting, and the keys (the check against the
// own key and the sealed record: trusted, first use, an own-key mismatch, a changed key, a changed verified key,
// acknowledging, verifying and unverifying, no key in this browser). Walked by tests/machines/conversation.test.ts and printed by
// `npm run paths -- conversation`.

export const ME = 'u-me'
export const ANN_KEY = 'pk-ann-1'
export const SAFETY = '12345 67890 12345 67890 12345 67890 12345 67890 12345 67890 12345 67890'
export const KEY_CHANGED_AT = '2026-11-27T03:00:00.000Z'

const person = (id: string, displayName: string, publicKey: string | null) => ({
  id,
  username: displayName.toLowerCase(),
  displayName,
  avatar: null,
  verified: false,
  publicKey,
})

const conversation = (annKey: string | null): Conversation => ({
  id: 'c-ann',
  participants: [person(ME, 'Me', 'pk-me'), person('u-ann', 'Ann', annKey)],
  lastMessage: null,
  lastActivity: '2026-01-01T10:00:00.000Z',
  unreadCount: 1,
  muted: false,
  archived: false,
})

const message = (id: string, senderId: string, rest: Partial<DirectMessage> = {}): DirectMessage => ({
  id,
  conversationId: 'c-ann',
  senderId,
  content: rest.deleted ? '' : `m1.iv-${id}.ct-${id}`,
  read: false,
  edited: false,
  deleted: false,
  createdAt: '2026-01-01T10:00:00.000Z',
  media: [],
  ...rest,
})

/** Newest first: Ann's unread message, then mine (read), then one of mine I deleted. */
export const firstPage = {
  messages: [message('m-theirs', 'u-ann'), message('m-mine', ME, { read: true }), message('m-gone', ME, { deleted: true })],
  nextCursor: 'older',
}
export const olderPage = { messages: [message('m-old', 'u-ann', { read: true })], nextCursor: null }
/** After a change: Ann wrote again, and edited her earlier message. */
export const freshPage = {
  messages: [message('m-new', 'u-ann'), message('m-theirs', 'u-ann', { edited: true, content: 'm1.iv-x.ct-x' })],
  nextCursor: 'older',
}
/** Ann has no public key yet (made before keys, or marked by migrate-keys). */
export const noKeyInput: ConversationInput = { userId: ME, conversation: conversation(null) }
export const sent = message('m-sent', ME)
export const edited = message('m-mine', ME, { read: true, edited: true, content: 'm1.iv-e.ct-e' })
export const openedFirst = { texts: { 'm-theirs': 'Lunch?', 'm-mine': 'Sure' }, media: {} }

/** A photo as an envelope carries it (src/crypto/attachments.ts). */
export const photo: Attachment = {
  blobId: '0190f5b2-0000-7000-8000-0000000000a1',
  key: 'A'.repeat(43),
  kind: 'image',
  mime: 'image/png',
  size: 16_370,
  width: 480,
  height: 320,
  thumb: { blobId: '0190f5b2-0000-7000-8000-0000000000a2', key: `${'B'.repeat(42)}A` },
}
/** Ann's message with a photo, and mine. */
export const openedWithPhoto = { texts: { 'm-theirs': '', 'm-mine': 'Sure' }, media: { 'm-theirs': [photo] } }
export const uploadFailed = 'Attachments must be at most 50 MB'

export const offline = new Network({ message: 'Unable to reach the server.' })
export const refusedByAnn = new Forbidden({ message: "Ann doesn't accept messages from you", fromServer: true })
export const annHasNoKey = new Invalid({ message: "Ann can't receive messages yet", fromServer: true, status: 409, details: [] })
export const tooLong = new Error('Messages can be at most 2000 characters.')
/** The first try of the same send is still running on the server: a failure to retry, not a refusal. */
export const stillSending = new Invalid({ message: IDEMPOTENCY_KEY_IN_PROGRESS, fromServer: true, status: 409, details: [] })

/** The context as the model compares it: the Idempotency-Key is random, so only whether there is one counts. */
export const modelContext = (context: ConversationContext) => ({ ...context, idempotencyKey: context.idempotencyKey !== null })

const loaded = { type: 'xstate.done.actor.loadMessages', output: firstPage }

const check = (verdict: TrustCheck['verdict'], changedAt: string | null = null): TrustCheck => ({ verdict, safetyNumber: SAFETY, changedAt })
export const checks = {
  firstUse: check({ kind: 'firstUse' }),
  trusted: check({ kind: 'trusted', verified: false }),
  verified: check({ kind: 'trusted', verified: true }),
  ownKeyMismatch: check({ kind: 'ownKeyMismatch' }),
  changed: check({ kind: 'changed', wasVerified: false }, KEY_CHANGED_AT),
  verifiedChanged: check({ kind: 'changed', wasVerified: true }, KEY_CHANGED_AT),
} satisfies Record<string, TrustCheck>
const checked = (output: TrustCheck) => ({ type: 'xstate.done.actor.checkTrust', output })

export interface ConversationWalk extends Walk {
  readonly input: ConversationInput
}

const walk = (name: string, events: AnyEventObject[], annKey: string | null = ANN_KEY): ConversationWalk => {
  const input = { userId: ME, conversation: conversation(annKey) }
  return {
    name,
    input,
    options: () => ({
      events,
      label,
      input,
      serializeState: (s) => {
        const snapshot = s as unknown as { value: unknown; context: ConversationContext }
        return valueAndContext({ value: snapshot.value, context: modelContext(snapshot.context) })
      },
      edgesOnly: 'the history (pages, refreshes, edits, deletions) and the key check are context: every order of messages and answers is its own state',
    }),
  }
}

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'xstate.done.actor.checkTrust') {
    const { verdict } = event.output as TrustCheck
    return `checkTrust done(${verdict.kind}${verdict.kind === 'changed' && verdict.wasVerified ? ', was verified' : ''}${verdict.kind === 'trusted' && verdict.verified ? ', verified' : ''})`
  }
  if (event.type.startsWith('xstate.done.actor.')) {
    const output = event.output as { id?: string } | string | undefined
    const what = typeof output === 'string' ? output.slice(0, 12) : output && 'id' in output ? output.id : Object.keys((output as object | undefined) ?? {}).join(',')
    return `${event.type.slice('xstate.done.actor.'.length)} done(${what ?? ''})`
  }
  if (event.type === 'message.input' || event.type === 'edit.input') return `${event.type}(${JSON.stringify(event.value)})`
  if (event.type === 'attachments.changed') return `attachments.changed(${event.count as number})`
  if (event.type === 'attachments.uploaded') return `attachments.uploaded(${(event.attachments as unknown[]).length})`
  if (event.type === 'message.edit' || event.type === 'message.delete') return `${event.type}(${event.id as string})`
  if (event.type === 'xstate.error.actor.encrypt' || event.type === 'xstate.error.actor.encryptEdit') return `${event.type}(too long)`
  return undefined
}

export const conversationModel = {
  name: 'conversation',
  machine: conversationMachine,
  walks: [
    walk('history', [
      loaded,
      { type: 'xstate.error.actor.loadMessages', error: offline },
      { type: 'conversation.retry' },
      { type: 'conversation.older' },
      { type: 'xstate.done.actor.loadOlder', output: olderPage },
      { type: 'xstate.error.actor.loadOlder', error: offline },
      { type: 'conversation.changed' },
      { type: 'xstate.done.actor.refresh', output: freshPage },
      { type: 'xstate.error.actor.refresh', error: offline },
    ]),
    walk('reading', [
      loaded,
      { type: 'xstate.done.actor.markRead', output: undefined },
      { type: 'xstate.error.actor.markRead', error: offline },
      { type: 'xstate.done.actor.decrypt', output: openedFirst },
      { type: 'xstate.error.actor.decrypt', error: new Error('worker died') },
    ]),
    walk('sending', [
      loaded,
      checked(checks.firstUse),
      { type: 'message.input', value: 'Hello Ann' },
      { type: 'message.input', value: '   ' },
      { type: 'message.send' },
      { type: 'xstate.done.actor.encrypt', output: 'm1.iv-s.ct-s' },
      { type: 'xstate.error.actor.encrypt', error: tooLong },
      { type: 'xstate.done.actor.sendMessage', output: sent },
      { type: 'xstate.error.actor.sendMessage', error: offline },
      { type: 'xstate.error.actor.sendMessage', error: refusedByAnn },
      { type: 'xstate.error.actor.sendMessage', error: annHasNoKey },
      { type: 'xstate.error.actor.sendMessage', error: stillSending },
    ]),
    walk('sending photos', [
      loaded,
      checked(checks.firstUse),
      { type: 'attachments.changed', count: 1 },
      { type: 'message.send' },
      { type: 'attachments.uploaded', attachments: [photo] },
      { type: 'attachments.failed', error: uploadFailed },
      { type: 'xstate.done.actor.encrypt', output: 'm2.iv-s.ct-s' },
      { type: 'xstate.done.actor.sendMessage', output: sent },
      { type: 'xstate.error.actor.sendMessage', error: offline },
    ]),
    walk('photos in the history', [
      loaded,
      checked(checks.trusted),
      { type: 'xstate.done.actor.decrypt', output: openedWithPhoto },
      { type: 'message.edit', id: 'm-mine' },
      { type: 'edit.save' },
    ]),
    walk('editing and deleting', [
      loaded,
      checked(checks.trusted),
      { type: 'xstate.done.actor.decrypt', output: openedFirst },
      { type: 'message.edit', id: 'm-mine' },
      { type: 'message.edit', id: 'm-theirs' },
      { type: 'message.edit', id: 'm-gone' },
      { type: 'message.delete', id: 'm-mine' },
      { type: 'message.delete', id: 'm-theirs' },
      { type: 'edit.input', value: 'Sure, at noon' },
      { type: 'edit.input', value: ' ' },
      { type: 'edit.save' },
      { type: 'edit.cancel' },
      { type: 'xstate.done.actor.encryptEdit', output: 'm1.iv-e.ct-e' },
      { type: 'xstate.error.actor.encryptEdit', error: tooLong },
      { type: 'xstate.done.actor.editMessage', output: edited },
      { type: 'xstate.error.actor.editMessage', error: offline },
      { type: 'xstate.done.actor.deleteMessage', output: undefined },
      { type: 'xstate.error.actor.deleteMessage', error: offline },
    ]),
    walk('own key reported differently', [loaded, checked(checks.ownKeyMismatch), { type: 'message.input', value: 'Hello Ann' }, { type: 'message.send' }]),
    walk('changed key', [
      loaded,
      checked(checks.changed),
      checked(checks.verifiedChanged),
      { type: 'message.input', value: 'Hello Ann' },
      { type: 'message.send' },
      { type: 'key.acknowledge' },
      { type: 'xstate.done.actor.acknowledgeKey', output: undefined },
      { type: 'xstate.error.actor.acknowledgeKey', error: offline },
    ]),
    walk('verifying', [
      loaded,
      checked(checks.trusted),
      checked(checks.verified),
      { type: 'key.verify' },
      { type: 'xstate.done.actor.verifyKey', output: undefined },
      { type: 'xstate.error.actor.verifyKey', error: offline },
      { type: 'key.unverify' },
      { type: 'xstate.done.actor.unverifyKey', output: undefined },
      { type: 'xstate.error.actor.unverifyKey', error: offline },
    ]),
    walk('no key in this browser', [loaded, { type: 'xstate.error.actor.checkTrust', error: new Error('Your message key is not set up in this browser.') }]),
  ],
} satisfies MachineModel<ConversationWalk>
