import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import { describe, expect, it } from 'vitest'
import { selectRows } from '../../server/db/rows'
import type { Schemas } from '../../server/http/handler-types'
import { decrypt, encrypt, makeKeys, send, startConversation } from './e2ee-support'
import { api, type AuthResponse, registerMember, useTestApp, loginBody } from './harness'

/**
 * The server never receives, stores, logs or returns plaintext (docs/security.md). The client here does what the
 * browser does (tests/api/e2ee-support.ts) with known markers, then every table and the whole server log (at trace
 * level) are searched for them. Each search is first shown to find something it should find, so an empty dump or a
 * silent log cannot pass for a clean one.
 */

const logLines: string[] = []
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(chunk.toString('utf8'))
    done()
  },
})

const t = useTestApp({
  config: { logLevel: 'trace' },
  logger: { level: 'trace', stream: logStream },
  // A route outside /api whose query fails, to see what the error handler logs of a failed statement's values.
  beforeRoutes: (app) =>
    app.get('/test-only/failing-query', async () => {
      throw new DrizzleQueryError('insert into messages (content) values ($1)', [`${MARKER}-param`], new Error('boom'))
    }),
})

const MARKER = `wren-plaintext-marker-${Date.now()}`
const EDITED = `${MARKER} edited, with words and ünïcode`
const REPLY = `${MARKER} reply`

async function everyRowAsText(): Promise<string> {
  const db = t.database.handle.db
  const tables = await selectRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
  )
  expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(['messages', 'conversations', 'users']))
  const dumps: string[] = []
  for (const { name } of tables) {
    const rows = await selectRows<{ row: string }>(db, sql`select t::text as row from ${sql.identifier(name)} t`)
    dumps.push(`${name}: ${rows.map((r) => r.row).join('\n')}`)
  }
  return dumps.join('\n')
}

/** The last part of an `m1.` envelope or a `wk1.` wrapped key: the ciphertext itself. */
const ciphertextOf = (text: string) => text.split('.').at(-1) ?? text

describe('plaintext never reaches the server', () => {
  it('stores and relays only the envelopes, and no table or log line holds the text', async () => {
    const aliceKeys = await makeKeys('Alice-Password-1')
    const bobKeys = await makeKeys('Bob-Password-1')
    const alice = await registerMember(t.app, { password: 'Alice-Password-1', ...pick(aliceKeys) })
    const bob = await registerMember(t.app, { password: 'Bob-Password-1', ...pick(bobKeys) })

    const started = await startConversation(t.app, alice.token, bob.user.id)
    const conversation = started.json<Schemas['ConversationResponse']>().conversation
    const bobPublic = conversation.participants.find((p) => p.id === bob.user.id)?.publicKey ?? ''
    expect(bobPublic).toBe(bobKeys.publicKey)

    const envelope = await encrypt(MARKER, aliceKeys.keyPair.privateKey, bobPublic)
    const sent = await send(t.app, alice.token, conversation.id, envelope)
    expect(sent.statusCode).toBe(201)
    const message = sent.json<Schemas['DirectMessageResponse']>().message
    expect(message.content).toBe(envelope)

    const editedEnvelope = await encrypt(EDITED, aliceKeys.keyPair.privateKey, bobPublic)
    const edit = await api(t.app, 'PATCH', `/api/messages/messages/${message.id}`, {
      token: alice.token,
      body: { content: editedEnvelope },
    })
    expect(edit.json<Schemas['DirectMessageResponse']>().message.content).toBe(editedEnvelope)
    const replyEnvelope = await encrypt(REPLY, bobKeys.keyPair.privateKey, aliceKeys.publicKey)
    expect((await send(t.app, bob.token, conversation.id, replyEnvelope)).statusCode).toBe(201)

    // A client bug sending text is refused, and the refusal does not echo it.
    const plain = await send(t.app, alice.token, conversation.id, `${MARKER} sent as text by mistake`)
    expect(plain.statusCode).toBe(400)
    expect(plain.body).not.toContain(MARKER)

    // Bob, signing in fresh, unwraps nothing on the server: he reads the envelopes and decrypts them himself.
    const bobAgain = (await api(t.app, 'POST', '/api/auth/login', {
      body: loginBody(bob.user.username, 'Bob-Password-1'),
    })).json<AuthResponse>()
    const pageRes = await api(t.app, 'GET', `/api/messages/conversations/${conversation.id}/messages`, {
      token: bobAgain.token,
    })
    const page = pageRes.json<Schemas['MessagesPage']>()
    expect(page.messages.map((m) => m.content)).toEqual([replyEnvelope, editedEnvelope])
    expect(await decrypt(editedEnvelope, bobKeys.keyPair.privateKey, aliceKeys.publicKey)).toBe(EDITED)
    expect(await decrypt(replyEnvelope, aliceKeys.keyPair.privateKey, bobKeys.publicKey)).toBe(REPLY)
    const listRes = await api(t.app, 'GET', '/api/messages/conversations', { token: alice.token })
    expect(listRes.json<Schemas['ConversationsPage']>().conversations[0]?.lastMessage?.content).toBe(replyEnvelope)
    for (const body of [started.body, sent.body, edit.body, pageRes.body, listRes.body]) expect(body).not.toContain(MARKER)

    // Exactly the envelope is stored.
    const [stored] = await selectRows<{ content: string }>(
      t.database.handle.db,
      sql`select content from messages where id = ${message.id}`,
    )
    expect(stored?.content).toBe(editedEnvelope)

    // Every table: the dump holds the members and the ciphertext, never the text.
    const dump = await everyRowAsText()
    expect(dump).toContain(alice.user.username)
    expect(dump).toContain(ciphertextOf(replyEnvelope))
    expect(dump).not.toContain(MARKER)

    // The log: it saw these requests, never their bodies (neither text nor ciphertext), nor a failed query's values.
    expect((await t.app.inject({ method: 'GET', url: '/test-only/failing-query' })).statusCode).toBe(500)
    const log = logLines.join('')
    expect(log).toContain(`/api/messages/conversations/${conversation.id}/messages`)
    expect(log).toContain('insert into messages (content) values ($1)')
    expect(log).not.toContain(MARKER)
    expect(log).not.toContain(ciphertextOf(envelope))
    expect(log).not.toContain(ciphertextOf(aliceKeys.privateKey))
  })
})

function pick(keys: { publicKey: string; privateKey: string }) {
  return { publicKey: keys.publicKey, privateKey: keys.privateKey }
}
