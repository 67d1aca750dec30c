import { describe, expect, it } from 'vitest'
import { Effect } from 'effect'
import { createActor, toPromise } from 'xstate'
import { encryptMessage } from '../../src/crypto'
import type { Attachment } from '../../src/crypto/attachments'
import { messageCryptoActors, noConversationKey, type SealedMessage } from '../../src/machines/conversations/message-crypto'

// The crypto seam of the conversation actors, over real WebCrypto: with a conversation key, envelopes open and a
// tampered one is null (never a failure that hides the rest); without one (the keys actor not wired), nothing opens and
// nothing can be encrypted, so no text is ever sent in the clear.

const context = { conversationId: 'c-1', senderId: 'u-ann' }
const newKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
const sealed = (id: string, content: string): SealedMessage => ({ id, ...context, content, otherPublicKey: 'pk-ann' })

async function runLogic<T>(logic: Parameters<typeof createActor>[0], input: unknown): Promise<T> {
  return (await toPromise(createActor(logic, { input }).start())) as T
}

describe('message crypto actors', () => {
  it('decrypts what was encrypted for the conversation; a tampered envelope is null, the others still open', async () => {
    const key = await newKey()
    const actors = messageCryptoActors(() => Promise.resolve(key))
    const envelope = await Effect.runPromise(encryptMessage(key, 'See you at noon', context))
    const tampered = `${envelope.slice(0, -2)}AA`
    const opened = await runLogic(actors.decrypt, [sealed('m1', envelope), sealed('m2', tampered)])
    expect(opened).toEqual({ m1: 'See you at noon', m2: null })
  })

  it('encrypts to an envelope that is not the text and that decrypts back', async () => {
    const key = await newKey()
    const actors = messageCryptoActors(() => Promise.resolve(key))
    const envelope = await runLogic<string>(actors.encrypt, { ...context, otherPublicKey: 'pk-ann', text: 'Hello Ann' })
    expect(envelope).not.toContain('Hello')
    expect(await runLogic(actors.decrypt, [sealed('m1', envelope)])).toEqual({ m1: 'Hello Ann' })
  })

  it('seals photos into an m2 envelope: the conversation opens text and photos, the list previews what it carries', async () => {
    const key = await newKey()
    const actors = messageCryptoActors(() => Promise.resolve(key))
    const photo: Attachment = {
      blobId: '0190f5b2-0000-7000-8000-0000000000a1',
      key: 'A'.repeat(43),
      kind: 'image',
      mime: 'image/png',
      size: 2048,
      width: 480,
      height: 320,
      thumb: { blobId: '0190f5b2-0000-7000-8000-0000000000a2', key: `${'B'.repeat(42)}A` },
    }
    const seal = (text: string, attachments: Attachment[] = [photo]) =>
      runLogic<string>(actors.encrypt, { ...context, otherPublicKey: 'pk-ann', text, attachments })
    const captioned = await seal('Look')
    const bare = await seal('')
    const two = await seal('', [photo, { ...photo, kind: 'video', mime: 'video/mp4' }])
    expect(captioned).toMatch(/^m2\./)
    expect(await runLogic(actors.open, [sealed('m1', captioned), sealed('m2', bare)])).toEqual({
      texts: { m1: 'Look', m2: '' },
      media: { m1: [photo], m2: [photo] },
    })
    expect(await runLogic(actors.decrypt, [sealed('m1', captioned), sealed('m2', bare), sealed('m3', two)])).toEqual({
      m1: 'Look',
      m2: 'Photo',
      m3: '2 photos and videos',
    })
  })

  it('without a conversation key nothing opens and nothing is encrypted', async () => {
    const actors = messageCryptoActors(noConversationKey)
    expect(await runLogic(actors.decrypt, [sealed('m1', 'm1.a.b')])).toEqual({ m1: null })
    await expect(runLogic(actors.encrypt, { ...context, otherPublicKey: 'pk-ann', text: 'Hello' })).rejects.toMatchObject({
      _tag: 'CryptoUnavailable',
    })
  })
})
