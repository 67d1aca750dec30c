import type { SnapshotFrom } from 'xstate'
import type { Conversation } from '../../api/messages.calls'
import type { ConversationRef } from '../conversation/conversation.machine'
import type { ConversationsMachine } from './conversations.machine'
import { matchesSearch, otherParticipant, previewText } from './conversations.rules'
import { shownName } from '../lib/shown-name'

export { selectUnreadCount } from '../lib/unread.selectors'

// What the Messages list pane and the sidebar badge read from the conversations actor.

type Snapshot = SnapshotFrom<ConversationsMachine>

export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectFailed = (s: Snapshot) => s.matches('failed')
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectHasMore = (s: Snapshot) => s.context.nextCursor !== null
export const selectSearch = (s: Snapshot) => s.context.search
/** The open conversation's actor, for the right pane (undefined when none is open). */
export const selectOpen = (s: Snapshot) => s.children.open as ConversationRef | undefined
/** A link's conversation is being fetched (the pane shows a spinner). */
export const selectOpening = (s: Snapshot) => s.context.fetching !== null
/** The conversation a link asked for that cannot be shown: 'Conversation not found' (or failed to load). */
export const selectMissing = (s: Snapshot) => s.context.missing
/** A conversation is being started (the Message button and the modal wait). */
export const selectStarting = (s: Snapshot) => s.context.starting !== null
/** The open conversation's row (listed, or open from a link), for the pane's menu: muted or not. */
export const selectOpenRow = (s: Snapshot) =>
  s.context.openId === null ? undefined : (s.context.conversations.find((c) => c.id === s.context.openId) ?? s.context.openRow ?? undefined)

/** One row as the list shows it. */
export interface ConversationRow {
  readonly id: string
  readonly name: string
  readonly username: string
  readonly avatar: string | null
  readonly lastActivity: string
  readonly preview: string
  /** The viewer sent the last message and the other member read it (double tick; single otherwise). */
  readonly read: boolean
  /** The last message is the viewer's and still there: its row shows a read tick (a deleted one shows none). */
  readonly fromMe: boolean
  readonly unread: boolean
  readonly muted: boolean
}

function toRow(c: Conversation, me: string, s: Snapshot): ConversationRow {
  const other = otherParticipant(c, me)
  return {
    id: c.id,
    name: shownName(other),
    username: other?.username ?? '',
    avatar: other?.avatar ?? null,
    lastActivity: c.lastActivity,
    preview: previewText(c, s.context.opened),
    read: c.lastMessage?.read ?? false,
    fromMe: c.lastMessage?.senderId === me && !c.lastMessage.deleted,
    unread: c.unreadCount > 0 && c.id !== s.context.openId,
    muted: c.muted,
  }
}

/** The rows the search keeps, most recent activity first. */
export const selectRows = (s: Snapshot): ConversationRow[] =>
  s.context.conversations.filter((c) => matchesSearch(c, s.context.me, s.context.search)).map((c) => toRow(c, s.context.me, s))

/** 'No messages yet' shows when there is no conversation at all (not when the search hides them). */
export const selectEmpty = (s: Snapshot) => s.matches('ready') && s.context.conversations.length === 0
