import type { Config } from '../config'
import type { Charge, RateLimiter, Taken } from './rate-limiter'

/**
 * The per-member write limits (docs/product.md, "Limits"): which setting bounds each kind of write, and the words of
 * its refusal ("Too many posts. Try again in 12 minutes."). A service counts a write once the request has passed its
 * own checks and before anything is written, so a refused write changes nothing.
 */
const writes = {
  posts: { limit: 'postLimitPerMember', what: 'posts' },
  follows: { limit: 'followLimitPerMember', what: 'follows' },
  reactions: { limit: 'reactionLimitPerMember', what: 'likes and reposts' },
  // Poll votes: one per poll anyway, so only a member voting in poll after poll meets this (the reactions' setting).
  votes: { limit: 'reactionLimitPerMember', what: 'votes' },
  reports: { limit: 'reportLimitPerMember', what: 'reports' },
  lists: { limit: 'listWriteLimitPerMember', what: 'changes to lists and bookmarks' },
} as const satisfies Record<string, { limit: keyof Config; what: string }>

export type WriteKind = keyof typeof writes

function writeCharge(config: Config, kind: WriteKind, memberId: string): Charge {
  const { limit, what } = writes[kind]
  return { key: `writes:${kind}:${memberId}`, limit: config[limit], what }
}

/** A post's media count twice: the number of files and their bytes, each against its own limit. */
function mediaCharges(config: Config, memberId: string, sizes: readonly number[]): Charge[] {
  if (sizes.length === 0) return []
  const bytes = sizes.reduce((sum, size) => sum + size, 0)
  return [
    { key: `writes:media:${memberId}`, limit: config.mediaLimitPerMember, what: 'media uploads', points: sizes.length },
    ...(bytes > 0
      ? [{ key: `writes:media-bytes:${memberId}`, limit: config.mediaMegabytesPerMember, what: 'megabytes of media', points: bytes }]
      : []),
  ]
}

/** What services call: one line before a write, throwing TooMany (429) when the member is over a limit. */
export class WriteLimits {
  constructor(
    private readonly limits: RateLimiter,
    private readonly config: Config,
  ) {}

  /** Counts one write of `kind` by the member (and, for a post, its media's files and bytes) in one round trip. */
  count(kind: WriteKind, memberId: string, mediaSizes: readonly number[] = []): Promise<Taken> {
    return this.limits.take(writeCharge(this.config, kind, memberId), ...mediaCharges(this.config, memberId, mediaSizes))
  }

  /**
   * Counts files uploaded on their own (a message's encrypted attachments) in the same media budgets as a post's: a
   * member's uploads are bounded however they arrive.
   */
  countMedia(memberId: string, sizes: readonly number[]): Promise<Taken> {
    return this.limits.take(...mediaCharges(this.config, memberId, sizes))
  }
}
