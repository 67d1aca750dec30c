import { Effect } from 'effect'
import type { AnyActorRef } from 'xstate'
import type { Zippable } from 'fflate'
import { run } from '../../api/calls'
import { messageCalls } from '../../api/messages.calls'
import type { components } from '../../api/contract/schema'
import { openMessage } from '../../crypto/messages'
import { utf8 } from '../../crypto/encoding'
import { conversationKeyFor, keysAfterLoad, KeysNotReady, myKeys, type KeysRef } from '../keys/keys'

// The member's conversations, decrypted in this browser and written as messages/<who>-<id>.json for the archive
// (docs/product.md, "Exporting your data"): the server never sees them. Every conversation is read page by page
// through the same calls the Messages screen uses, archived ones included. What it holds at once: the text of all
// messages (a few MB for tens of thousands of messages), never attachments' bytes (only what each message carried).

type Conversation = components['schemas']['Conversation']
type ConversationsPage = components['schemas']['ConversationsPage']
type MessagesPage = components['schemas']['MessagesPage']

export interface ExportedMessage {
  id: string
  from: string
  sentAt: string
  /** Null when this message cannot be read here (another key, tampered) or was deleted. */
  text: string | null
  edited: boolean
  deleted: boolean
  attachments: { kind: string; name?: string }[]
}

interface System {
  get(systemId: string): AnyActorRef | undefined
}

/** Why the archive is saved without messages: the member's key is not in this browser. */
export class NoMessageKey extends Error {
  override readonly name = 'NoMessageKey'
}

async function* conversations(signal: AbortSignal): AsyncGenerator<Conversation> {
  for (const archived of [false, true]) {
    let cursor: string | null = null
    do {
      const page: ConversationsPage = await run(messageCalls.getConversations(cursor, archived), signal)
      yield* page.conversations
      cursor = page.nextCursor
    } while (cursor)
  }
}

/** A file name a person can read, and unique (the conversation's id). */
const fileOf = (other: string, id: string) => `messages/${other.replace(/[^A-Za-z0-9_-]/g, '_')}-${id}.json`

/** Every conversation as a JSON file, oldest message first. Throws NoMessageKey when the key is not here. */
export async function conversationFiles(system: System, myId: string, signal: AbortSignal): Promise<{ files: Zippable; count: number }> {
  const keys = myKeys(await keysAfterLoad(system.get('keys') as KeysRef | undefined))
  if (keys instanceof KeysNotReady) throw new NoMessageKey(keys.message)
  const files: Zippable = {}
  let count = 0
  const seen = new Set<string>()
  for await (const conversation of conversations(signal)) {
    if (seen.has(conversation.id)) continue
    seen.add(conversation.id)
    const other = conversation.participants.find((p) => p.id !== myId) ?? conversation.participants[0]
    const names = new Map(conversation.participants.map((p) => [p.id, p.username]))
    const key = other?.publicKey ? await conversationKeyFor(system, other.publicKey).catch(() => null) : null
    const messages: ExportedMessage[] = []
    let cursor: string | null = null
    do {
      const page: MessagesPage = await run(messageCalls.getMessages(conversation.id, cursor), signal)
      for (const m of page.messages) {
        const opened =
          key && !m.deleted && m.content !== ''
            ? await Effect.runPromise(openMessage(key, m.content, { conversationId: conversation.id, senderId: m.senderId })).catch(() => null)
            : null
        messages.push({
          id: m.id,
          from: names.get(m.senderId) ?? m.senderId,
          sentAt: m.createdAt,
          text: opened?.text ?? null,
          edited: m.edited,
          deleted: m.deleted,
          attachments: (opened?.attachments ?? []).map((a) => ({ kind: a.kind, ...('name' in a && typeof a.name === 'string' ? { name: a.name } : {}) })),
        })
      }
      cursor = page.nextCursor
    } while (cursor)
    messages.reverse()
    const body = {
      conversation: conversation.id,
      with: conversation.participants.filter((p) => p.id !== myId).map((p) => p.username),
      messages,
    }
    files[fileOf(other?.username ?? 'conversation', conversation.id)] = utf8(`${JSON.stringify(body, null, 1)}\n`)
    count += 1
  }
  return { files, count }
}
