import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { api, type ErrorBody, registerMember, useTestApp } from './harness'
import { Effect } from 'effect'
import { ENVELOPE_MAX_LENGTH, ENVELOPE_PATTERN, MESSAGE_MAX_LENGTH } from '../../src/api/contract/encryption'
import { decryptMessage, deriveConversationKey, encryptMessage, generateKeyPair } from '../../src/crypto'
import { MESSAGE_NOT_CIPHERTEXT } from '../../server/modules/messages/refusals'
import { fakeEnvelope, keyedMember, send, startConversation } from './e2ee-support'
import { deriveSecrets, freshKdf } from '../../src/crypto/kdf'
import { passwordWrapper, sealWithKey } from '../../src/crypto/wrap'

const t = useTestApp()

type Conversation = Schemas['Conversation']
type DirectMessage = Schemas['DirectMessage']

async function pair() {
  const a = await keyedMember(t.app, { displayName: 'Ann Sender' })
  const b = await keyedMember(t.app, { displayName: 'Bea Recipient' })
  const res = await startConversation(t.app, a.token, b.user.id)
  expect(res.statusCode).toBe(201)
  return { a, b, conversation: res.json<{ conversation: Conversation }>().conversation }
}

async function sent(token: string, conversationId: string, content = fakeEnvelope()): Promise<DirectMessage> {
  const res = await send(t.app, token, conversationId, content)
  expect(res.statusCode).toBe(201)
  return res.json<{ message: DirectMessage }>().message
}

async function list(token: string, query = ''): Promise<Schemas['ConversationsPage']> {
  const res = await api(t.app, 'GET', `/api/messages/conversations${query}`, { token })
  expect(res.statusCode).toBe(200)
  return res.json()
}

async function history(token: string, conversationId: string, query = ''): Promise<Schemas['MessagesPage']> {
  const res = await api(t.app, 'GET', `/api/messages/conversations/${conversationId}/messages${query}`, { token })
  expect(res.statusCode).toBe(200)
  return res.json()
}

const CHARSET = 'content must be base64url parts separated by dots (letters, digits, - _ and . only)'
const iv = Buffer.alloc(12, 1).toString('base64url')

/** Envelopes each wrong in one way only (src/api/contract/encryption.ts ENVELOPE_PATTERN). */
function nearMissEnvelopes(): Array<[string, string]> {
  const good = fakeEnvelope(40)
  const [, , body = ''] = good.split('.')
  return [
    ['an unknown version', good.replace(/^m1\./, 'm3.')],
    ['no version', good.slice(3)],
    ['a wrapped key', `wk1.600000.${iv}AAAAAA.${iv}.${body}`],
    ['a short IV', `m1.${iv.slice(0, 15)}.${body}`],
    ['a long IV', `m1.${iv}AAAA.${body}`],
    ['stray bits in the ciphertext', `m1.${iv}.${body.slice(0, -1)}B`],
    ['a ciphertext of 4k+1 characters', `m1.${iv}.${'A'.repeat(25)}`],
    ['a ciphertext shorter than the tag', `m1.${iv}.${'A'.repeat(20)}`],
    ['an empty ciphertext', `m1.${iv}.`],
    ['an extra part', `${good}.AAAA`],
    ['a missing part', `m1.${body}`],
    ['two dots', `m1..${iv}.${body}`],
  ]
}

const setPrivacy = (token: string, allowDMs: string) =>
  api(t.app, 'PATCH', '/api/users/settings/privacy', { token, body: { allowDMs } })

describe('starting a conversation', () => {
  it('creates one (201) with both participants and their public keys, then reopens it (200)', async () => {
    const { a, b, conversation } = await pair()
    expect(conversation.participants.map((p) => [p.id, p.publicKey])).toEqual([
      [a.user.id, a.user.publicKey],
      [b.user.id, b.user.publicKey],
    ])
    expect(conversation).toMatchObject({ lastMessage: null, unreadCount: 0, muted: false, archived: false })

    const archived = await api(t.app, 'POST', `/api/messages/conversations/${conversation.id}/archive`, {
      token: a.token,
    })
    expect(archived.json()).toEqual({ archived: true })
    // A link to an archived conversation still opens it, as the list row would.
    const one = await api(t.app, 'GET', `/api/messages/conversations/${conversation.id}`, { token: a.token })
    expect(one.statusCode).toBe(200)
    expect(one.json<{ conversation: Conversation }>().conversation).toMatchObject({ id: conversation.id, archived: true })
    const again = await startConversation(t.app, a.token, b.user.id)
    expect(again.statusCode).toBe(200)
    expect(again.json<{ conversation: Conversation }>().conversation).toMatchObject({
      id: conversation.id,
      archived: false,
    })
    // The other side starting it finds the same one.
    const fromB = await startConversation(t.app, b.token, a.user.id)
    expect(fromB.statusCode).toBe(200)
    expect(fromB.json<{ conversation: Conversation }>().conversation.id).toBe(conversation.id)
  })

  it('makes one conversation when both start it at the same moment', async () => {
    const a = await keyedMember(t.app)
    const b = await keyedMember(t.app)
    const [x, y] = await Promise.all([
      startConversation(t.app, a.token, b.user.id),
      startConversation(t.app, b.token, a.user.id),
    ])
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 201])
    expect(x.json<{ conversation: Conversation }>().conversation.id).toBe(
      y.json<{ conversation: Conversation }>().conversation.id,
    )
  })

  it('refuses oneself (400) and unknown members (404)', async () => {
    const a = await keyedMember(t.app)
    const self = await startConversation(t.app, a.token, a.user.id)
    expect(self.statusCode).toBe(400)
    expect(self.json()).toEqual({ error: 'You cannot message yourself' })
    for (const id of ['01a20879-8aa4-74da-a0dc-83c816b4c55d', 'not-a-uuid']) {
      const unknown = await startConversation(t.app, a.token, id)
      expect(unknown.statusCode).toBe(404)
      expect(unknown.json()).toEqual({ error: 'User not found' })
    }
  })

  it("follows the recipient's allowDMs: everyone, following (only people they follow), none", async () => {
    const a = await keyedMember(t.app)
    const b = await keyedMember(t.app, { displayName: 'Bo Choosy' })
    const refused = { error: "Bo Choosy doesn't accept messages from you" }

    expect((await setPrivacy(b.token, 'none')).statusCode).toBe(200)
    const none = await startConversation(t.app, a.token, b.user.id)
    expect(none.statusCode).toBe(403)
    expect(none.json()).toEqual(refused)

    await setPrivacy(b.token, 'following')
    const notFollowed = await startConversation(t.app, a.token, b.user.id)
    expect(notFollowed.statusCode).toBe(403)
    expect(notFollowed.json()).toEqual(refused)
    // A following B is not enough: B must follow A.
    await api(t.app, 'POST', `/api/users/${b.user.id}/follow`, { token: a.token })
    expect((await startConversation(t.app, a.token, b.user.id)).statusCode).toBe(403)
    await api(t.app, 'POST', `/api/users/${a.user.id}/follow`, { token: b.token })
    const followed = await startConversation(t.app, a.token, b.user.id)
    expect(followed.statusCode).toBe(201)
    const id = followed.json<{ conversation: Conversation }>().conversation.id

    // Checked again at each send: B stops following A, then turns messages off.
    await api(t.app, 'DELETE', `/api/users/${a.user.id}/follow`, { token: b.token })
    const afterUnfollow = await send(t.app, a.token, id)
    expect(afterUnfollow.statusCode).toBe(403)
    expect(afterUnfollow.json()).toEqual(refused)
    await setPrivacy(b.token, 'everyone')
    expect((await send(t.app, a.token, id)).statusCode).toBe(201)
    // B's own setting does not stop B writing to A.
    await setPrivacy(b.token, 'none')
    expect((await send(t.app, b.token, id)).statusCode).toBe(201)
  })

  it('is refused across a block either way, and a block stops sends in an existing conversation', async () => {
    const a = await keyedMember(t.app, { displayName: 'Al Blocker' })
    const b = await keyedMember(t.app, { displayName: 'Bix Blocked' })
    const started = await startConversation(t.app, a.token, b.user.id)
    const id = started.json<{ conversation: Conversation }>().conversation.id

    await api(t.app, 'POST', `/api/blocks/user/${b.user.id}`, { token: a.token })
    const byBlocked = await send(t.app, b.token, id)
    expect(byBlocked.statusCode).toBe(403)
    expect(byBlocked.json()).toEqual({ error: "Al Blocker doesn't accept messages from you" })
    const byBlocker = await send(t.app, a.token, id)
    expect(byBlocker.statusCode).toBe(403)
    expect(byBlocker.json()).toEqual({ error: "Bix Blocked doesn't accept messages from you" })
    const restart = await startConversation(t.app, b.token, a.user.id)
    expect(restart.statusCode).toBe(403)
    expect(restart.json()).toEqual({ error: "Al Blocker doesn't accept messages from you" })
    // The history stays readable for both.
    expect((await api(t.app, 'GET', `/api/messages/conversations/${id}/messages`, { token: b.token })).statusCode).toBe(200)

    await api(t.app, 'DELETE', `/api/blocks/user/${b.user.id}`, { token: a.token })
    expect((await send(t.app, b.token, id)).statusCode).toBe(201)
  })

  it('refuses edits across a block either way with the words of a send, tells nobody, and still lets the sender delete', async () => {
    const a = await keyedMember(t.app, { displayName: 'Ada Blocker' })
    const b = await keyedMember(t.app, { displayName: 'Ben Blocked' })
    const started = await startConversation(t.app, a.token, b.user.id)
    const id = started.json<{ conversation: Conversation }>().conversation.id
    const fromB = await sent(b.token, id)
    const fromA = await sent(a.token, id)
    expect((await api(t.app, 'POST', `/api/blocks/user/${b.user.id}`, { token: a.token })).statusCode).toBe(201)

    // What each member's sockets would hear while the edits are tried.
    // Unread-count pushes are left out: they are gathered over a few milliseconds, so one from the block above can
    // arrive while the edits are tried, and they say nothing about messages.
    const heard: Array<{ rooms: string[]; event: string }> = []
    t.app.services.realtime.attach({
      to: (rooms) => ({
        emit: (...sent: unknown[]) => {
          if (sent[0] !== 'notification') heard.push({ rooms: [rooms].flat(), event: String(sent[0]) })
        },
      }),
    })
    try {
      const edit = (token: string, messageId: string) =>
        api(t.app, 'PATCH', `/api/messages/messages/${messageId}`, { token, body: { content: fakeEnvelope() } })
      const byBlocked = await edit(b.token, fromB.id)
      expect(byBlocked.statusCode).toBe(403)
      expect(byBlocked.json()).toEqual({ error: "Ada Blocker doesn't accept messages from you" })
      const byBlocker = await edit(a.token, fromA.id)
      expect(byBlocker.statusCode).toBe(403)
      expect(byBlocker.json()).toEqual({ error: "Ben Blocked doesn't accept messages from you" })
      expect(heard).toEqual([])
      // Both messages read as they were sent.
      const shown = (await history(a.token, id)).messages
      expect(shown.map((m) => [m.id, m.content, m.edited])).toEqual([
        [fromA.id, fromA.content, false],
        [fromB.id, fromB.content, false],
      ])

      // Retracting stays allowed to the sender, whatever the block.
      const retracted = await api(t.app, 'DELETE', `/api/messages/messages/${fromB.id}`, { token: b.token })
      expect(retracted.statusCode).toBe(204)
      // One emit per member (each member's room is its own channel between processes).
      expect(heard.map((h) => h.event)).toEqual(['message_deleted', 'message_deleted'])
      expect(heard.flatMap((h) => h.rooms).sort()).toEqual([`user:${a.user.id}`, `user:${b.user.id}`].sort())
      const after = (await history(a.token, id)).messages.find((m) => m.id === fromB.id)
      expect(after).toMatchObject({ deleted: true, content: '' })
    } finally {
      t.app.services.realtime.detach()
    }

    // Unblocked, the sender may edit again.
    await api(t.app, 'DELETE', `/api/blocks/user/${b.user.id}`, { token: a.token })
    expect((await api(t.app, 'PATCH', `/api/messages/messages/${fromA.id}`, { token: a.token, body: { content: fakeEnvelope() } })).statusCode).toBe(200)
  })

  it('refuses an edit once the recipient no longer accepts messages from the sender, as a send is', async () => {
    const { a, b, conversation } = await pair()
    const message = await sent(a.token, conversation.id)
    expect((await setPrivacy(b.token, 'none')).statusCode).toBe(200)
    const res = await api(t.app, 'PATCH', `/api/messages/messages/${message.id}`, { token: a.token, body: { content: fakeEnvelope() } })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({ error: "Bea Recipient doesn't accept messages from you" })
  })

  it("refuses a recipient without keys (409) and a sender without keys (409)", async () => {
    const keyed = await keyedMember(t.app)
    const keyless = await registerMember(t.app, { displayName: 'Kim Keyless' })
    const toKeyless = await startConversation(t.app, keyed.token, keyless.user.id)
    expect(toKeyless.statusCode).toBe(409)
    expect(toKeyless.json()).toEqual({ error: "Kim Keyless can't receive messages yet" })
    const fromKeyless = await startConversation(t.app, keyless.token, keyed.user.id)
    expect(fromKeyless.statusCode).toBe(409)
    expect(fromKeyless.json()).toEqual({ error: 'Set up your message key first: sign in again in the browser' })
  })
})

describe('only participants', () => {
  it('may read or act: a third member gets 404 everywhere', async () => {
    const { a, conversation } = await pair()
    const message = await sent(a.token, conversation.id)
    const eve = await keyedMember(t.app)
    const c = `/api/messages/conversations/${conversation.id}`
    const attempts: Array<[string, string, unknown, string]> = [
      ['GET', c, undefined, 'Conversation not found'],
      ['GET', `${c}/messages`, undefined, 'Conversation not found'],
      ['POST', `${c}/messages`, { content: fakeEnvelope() }, 'Conversation not found'],
      ['POST', `${c}/read`, undefined, 'Conversation not found'],
      ['POST', `${c}/archive`, { archived: true }, 'Conversation not found'],
      ['POST', `${c}/mute`, { muted: true }, 'Conversation not found'],
      ['DELETE', c, undefined, 'Conversation not found'],
      ['PATCH', `/api/messages/messages/${message.id}`, { content: fakeEnvelope() }, 'Message not found'],
      ['DELETE', `/api/messages/messages/${message.id}`, undefined, 'Message not found'],
    ]
    for (const [method, url, body, error] of attempts) {
      const res = await api(t.app, method as 'GET', url, { token: eve.token, body })
      expect({ method, url, status: res.statusCode, body: res.json<ErrorBody>() }).toEqual({
        method,
        url,
        status: 404,
        body: { error },
      })
    }
    expect((await list(eve.token)).conversations).toEqual([])
    // Nothing changed for the participants.
    expect((await history(a.token, conversation.id)).messages).toEqual([message])
    // Ids that are not ids are 404 too (never a 500 from a uuid cast).
    const bogus = await api(t.app, 'GET', '/api/messages/conversations/nope/messages', { token: a.token })
    expect(bogus.statusCode).toBe(404)
  })
})

describe('messages', () => {
  it('stores and returns exactly the envelope, and refuses blank, oversized and non-envelope content', async () => {
    const { a, conversation } = await pair()
    const envelope = fakeEnvelope(200)
    const message = await sent(a.token, conversation.id, envelope)
    expect(message).toMatchObject({
      conversationId: conversation.id,
      senderId: a.user.id,
      content: envelope,
      read: false,
      edited: false,
      deleted: false,
      media: [],
    })
    const bad: Array<[unknown, string]> = [
      ['', 'content must not be empty'],
      ['   ', CHARSET],
      ['hello world', CHARSET],
      ['{"v":1,"iv":"AAAA","ct":"AAAA"}', CHARSET],
      [`m1.${iv}.${'A'.repeat(10_689)}`, 'content must be at most 10708 characters'],
      ...nearMissEnvelopes().map(([, content]): [string, string] => [content, MESSAGE_NOT_CIPHERTEXT]),
    ]
    for (const [content, error] of bad) {
      const res = await send(t.app, a.token, conversation.id, content as string)
      expect({ content: String(content).slice(0, 20), status: res.statusCode, error: res.json<ErrorBody>().error }).toEqual({
        content: String(content).slice(0, 20),
        status: 400,
        error,
      })
    }
    // The longest envelope a 2,000-character message makes (ENVELOPE_MAX_LENGTH) is accepted.
    const longest = `m1.${iv}.${'A'.repeat(10_688)}`
    expect(longest).toHaveLength(ENVELOPE_MAX_LENGTH)
    expect((await send(t.app, a.token, conversation.id, longest)).statusCode).toBe(201)
    // Edits are checked the same way.
    for (const [name, content] of nearMissEnvelopes()) {
      const res = await api(t.app, 'PATCH', `/api/messages/messages/${message.id}`, { token: a.token, body: { content } })
      expect({ name, status: res.statusCode, error: res.json<ErrorBody>().error }).toEqual({
        name,
        status: 400,
        error: MESSAGE_NOT_CIPHERTEXT,
      })
    }
  })

  it('accepts what the app itself seals (src/crypto), and the recipient opens it', async () => {
    const keysOf = (password: string) =>
      Effect.runPromise(
        deriveSecrets(password, freshKdf()).pipe(
          Effect.flatMap(passwordWrapper),
          Effect.flatMap((wrapper) => generateKeyPair(sealWithKey(wrapper))),
        ),
      )
    const [annKeys, beaKeys] = await Promise.all([keysOf('Ann-Password-1'), keysOf('Bea-Password-1')])
    const reg = (keys: typeof annKeys) => ({ publicKey: keys.publicKey, privateKey: keys.wrappedPrivateKey })
    const ann = await registerMember(t.app, reg(annKeys))
    const bea = await registerMember(t.app, reg(beaKeys))
    expect(ann.privateKey).toBe(annKeys.wrappedPrivateKey)
    const started = await startConversation(t.app, ann.token, bea.user.id)
    const conversationId = started.json<{ conversation: Conversation }>().conversation.id
    const context = { conversationId, senderId: ann.user.id }
    const annKey = await Effect.runPromise(deriveConversationKey({ publicKey: annKeys.publicKey, privateKey: annKeys.privateKey }, beaKeys.publicKey))
    const text = 'Hello Bea 👋 — sealed by the app'
    const envelope = await Effect.runPromise(encryptMessage(annKey, text, context))
    expect(envelope).toMatch(ENVELOPE_PATTERN)
    const message = await sent(ann.token, conversationId, envelope)
    const edited = await Effect.runPromise(encryptMessage(annKey, `${text} (edited)`, context))
    const res = await api(t.app, 'PATCH', `/api/messages/messages/${message.id}`, { token: ann.token, body: { content: edited } })
    expect(res.statusCode).toBe(200)

    const [received] = (await history(bea.token, conversationId)).messages
    const beaKey = await Effect.runPromise(deriveConversationKey({ publicKey: beaKeys.publicKey, privateKey: beaKeys.privateKey }, annKeys.publicKey))
    expect(await Effect.runPromise(decryptMessage(beaKey, received?.content ?? '', context))).toBe(`${text} (edited)`)
    // The longest message the app allows fits what the server accepts.
    const longest = await Effect.runPromise(encryptMessage(annKey, '😀'.repeat(MESSAGE_MAX_LENGTH), context))
    expect(longest).toHaveLength(ENVELOPE_MAX_LENGTH)
    expect((await send(t.app, ann.token, conversationId, longest)).statusCode).toBe(201)
  })

  it('pages the history newest first with keyset cursors, and the list by latest activity', async () => {
    const { a, b, conversation } = await pair()
    const ids: string[] = []
    for (let i = 0; i < 5; i += 1) ids.push((await sent(i % 2 ? b.token : a.token, conversation.id)).id)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: Schemas['MessagesPage'] = await history(a.token, conversation.id, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.messages.length).toBeLessThanOrEqual(2)
      seen.push(...page.messages.map((m) => m.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual([...ids].reverse())

    // Three conversations for `a`: the one written to last comes first.
    const c2 = (await startConversation(t.app, a.token, (await keyedMember(t.app)).user.id)).json<{ conversation: Conversation }>().conversation
    const c3 = (await startConversation(t.app, a.token, (await keyedMember(t.app)).user.id)).json<{ conversation: Conversation }>().conversation
    await sent(a.token, c2.id)
    const first = await list(a.token, '?limit=2')
    expect(first.conversations.map((c) => c.id)).toEqual([c2.id, c3.id])
    const second = await list(a.token, `?limit=2&cursor=${first.nextCursor}`)
    expect(second.conversations.map((c) => c.id)).toEqual([conversation.id])
    expect(second.nextCursor).toBeNull()
    expect(second.conversations[0]?.lastMessage).toMatchObject({ id: ids[4], senderId: a.user.id, deleted: false })
  })

  it('counts unread exactly under concurrent sends, and marking read clears only incoming ones', async () => {
    const { a, b, conversation } = await pair()
    await Promise.all([
      ...Array.from({ length: 12 }, () => send(t.app, a.token, conversation.id)),
      ...Array.from({ length: 3 }, () => send(t.app, b.token, conversation.id)),
    ])
    const unreadOf = async (token: string) => (await list(token)).conversations.find((c) => c.id === conversation.id)?.unreadCount
    expect(await unreadOf(b.token)).toBe(12)
    expect(await unreadOf(a.token)).toBe(3)

    const read = await api(t.app, 'POST', `/api/messages/conversations/${conversation.id}/read`, { token: b.token })
    expect(read.statusCode).toBe(204)
    expect(await unreadOf(b.token)).toBe(0)
    expect(await unreadOf(a.token)).toBe(3)
    const page = await history(a.token, conversation.id, '?limit=100')
    expect(page.messages.filter((m) => m.senderId === a.user.id).every((m) => m.read)).toBe(true)
    expect(page.messages.filter((m) => m.senderId === b.user.id).some((m) => m.read)).toBe(false)
  })

  it('lets only the sender edit and delete, once, and keeps a deleted message as deleted with no content', async () => {
    const { a, b, conversation } = await pair()
    const message = await sent(a.token, conversation.id)
    const url = `/api/messages/messages/${message.id}`

    const byOther = await api(t.app, 'PATCH', url, { token: b.token, body: { content: fakeEnvelope() } })
    expect(byOther.statusCode).toBe(403)
    expect(byOther.json()).toEqual({ error: 'You can only edit your own messages' })
    const deleteByOther = await api(t.app, 'DELETE', url, { token: b.token })
    expect(deleteByOther.statusCode).toBe(403)
    expect(deleteByOther.json()).toEqual({ error: 'You can only delete your own messages' })

    const envelope = fakeEnvelope()
    const edited = await api(t.app, 'PATCH', url, { token: a.token, body: { content: envelope } })
    expect(edited.statusCode).toBe(200)
    expect(edited.json<{ message: DirectMessage }>().message).toMatchObject({ id: message.id, content: envelope, edited: true })
    const blank = await api(t.app, 'PATCH', url, { token: a.token, body: { content: '' } })
    expect(blank.statusCode).toBe(400)

    expect((await api(t.app, 'DELETE', url, { token: a.token })).statusCode).toBe(204)
    const twice = await api(t.app, 'DELETE', url, { token: a.token })
    expect(twice.statusCode).toBe(403)
    expect(twice.json()).toEqual({ error: 'This message was already deleted' })
    const editDeleted = await api(t.app, 'PATCH', url, { token: a.token, body: { content: fakeEnvelope() } })
    expect(editDeleted.statusCode).toBe(403)
    expect(editDeleted.json()).toEqual({ error: 'Deleted messages cannot be edited' })

    const [shown] = (await history(b.token, conversation.id)).messages
    expect(shown).toMatchObject({ id: message.id, content: '', deleted: true })
    const row = (await list(b.token)).conversations.find((c) => c.id === conversation.id)
    expect(row?.lastMessage).toMatchObject({ id: message.id, content: '', deleted: true })
    // A deleted message no longer counts as unread.
    expect(row?.unreadCount).toBe(0)
  })
})

describe('per-member state', () => {
  it('archives for the viewer only, lists archived ones apart, and a new message brings it back for both', async () => {
    const { a, b, conversation } = await pair()
    await sent(a.token, conversation.id)
    const archive = await api(t.app, 'POST', `/api/messages/conversations/${conversation.id}/archive`, {
      token: b.token,
      body: { archived: true },
    })
    expect(archive.json()).toEqual({ archived: true })
    expect((await list(b.token)).conversations.map((c) => c.id)).not.toContain(conversation.id)
    expect((await list(b.token, '?archived=true')).conversations.map((c) => [c.id, c.archived])).toEqual([
      [conversation.id, true],
    ])
    expect((await list(a.token)).conversations.map((c) => c.id)).toContain(conversation.id)

    await sent(a.token, conversation.id)
    expect((await list(b.token, '?archived=true')).conversations).toEqual([])
    expect((await list(b.token)).conversations.find((c) => c.id === conversation.id)?.archived).toBe(false)

    const unarchive = await api(t.app, 'POST', `/api/messages/conversations/${conversation.id}/archive`, {
      token: b.token,
      body: { archived: false },
    })
    expect(unarchive.json()).toEqual({ archived: false })
  })

  it('mutes and unmutes for the viewer only', async () => {
    const { a, b, conversation } = await pair()
    const mute = (token: string, muted: boolean) =>
      api(t.app, 'POST', `/api/messages/conversations/${conversation.id}/mute`, { token, body: { muted } })
    expect((await mute(b.token, true)).json()).toEqual({ muted: true })
    expect((await list(b.token)).conversations.find((c) => c.id === conversation.id)?.muted).toBe(true)
    expect((await list(a.token)).conversations.find((c) => c.id === conversation.id)?.muted).toBe(false)
    expect((await mute(b.token, false)).json()).toEqual({ muted: false })
    expect((await list(b.token)).conversations.find((c) => c.id === conversation.id)?.muted).toBe(false)
  })

  it('"delete for me" hides the conversation and its history until a new message arrives', async () => {
    const { a, b, conversation } = await pair()
    await sent(a.token, conversation.id)
    const old = await sent(b.token, conversation.id)
    const del = await api(t.app, 'DELETE', `/api/messages/conversations/${conversation.id}`, { token: a.token })
    expect(del.statusCode).toBe(204)
    // A link to it is gone for A too; B still opens it.
    const link = await api(t.app, 'GET', `/api/messages/conversations/${conversation.id}`, { token: a.token })
    expect(link.statusCode).toBe(404)
    const forB = await api(t.app, 'GET', `/api/messages/conversations/${conversation.id}`, { token: b.token })
    expect(forB.json<{ conversation: Conversation }>().conversation.lastMessage?.id).toBe(old.id)
    expect((await list(a.token)).conversations.map((c) => c.id)).not.toContain(conversation.id)
    expect((await history(a.token, conversation.id)).messages).toEqual([])
    const oldEdit = await api(t.app, 'DELETE', `/api/messages/messages/${old.id}`, { token: a.token })
    expect(oldEdit.statusCode).toBe(404)
    // B keeps everything.
    expect((await history(b.token, conversation.id)).messages).toHaveLength(2)

    // Wait past the clear's timestamp so the new message is strictly later.
    await new Promise((resolve) => setTimeout(resolve, 5))
    const fresh = await sent(b.token, conversation.id)
    const back = (await list(a.token)).conversations.find((c) => c.id === conversation.id)
    expect(back).toMatchObject({ unreadCount: 1, lastMessage: { id: fresh.id } })
    expect((await history(a.token, conversation.id)).messages.map((m) => m.id)).toEqual([fresh.id])
  })
})

describe('blocks and sends at the same moment', () => {
  it('a send either lands before the block or is refused with 403; nothing else is stored, nothing deadlocks', async () => {
    const { a, b, conversation } = await pair()
    let landed = 0
    for (let round = 0; round < 4; round += 1) {
      const [sentNow, block] = await Promise.all([
        send(t.app, b.token, conversation.id),
        api(t.app, 'POST', `/api/blocks/user/${b.user.id}`, { token: a.token }),
      ])
      expect(block.statusCode).toBe(201)
      expect([201, 403]).toContain(sentNow.statusCode)
      if (sentNow.statusCode === 201) landed += 1
      // Blocked now: refused whatever the race did.
      expect((await send(t.app, b.token, conversation.id)).statusCode).toBe(403)
      expect((await api(t.app, 'DELETE', `/api/blocks/user/${b.user.id}`, { token: a.token })).statusCode).toBe(204)
    }
    expect((await history(a.token, conversation.id, '?limit=100')).messages).toHaveLength(landed)
  })
})
