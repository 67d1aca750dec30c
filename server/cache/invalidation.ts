/**
 * What one process tells the others when something cached may have changed. Messages name *what changed*, not
 * which cache entries to drop: each process knows its own caches (which timelines it holds, which followees they
 * index), so the sender need not.
 */
export type Invalidation =
  /** Sessions ended (logout, password change): their tokens must be refused at once. */
  | { kind: 'sessions-ended'; sessionIds: string[] }
  /** A member's row changed (profile, avatar, password, counters): their cached session user and author summary. */
  | { kind: 'member-changed'; userId: string }
  /**
   * A member's follows changed, or what they may see did (a block or unblock by or of them, their blocked keywords or
   * domains, their mutes): their timeline, their per-viewer flags (reply visibility) and their user row.
   */
  | { kind: 'follows-changed'; userId: string }
  /**
   * A member's account turned private or public: who may see their posts changed for everyone, wherever the posts
   * are listed (reposts bring them into non-followers' feeds): every timeline and every viewer's flags.
   */
  | { kind: 'audience-changed'; authorId: string }
  /**
   * A member posted, replied, reposted or un-reposted: their timeline and their followers'. `added` when it only added
   * an item at the top (a post, reply or repost): cached timelines then read their top again instead of going.
   */
  | { kind: 'author-activity'; authorId: string; added?: boolean }
  /** Posts' cards changed (counters, replies): reload them on next read. */
  | { kind: 'posts-changed'; postIds: string[] }
  /**
   * The author edited a post: its card, the searches and timelines that may now find or leave it out (its words, a
   * viewer's muted keywords), and the pages showing its text. `audienceChanged` when who may see it changed (a
   * narrower audience, or other members mentioned in a mentioned-only post): every list that may hold it.
   */
  | { kind: 'post-edited'; postId: string; authorId: string; audienceChanged: boolean }
  /** Posts were deleted: cards, every viewer's flags and every timeline that lists them. */
  | { kind: 'posts-deleted'; postIds: string[] }
  /** Non-public replies under these posts appeared or went: every viewer's reply count for them. */
  | { kind: 'restricted-replies-changed'; postIds: string[] }
  /** A member liked or reposted (or undid it): their flags for these posts. */
  | { kind: 'reactions-changed'; userId: string; postIds: string[] }
  /** Lists' members changed (added, removed, the list deleted, a block taking members out): their timelines. */
  | { kind: 'lists-changed'; listIds: string[] }
  /** Members' notifications changed (an item made, joined, undone, forgotten or read): their first pages. */
  | { kind: 'notifications-changed'; recipientIds: string[] }
  /**
   * A process was cut off from the others (its Redis connection was lost, or publishing hung) and messages may have
   * been missed either way: every cache drops everything it holds.
   */
  | { kind: 'everything-changed' }

export type InvalidationHandler = (message: Invalidation) => void

/**
 * Carries invalidations between processes. Publishing never applies a message locally (the sender already did,
 * synchronously, before answering its request); subscribers hear only other processes.
 */
export interface InvalidationBus {
  publish(message: Invalidation): Promise<void>
  subscribe(handler: InvalidationHandler): void
  /** Told false when the bus loses its connection and true when it is back (a bus with none never calls it). */
  onConnectionChange?(listener: (up: boolean) => void): void
  close(): Promise<void>
}

/** One process, nobody to tell: the default without REDIS_URL. */
export class LocalBus implements InvalidationBus {
  async publish(): Promise<void> {}
  subscribe(): void {}
  async close(): Promise<void> {}
}

const KINDS = new Set<Invalidation['kind']>([
  'sessions-ended',
  'member-changed',
  'follows-changed',
  'author-activity',
  'audience-changed',
  'posts-changed',
  'post-edited',
  'posts-deleted',
  'restricted-replies-changed',
  'reactions-changed',
  'lists-changed',
  'notifications-changed',
  'everything-changed',
])

/** Messages from the wire are checked for shape before anything acts on them. */
export function parseInvalidation(value: unknown): Invalidation | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const kind = (value as { kind?: unknown }).kind
  if (typeof kind !== 'string' || !KINDS.has(kind as Invalidation['kind'])) return undefined
  const fields = value as Record<string, unknown>
  const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string')
  for (const key of ['sessionIds', 'postIds', 'listIds', 'recipientIds']) if (key in fields && !strings(fields[key])) return undefined
  for (const key of ['userId', 'authorId', 'postId']) if (key in fields && typeof fields[key] !== 'string') return undefined
  for (const key of ['added', 'audienceChanged']) if (key in fields && typeof fields[key] !== 'boolean') return undefined
  return value as Invalidation
}
