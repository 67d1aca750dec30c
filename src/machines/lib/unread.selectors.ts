import type { Conversation } from '../../api/messages.calls'

// The two unread counts the shell's badges show on every screen (src/views/shell/UnreadBadge.tsx), apart from the
// Messages and Notifications selectors and rules, which only their screens need: the shell (first load) does without
// them. conversations.selectors.ts and notifications.selectors.ts re-export them. The snapshots are typed by the
// context they read, so this file knows neither machine (their modules import the rules that use it).

/** Conversations with unread messages, muted ones and the open one (read as it comes in) aside. */
export function unreadConversations(conversations: ReadonlyArray<Conversation>, openId: string | null = null): number {
  return conversations.filter((c) => !c.muted && c.unreadCount > 0 && c.id !== openId).length
}

/** The badge on Messages in the sidebar and bottom bar. */
// The open conversation is read as it comes in (its actor marks it), so it raises no badge.
export const selectUnreadCount = (s: { context: { conversations: ReadonlyArray<Conversation>; openId: string | null } }) => unreadConversations(s.context.conversations, s.context.openId)

/** The unread notifications, for the Notifications badge. */
export const selectUnreadNotifications = (s: { context: { unreadCount: number } }): number => Math.max(0, s.context.unreadCount)
