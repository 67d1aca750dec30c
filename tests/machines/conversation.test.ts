import { describe, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { blobIdsOf, type Attachment } from '../../src/crypto/attachments'
import type { SealInput } from '../../src/machines/message-attachments/message-attachments.actors'
import { messageAttachmentsMachine } from '../../src/machines/message-attachments/message-attachments.machine'
import { conversationMachine } from '../../src/machines/conversation/conversation.machine'
import { DELETE_FAILED, EDIT_FAILED, SEND_FAILED } from '../../src/machines/conversation/conversation.rules'
import {
  MESSAGE_UNAVAILABLE,
  MESSAGE_UNDECRYPTABLE,
  MESSAGE_WAS_DELETED,
  selectBubbles,
  selectCanSend,
  selectComposerNotice,
  selectKeyChange,
  selectKeyTrusted,
  selectLoading,
  selectOwnKeyAlert,
  selectSendError,
  selectVerified,
} from '../../src/machines/conversation/conversation.selectors'
import {
  changedOn,
  CHECKING_KEYS,
  composerHeldForChange,
  COMPOSER_HELD_FOR_OWN_KEY,
  keyChanged,
  KEYS_UNAVAILABLE,
  OWN_KEY_MISMATCH,
  TRUST_SAVE_FAILED,
  UNVERIFIED_TOAST,
  VERIFIED_TOAST,
  verifiedKeyChanged,
} from '../../src/machines/conversation/conversation.trust'
import type { TrustCheck } from '../../src/machines/conversation/conversation.trust-actors'
import {
  ANN_KEY,
  annHasNoKey,
  checks,
  conversationModel,
  firstPage,
  KEY_CHANGED_AT,
  modelContext,
  noKeyInput,
  openedFirst,
  openedWithPhoto,
  photo,
  refusedByAnn,
  SAFETY,
  uploadFailed,
} from './models/conversation.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, perform } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// One open conversation. What the member sees after each step: the spinner, the bubbles (text, 'This message was
// deleted', 'Message unavailable', '(edited)', ticks), the composer (what is typed, whether Send is offered, the failure
// under it, the notice that replaces it), the key alert and the changed-key warning, the Verified mark, the toasts, and
// what was asked of the server and the crypto: never an encryption or a send unless the key check said trusted.

/** The composer's attachments child, silent: the walks send its reports (attachments.uploaded, .failed) themselves. */
const filesStub = messageAttachmentsMachine.provide({
  actors: { sealAndUpload: fromPromise<ReadonlyArray<Attachment>, SealInput>(() => new Promise(() => undefined)) },
})

describeWalks('conversation', conversationModel, async ({ walk, inspect, replay }) => {
  const calls = new Calls()
  const machine = conversationMachine.provide({
    actors: {
      loadMessages: calls.invoked(),
      sendMessage: calls.actor('sendMessage'),
      editMessage: calls.actor('editMessage'),
      deleteMessage: calls.actor('deleteMessage'),
      markRead: calls.actor('markRead'),
      open: calls.actor('decrypt'),
      encrypt: calls.invoked(),
      checkTrust: calls.actor('checkTrust'),
      saveTrust: calls.invoked(),
      messageAttachments: filesStub,
    },
  })
  const actor = withToasts(createActor(machine, { input: walk.input, inspect })).start()
  expect(calls.started).toEqual([{ id: 'loadMessages', input: { conversationId: 'c-ann', cursor: null } }])

  /** Every Idempotency-Key a send of this walk has used: a new submission must not reuse one. */
  const usedKeys = new Set<string>()
  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, {
    calls,
    context: (s) => modelContext(s.context),
  })) {
    const { context } = snapshot
    const started = calls.started.slice(startedBefore)
    const bubbles = selectBubbles(snapshot)
    const toasts = shownToasts().slice(toastsBefore)

    expect(selectLoading(snapshot)).toBe(snapshot.value === 'loading')
    // Newest at the bottom; texts never show ciphertext.
    expect(bubbles.map((b) => b.id)).toEqual([...context.messages].reverse().map((m) => m.id))
    for (const b of bubbles) {
      expect(b.text).not.toMatch(/^m1\./)
      if (b.deleted) expect(b.text).toBe(MESSAGE_WAS_DELETED)
      else if (context.opened[b.id] === null)
        expect(b.text).toBe(
          (['trusted', 'changed', 'acknowledging', 'ownKeyMismatch'] as const).some((k) => snapshot.matches({ ready: { keys: k } }))
            ? MESSAGE_UNDECRYPTABLE
            : MESSAGE_UNAVAILABLE,
        )
    }
    // Blank is refused: Send is offered only with text or files, and nothing pending.
    expect(selectCanSend(snapshot)).toBe(
      (snapshot.matches({ ready: { composer: 'idle' } }) || snapshot.matches({ ready: { composer: 'sendFailed' } })) &&
        snapshot.matches({ ready: { keys: 'trusted' } }) &&
        (context.draft.trim() !== '' || context.fileCount > 0),
    )
    // Nothing is encrypted or sent unless the key check said trusted: not while checking, never on an own-key
    // mismatch, not for a changed key before the member acknowledges it.
    if (!snapshot.matches({ ready: { keys: 'trusted' } })) {
      expect(snapshot.can({ type: 'message.send' }), 'no send is possible').toBe(false)
      expect(snapshot.can({ type: 'edit.save' }), 'no edit is possible').toBe(false)
      expect(selectCanSend(snapshot)).toBe(false)
    }
    if (!before.matches({ ready: { keys: 'trusted' } })) {
      expect(started.map((c) => c.id)).not.toContain('encrypt')
      expect(started.map((c) => c.id)).not.toContain('sendMessage')
    }
    if (event.type === 'message.send' && before.context.draft.trim() === '' && before.context.fileCount === 0) {
      expect(started, 'nothing is sent').toEqual([])
    }

    if (event.type === 'xstate.done.actor.loadMessages') expect(bubbles.map((b) => b.id)).toEqual(['m-gone', 'm-mine', 'm-theirs'])
    if (event.type === 'conversation.older') expect(started).toEqual([{ id: 'loadOlder', input: { conversationId: 'c-ann', cursor: 'older' } }])
    if (event.type === 'xstate.done.actor.loadOlder') expect(bubbles[0]?.id).toBe('m-old')
    if (event.type === 'conversation.changed' && before.matches({ ready: { history: 'idle' } })) {
      expect(started).toContainEqual({ id: 'refresh', input: { conversationId: 'c-ann', cursor: null } })
    }
    if (event.type === 'xstate.done.actor.refresh') {
      expect(bubbles.at(-1)?.id).toBe('m-new')
      expect(bubbles.find((b) => b.id === 'm-theirs')?.edited).toBe(true)
    }
    // Incoming unread messages are marked read while the conversation is open.
    if (event.type === 'xstate.done.actor.loadMessages') expect(started).toContainEqual({ id: 'markRead', input: { conversationId: 'c-ann' } })
    if (event.type === 'xstate.done.actor.refresh' && !before.matches({ ready: { reading: 'marking' } })) {
      // Ann's new message is read at once: the conversation is open.
      expect(started).toContainEqual({ id: 'markRead', input: { conversationId: 'c-ann' } })
    }
    if (event.type === 'xstate.done.actor.markRead') {
      for (const m of context.messages) if (m.senderId !== context.me && !m.deleted) expect(m.read).toBe(true)
    }
    if (event.type === 'xstate.error.actor.markRead') expect(snapshot.matches({ ready: { reading: 'idle' } }), 'not retried at once').toBe(true)
    if (event.type === 'xstate.done.actor.decrypt' && event.output === openedFirst) {
      expect(bubbles.find((b) => b.id === 'm-theirs')?.text).toBe('Lunch?')
    }
    if (snapshot.matches({ ready: { previews: 'decrypting' } }) && !before.matches({ ready: { previews: 'decrypting' } })) {
      const asked = started.find((c) => c.id === 'decrypt')?.input as Array<{ id: string; otherPublicKey: string }>
      expect(asked.length).toBeGreaterThan(0)
      for (const sealed of asked) {
        expect(sealed.otherPublicKey).toBe(ANN_KEY)
        expect(before.context.opened).not.toHaveProperty(sealed.id)
      }
    }
    // The check gets the server's idea of my key only to compare it with the one in this browser.
    if (event.type === 'xstate.done.actor.loadMessages') {
      expect(started).toContainEqual({ id: 'checkTrust', input: { me: 'u-me', contactId: 'u-ann', theirKey: ANN_KEY, reportedOwnKey: 'pk-me' } })
    }

    // One key per submission: a send after a failure (nothing changed) keeps its key and posts the same envelope and
    // files again, without encrypting or uploading anew; any other send is a new submission with a new key.
    const sealedRetry = event.type === 'message.send' && snapshot.hasTag('sending') && before.context.idempotencyKey !== null && before.context.envelope !== null
    if (event.type === 'message.send' && snapshot.hasTag('sending')) {
      if (before.context.idempotencyKey !== null) {
        expect(context.idempotencyKey).toBe(before.context.idempotencyKey)
      } else {
        expect(context.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
        expect(usedKeys.has(context.idempotencyKey ?? '')).toBe(false)
        usedKeys.add(context.idempotencyKey ?? '')
      }
    }
    if (sealedRetry) {
      expect(started).toEqual([
        {
          id: 'sendMessage',
          input: {
            conversationId: 'c-ann',
            content: before.context.envelope,
            attachmentIds: blobIdsOf(before.context.outgoing),
            idempotencyKey: before.context.idempotencyKey,
          },
        },
      ])
    }
    if (event.type === 'message.input' || (event.type === 'attachments.changed' && event.count !== before.context.fileCount)) {
      expect(context.idempotencyKey, 'a change makes the next send a new submission').toBeNull()
    }
    if (event.type.startsWith('xstate.error.actor.sendMessage') || event.type === 'xstate.error.actor.encrypt' || event.type === 'attachments.failed') {
      expect(context.idempotencyKey, 'a failed send keeps its key for the retry').toBe(before.context.idempotencyKey)
    }

    // Sending: encrypt the typed text for Ann, then send only the envelope.
    if (event.type === 'message.send' && snapshot.hasTag('sending') && before.context.fileCount === 0 && !sealedRetry) {
      expect(started).toEqual([
        { id: 'encrypt', input: { conversationId: 'c-ann', senderId: 'u-me', otherPublicKey: ANN_KEY, text: 'Hello Ann', attachments: [] } },
      ])
    }
    // With files, nothing is encrypted before the attachments child has uploaded them; then the envelope carries them.
    if (event.type === 'message.send' && snapshot.hasTag('sending') && before.context.fileCount > 0 && !sealedRetry) {
      expect(snapshot.matches({ ready: { composer: { sending: 'uploading' } } })).toBe(true)
      expect(started).toEqual([])
    }
    if (event.type === 'attachments.uploaded') {
      expect(started).toEqual([
        { id: 'encrypt', input: { conversationId: 'c-ann', senderId: 'u-me', otherPublicKey: ANN_KEY, text: '', attachments: [photo] } },
      ])
    }
    if (event.type === 'attachments.failed') {
      expect(selectSendError(snapshot)).toBe(uploadFailed)
      expect(started).toEqual([])
    }
    if (event.type === 'xstate.done.actor.encrypt') {
      const attachmentIds = before.context.outgoing.length > 0 ? [photo.blobId, photo.thumb.blobId] : []
      expect(started).toEqual([
        { id: 'sendMessage', input: { conversationId: 'c-ann', content: event.output, attachmentIds, idempotencyKey: context.idempotencyKey } },
      ])
    }
    if (event.type === 'xstate.done.actor.sendMessage') {
      expect(bubbles.at(-1)).toMatchObject({ id: 'm-sent', mine: true, text: before.context.draft })
      expect(context.draft).toBe('')
      expect(context.outgoing).toEqual([])
      expect(context.idempotencyKey, 'the next send is a new submission').toBeNull()
      if (before.context.outgoing.length > 0) expect(context.media['m-sent'], 'the photo shows in the sent bubble').toEqual([photo])
    }
    if (event.type === 'xstate.error.actor.encrypt' || (event.type === 'xstate.error.actor.sendMessage' && event.error !== refusedByAnn && event.error !== annHasNoKey)) {
      expect(selectSendError(snapshot)).toBe(SEND_FAILED)
      expect(context.draft, 'the text is kept for a retry').toBe(before.context.draft)
      expect(context.fileCount, 'and the files').toBe(before.context.fileCount)
    }
    if (event.type === 'xstate.done.actor.decrypt' && event.output === openedWithPhoto) {
      expect(context.media).toEqual({ 'm-theirs': [photo] })
    }
    if (event.type === 'xstate.error.actor.sendMessage' && (event.error === refusedByAnn || event.error === annHasNoKey)) {
      expect(selectComposerNotice(snapshot)).toBe((event.error as Error).message)
      expect(selectCanSend(snapshot)).toBe(false)
    }

    // Editing and deleting: the sender's own, non-deleted messages only.
    if (event.type === 'message.edit' || event.type === 'message.delete') {
      const target = before.context.messages.find((m) => m.id === event.id)
      const allowed = !!target && target.senderId === 'u-me' && !target.deleted && before.matches({ ready: { composer: 'idle' } })
      expect(started.length > 0 || snapshot.matches({ ready: { composer: 'editing' } })).toBe(allowed)
      if (event.type === 'message.edit' && allowed) expect(context.editing).toEqual({ id: event.id, text: before.context.opened[event.id as string] ?? '' })
      if (event.type === 'message.delete' && allowed) expect(started).toEqual([{ id: 'deleteMessage', input: { id: event.id } }])
    }
    if (event.type === 'edit.save' && snapshot.matches({ ready: { composer: 'savingEdit' } })) {
      const text = before.context.editing?.text ?? ''
      expect(text.trim()).not.toBe('')
      expect(started).toEqual([
        { id: 'encryptEdit', input: { conversationId: 'c-ann', senderId: 'u-me', otherPublicKey: ANN_KEY, text, attachments: [] } },
      ])
    }
    if (event.type === 'edit.save' && !snapshot.matches({ ready: { composer: 'savingEdit' } })) expect(started).toEqual([])
    if (event.type === 'xstate.done.actor.encryptEdit') {
      expect(started).toEqual([{ id: 'editMessage', input: { id: 'm-mine', content: 'm1.iv-e.ct-e', attachmentIds: [] } }])
    }
    if (event.type === 'xstate.done.actor.editMessage') {
      expect(bubbles.find((b) => b.id === 'm-mine')).toMatchObject({ text: before.context.editing?.text, edited: true })
      expect(context.editing).toBeNull()
    }
    if (event.type === 'xstate.done.actor.deleteMessage') {
      expect(bubbles.find((b) => b.id === 'm-mine')).toMatchObject({ deleted: true, text: MESSAGE_WAS_DELETED })
      expect(toasts).toMatchObject([{ type: 'success', message: 'Message deleted' }])
    } else if (event.type === 'xstate.error.actor.deleteMessage') {
      expect(toasts).toMatchObject([{ type: 'error', message: DELETE_FAILED }])
      expect(context.messages).toEqual(before.context.messages)
    } else if (event.type === 'xstate.error.actor.editMessage' || event.type === 'xstate.error.actor.encryptEdit') {
      expect(toasts).toMatchObject([{ type: 'error', message: EDIT_FAILED }])
      expect(context.editing, 'the edit stays open with its text').toEqual(before.context.editing)
    } else if (/^xstate\.error\.actor\.(acknowledgeKey|verifyKey|unverifyKey)$/.test(event.type)) {
      expect(toasts).toMatchObject([{ type: 'error', message: TRUST_SAVE_FAILED }])
    } else if (event.type === 'xstate.done.actor.verifyKey') {
      expect(toasts).toMatchObject([{ type: 'success', message: VERIFIED_TOAST }])
    } else if (event.type === 'xstate.done.actor.unverifyKey') {
      expect(toasts).toMatchObject([{ type: 'success', message: UNVERIFIED_TOAST }])
    } else {
      expect(toasts, 'nothing else toasts').toEqual([])
    }

    // Keys: what the check found is what the member sees.
    if (event.type === 'xstate.done.actor.checkTrust') {
      const output = event.output as TrustCheck
      expect(context.safetyNumber).toBe(SAFETY)
      expect(selectKeyTrusted(snapshot)).toBe(output.verdict.kind === 'trusted' || output.verdict.kind === 'firstUse')
      expect(selectVerified(snapshot)).toBe(output.verdict.kind === 'trusted' && output.verdict.verified)
    }
    const alert = snapshot.matches({ ready: { keys: 'ownKeyMismatch' } })
    expect(selectOwnKeyAlert(snapshot)).toBe(alert ? OWN_KEY_MISMATCH : null)
    if (alert) expect(selectComposerNotice(snapshot)).toBe(COMPOSER_HELD_FOR_OWN_KEY)
    const changed = snapshot.matches({ ready: { keys: 'changed' } }) || snapshot.matches({ ready: { keys: 'acknowledging' } })
    if (changed) {
      const when = changedOn(KEY_CHANGED_AT)
      expect(when).toBe('27 Nov 2026')
      expect(selectKeyChange(snapshot)?.text).toBe(context.wasVerified ? verifiedKeyChanged('Ann', when) : keyChanged('Ann', when))
      expect(selectComposerNotice(snapshot)).toBe(composerHeldForChange('Ann'))
    } else {
      expect(selectKeyChange(snapshot)).toBeNull()
    }
    if (event.type === 'key.acknowledge') {
      expect(started).toEqual([{ id: 'acknowledgeKey', input: { me: 'u-me', contactId: 'u-ann', contactKey: ANN_KEY, verified: false } }])
    }
    if (event.type === 'xstate.done.actor.acknowledgeKey') {
      expect(selectKeyTrusted(snapshot)).toBe(true)
      expect(selectVerified(snapshot), 'an acknowledged key is not verified').toBe(false)
      expect(selectComposerNotice(snapshot)).toBeNull()
    }
    if (event.type === 'key.verify') expect(started).toEqual([{ id: 'verifyKey', input: { me: 'u-me', contactId: 'u-ann', contactKey: ANN_KEY, verified: true } }])
    if (event.type === 'key.unverify') expect(started).toEqual([{ id: 'unverifyKey', input: { me: 'u-me', contactId: 'u-ann', contactKey: ANN_KEY, verified: false } }])
    if (event.type === 'xstate.done.actor.verifyKey') expect(selectVerified(snapshot)).toBe(true)
    if (event.type === 'xstate.done.actor.unverifyKey') expect(selectVerified(snapshot)).toBe(false)
    if (event.type === 'xstate.error.actor.checkTrust') expect(selectComposerNotice(snapshot)).toBe(KEYS_UNAVAILABLE)
    if (snapshot.matches({ ready: { keys: 'checking' } }) && snapshot.matches({ ready: { composer: 'idle' } })) {
      expect(selectComposerNotice(snapshot), 'no input until the check is done').toBe(CHECKING_KEYS)
    }
  }
  actor.stop()
}, {
  alsoCovered: (coverage) => {
    it("a member without a public key cannot be written to: the history shows, nothing is sent, the composer says why", async () => {
      const calls = new Calls()
      const machine = conversationMachine.provide({
        actors: { loadMessages: calls.invoked(), encrypt: calls.invoked(), markRead: calls.actor('markRead'), open: calls.actor('decrypt'), messageAttachments: filesStub },
      })
      const actor = createActor(machine, { input: noKeyInput, inspect: coverage.inspector }).start()
      await perform(actor, calls, { type: 'xstate.done.actor.loadMessages', output: firstPage })
      coverage.see(actor.getSnapshot())
      actor.send({ type: 'message.input', value: 'Hello' })
      actor.send({ type: 'message.send' })
      expect(actor.getSnapshot().matches({ ready: { composer: 'keysMissing', keys: 'unavailable' } })).toBe(true)
      expect(selectBubbles(actor.getSnapshot()).map((b) => b.id)).toEqual(['m-gone', 'm-mine', 'm-theirs'])
      expect(calls.started.map((c) => c.id)).not.toContain('encrypt')
      expect(calls.started.map((c) => c.id), 'no key, nothing to check').not.toContain('checkTrust')
      expect(selectComposerNotice(actor.getSnapshot())).toBe("Ann can't receive messages yet")
      expect(selectCanSend(actor.getSnapshot())).toBe(false)
      actor.stop()
    })
  },
})

describe('conversation', () => {
  it('a server that reports another key as mine gets nothing: typing and Send never encrypt nor send', async () => {
    const calls = new Calls()
    const machine = conversationMachine.provide({
      actors: {
        loadMessages: calls.invoked(),
        encrypt: calls.invoked(),
        sendMessage: calls.actor('sendMessage'),
        markRead: calls.actor('markRead'),
        open: calls.actor('decrypt'),
        messageAttachments: filesStub,
        checkTrust: calls.actor('checkTrust'),
      },
    })
    const actor = createActor(machine, { input: conversationModel.walks[0]?.input ?? noKeyInput }).start()
    await perform(actor, calls, { type: 'xstate.done.actor.loadMessages', output: firstPage })
    await perform(actor, calls, { type: 'xstate.done.actor.checkTrust', output: checks.ownKeyMismatch })
    for (const text of ['Hello', 'Are you there?']) {
      actor.send({ type: 'message.input', value: text })
      actor.send({ type: 'message.send' })
      actor.send({ type: 'key.acknowledge' })
      actor.send({ type: 'key.verify' })
    }
    expect(actor.getSnapshot().matches({ ready: { keys: 'ownKeyMismatch', composer: 'idle' } })).toBe(true)
    expect(calls.started.map((c) => c.id)).not.toContain('encrypt')
    expect(calls.started.map((c) => c.id)).not.toContain('sendMessage')
    expect(selectOwnKeyAlert(actor.getSnapshot())).toMatch(/^The server reports a different key for your account/)
    actor.stop()
  })
})
