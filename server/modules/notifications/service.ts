import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import { isUuid } from '../../db/ids'
import type { UserRow } from '../../db/schema'
import type { SqlExecutor } from '../../db/rows'
import type { Schemas } from '../../http/handler-types'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { NotFound } from '../../lib/domain-errors'
import type { RealtimeEvents } from '../../realtime/events'
import type { NotificationFirstPages } from './first-pages'
import { UnreadPushes } from './unread-pushes'
import {
  addToItem,
  type Happening,
  markAllRead,
  markRead,
  type NotificationFilter,
  notificationPageAndCount,
  type NotificationRow,
  removeActorFor,
  recordHappenings,
  setTurnedOff,
  turnedOff,
  unreadCount,
  withdrawHappenings,
} from './queries'

export const NOTIFICATION_NOT_FOUND = 'Notification not found'


type Notification = Schemas['Notification']
type ReportStatus = Schemas['ReportStatus']
type Preferences = Schemas['NotificationPreferences']
const PREFERENCES = ['like', 'repost', 'reply', 'mention', 'follow', 'quote'] as const

export interface NotificationDeps {
  db: Database
  realtime: RealtimeEvents
  invalidations: Invalidations
  /** Recipients' first pages in memory (empty with the other caches off). */
  notificationPages: NotificationFirstPages
  warn: (message: string, err: unknown) => void
}

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    type: row.kind,
    read: row.read,
    createdAt: new Date(row.updated_at as string).toISOString(),
    from: {
      id: row.actor_id,
      username: row.actor_username,
      displayName: row.actor_display_name,
      avatar: row.actor_avatar,
      verified: row.actor_verified,
    },
    othersCount: row.actor_count - 1,
    post: row.post_id === null ? null : { id: row.post_id, content: row.post_content ?? '' },
    ...(row.report_id !== null && row.report_status !== null
      ? { report: { id: row.report_id, status: row.report_status as ReportStatus } }
      : {}),
  }
}

/**
 * Notifications (docs/product.md, "Notifications"). Other services tell it what happened inside their own
 * transactions (`record`, `withdraw`, `forget`), so an item appears or goes with the like, reply or follow that made
 * it and counts stay exact; once their transaction has committed they call `announce`, which pushes each recipient's
 * new unread count to their sockets.
 */
export class NotificationService {
  private readonly db: Database
  private readonly realtime: RealtimeEvents
  private readonly invalidations: Invalidations
  private readonly firstPages: NotificationFirstPages
  private readonly unreadPushes: UnreadPushes

  constructor(deps: NotificationDeps) {
    this.db = deps.db
    this.realtime = deps.realtime
    this.invalidations = deps.invalidations
    this.firstPages = deps.notificationPages
    this.unreadPushes = new UnreadPushes({
      count: (id) => unreadCount(this.db, id),
      push: (id, count) => this.realtime.toMembers([id], 'notification', { unreadCount: count }),
      warn: deps.warn,
    })
  }

  /**
   * In the caller's transaction: the happenings each recipient wants to hear of become (or join) items. The rules are
   * read once per recipient and kind for all its actors, and the items are written together with all their new
   * actors (queries.ts, `addActorsToItems`), however many.
   */
  record(tx: SqlExecutor, happenings: readonly Happening[]): Promise<string[]> {
    return recordHappenings(tx, happenings)
  }

  /**
   * In the caller's transaction: news about the member's own account or post (their data export is ready, their poll
   * has ended). Nobody else did it, so none of the rules between two members apply and no preference turns it off;
   * one item per kind (and post), made unread and brought to the top again each time.
   */
  async recordOwn(tx: SqlExecutor, kind: 'export_ready' | 'poll_closed', recipientId: string, postId: string | null = null): Promise<string[]> {
    await addToItem(tx, { kind, recipientId, actorId: recipientId, postId })
    return [recipientId]
  }

  /** In the caller's transaction: undone (unlike, un-repost, unfollow, a withdrawn or declined request). */
  withdraw(tx: SqlExecutor, happenings: readonly Happening[]): Promise<string[]> {
    return withdrawHappenings(tx, happenings)
  }

  /** In the caller's transaction: a block (both ways) or a mute (the muter's items) takes the member's doings out. */
  async forget(tx: SqlExecutor, recipientId: string, actorId: string): Promise<void> {
    await removeActorFor(tx, recipientId, actorId)
  }

  /**
   * After commit: every process drops the recipients' cached first pages before the write answers, so nothing stays
   * cached past it; then each recipient's sockets hear their new unread count (a hint; the list is read over HTTP),
   * gathered per member over a few milliseconds (unread-pushes.ts) and not awaited by the write.
   */
  async announce(recipientIds: readonly string[]): Promise<void> {
    const recipients = [...new Set(recipientIds)]
    if (recipients.length === 0) return
    await this.invalidations.emit({ kind: 'notifications-changed', recipientIds: recipients })
    this.unreadPushes.schedule(recipients)
  }

  /** On shutdown, before the database closes: the pushes still pending go out. */
  close(): Promise<void> {
    return this.unreadPushes.close()
  }

  async list(viewer: UserRow, filter: NotificationFilter, page: PageRequest): Promise<Schemas['NotificationsPage']> {
    if (page.cursor === undefined && page.offset === 0) {
      return this.firstPages.get(viewer.id, filter, page.limit, () => this.read(viewer, filter, page))
    }
    return this.read(viewer, filter, page)
  }

  private async read(viewer: UserRow, filter: NotificationFilter, page: PageRequest): Promise<Schemas['NotificationsPage']> {
    const { rows, unread } = await notificationPageAndCount(this.db, viewer.id, filter, page.cursor, page.offset, page.limit + 1)
    const { items, nextCursor } = keysetPage(rows, page.limit, toNotification)
    return { notifications: items, unreadCount: unread, nextCursor }
  }

  async markRead(viewer: UserRow, id: string): Promise<void> {
    if (!isUuid(id) || !(await markRead(this.db, viewer.id, id))) throw new NotFound(NOTIFICATION_NOT_FOUND)
    await this.announce([viewer.id])
  }

  async markAllRead(viewer: UserRow): Promise<void> {
    await markAllRead(this.db, viewer.id)
    await this.announce([viewer.id])
  }

  async preferences(viewer: UserRow): Promise<Preferences> {
    const off = new Set(await turnedOff(this.db, viewer.id))
    return Object.fromEntries(PREFERENCES.map((kind) => [kind, !off.has(kind)])) as Preferences
  }

  async updatePreferences(viewer: UserRow, changes: Partial<Preferences>): Promise<Preferences> {
    const now = await this.preferences(viewer)
    const next = { ...now, ...changes }
    await setTurnedOff(
      this.db,
      viewer.id,
      PREFERENCES.filter((kind) => !next[kind]),
    )
    return next
  }
}
