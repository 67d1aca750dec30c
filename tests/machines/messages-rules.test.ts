import { describe, expect, it } from 'vitest'
import type { Conversation, DirectMessage } from '../../src/api/messages.calls'
import { forgetChanged } from '../../src/machines/conversation/conversation.rules'
import { conversationPath, putOnTop, readWhileOpen } from '../../src/machines/conversations/conversations.rules'
import { unreadConversations } from '../../src/machines/lib/unread.selectors'
import { isSearchable, recipients } from '../../src/machines/new-message/new-message.rules'

// The Messages screen's pure rules: where a started conversation goes, what the badge counts, which texts are read
// again after an edit, and what the New Message search asks and offers.

const row = (id: string, rest: Partial<Conversation> = {}): Conversation => ({
  id,
  participants: [],
  lastMessage: null,
  lastActivity: '2026-01-01T10:00:00.000Z',
  unreadCount: 0,
  muted: false,
  archived: false,
  ...rest,
})
const message = (id: string, content: string): DirectMessage =>
  ({ id, conversationId: 'c', senderId: 'u', content, read: false, deleted: false, edited: false, createdAt: '2026-01-01T10:00:00.000Z' }) as DirectMessage

describe('messages rules', () => {
  it('puts a started conversation first, once', () => {
    expect(putOnTop([row('a'), row('b'), row('c')], row('b', { muted: true })).map((c) => [c.id, c.muted])).toEqual([
      ['b', true],
      ['a', false],
      ['c', false],
    ])
    expect(putOnTop([row('a')], row('n')).map((c) => c.id)).toEqual(['n', 'a'])
  })

  it("links a conversation's page, or Messages", () => {
    expect(conversationPath('c 1')).toBe('/messages/c%201')
    expect(conversationPath(null)).toBe('/messages')
  })

  it('counts unread conversations but the muted and the open one; the one left open stays read', () => {
    const list = [row('a', { unreadCount: 2 }), row('b', { unreadCount: 1, muted: true }), row('c', { unreadCount: 1 })]
    expect(unreadConversations(list)).toBe(2)
    expect(unreadConversations(list, 'a')).toBe(1)
    expect(readWhileOpen(list, 'a').map((c) => c.unreadCount)).toEqual([0, 1, 1])
    expect(readWhileOpen(list, null)).toEqual(list)
  })

  it('reads again only the messages whose ciphertext changed', () => {
    const held = [message('m1', 'ct-1'), message('m2', 'ct-2')]
    const opened = { m1: 'one', m2: 'two' }
    expect(forgetChanged(opened, held, [message('m1', 'ct-1'), message('m2', 'ct-2b'), message('m3', 'ct-3')])).toEqual({ m1: 'one' })
    expect(forgetChanged(opened, held, held)).toBe(opened)
  })

  it('searches from 2 characters and never offers the viewer', () => {
    expect(isSearchable(' b ')).toBe(false)
    expect(isSearchable('bo')).toBe(true)
    const user = (id: string) => ({ id, username: id, displayName: id, avatar: null, verified: false, bio: '', isFollowing: false })
    expect(recipients([user('me'), user('bob')], 'me').map((u) => u.id)).toEqual(['bob'])
  })
})
