/**
 * What bench/mixed.ts sends its load process (bench/lib/mixed-load-worker.ts) and what comes back. Members are
 * numbered by their place in `members`, which is their Zipf rank as readers (0 = the most active).
 */

import type { OpenStepResult, OpenStepSettings } from './open-loop'

export interface MixedMember {
  id: string
  username: string
  token: string
}

/** Writes, each through the real API, as the reading member. */
export type WriteKind = 'post' | 'like' | 'repost' | 'follow' | 'unfollow' | 'block'

export const READ_KINDS = ['feed page 1', 'feed pages 2-4', 'post page', 'profile'] as const
export type ReadKind = (typeof READ_KINDS)[number]

export const WRITE_KINDS: readonly WriteKind[] = ['post', 'like', 'repost', 'follow', 'unfollow', 'block']

/** Every kind of request the load process times; reads and writes, then the side loops. */
export type RequestKind =
  | ReadKind
  | `write: ${WriteKind}`
  | 'freshness: post'
  | 'freshness: poll'
  | 'cold first page'
  | 'burst: post'
  | 'burst: feed page 1, 1 s after a burst post'
  | 'burst: feed page 1, otherwise'

export interface FreshnessAuthor {
  /** Index in `members`. */
  author: number
  /** Indexes in `members` of followers the readers draw often (their feeds are warm in the app's caches). */
  followers: number[]
}

export interface MixedLoadRequest {
  mode: 'mixed' | 'burst' | 'cold'
  base: string
  connections: number
  warmupSeconds: number
  durationSeconds: number
  /** PRNG seed: the caches-on and caches-off runs draw the same sequence of members and writes. */
  seed: number
  members: MixedMember[]
  /** Readers are members[0 .. readers - 1], drawn by Zipf rank with this exponent. */
  readers: number
  zipfExponent: number
  /** Probability of a write after each read (0.1: about one write per ten reads). */
  writeRatio: number
  writeWeights: Record<WriteKind, number>
  /** Members nobody may block (the freshness authors and followers, the burst account): their follows must stay. */
  protectedMembers: number[]
  /** mixed: posts by these authors, one every `freshnessIntervalMs`, polled in their followers' first feed page. */
  freshness: FreshnessAuthor[]
  freshnessIntervalMs: number
  pollIntervalMs: number
  pollTimeoutMs: number
  /** mixed: first feed pages of these members (indexes), spread over the measured time; cold: one after another. */
  cold: number[]
  /** burst: the account that posts and its followers (indexes), who read meanwhile. */
  burst?: { author: number; followers: number[]; posts: number; polled: number }
  /** How many request inputs to keep per kind, replayed later as raw SQL (bench/lib/sql-mixed.ts). */
  samples: number
}

/** Latencies in milliseconds of the measured window. */
export interface KindResult {
  kind: RequestKind
  count: number
  /** Answers other than 2xx, by status, and socket errors (status 0). */
  failures: Record<string, number>
  p50: number
  p90: number
  p99: number
  p999: number
  max: number
  mean: number
  perSecond: number
}

/** Inputs of requests the load made, for the raw-SQL replay: member index and what the request named. */
export interface RequestSamples {
  feedFirst: number[]
  feedNext: Array<{ member: number; cursor: string }>
  postPage: Array<{ member: number; postId: string }>
  profile: Array<{ member: number; username: string }>
  like: Array<{ member: number; postId: string }>
  post: number[]
}

export interface MixedLoadResult {
  kinds: KindResult[]
  /** Milliseconds from the POST's 201 to the first feed page 1 of a follower that listed the post, one per follower. */
  freshness: number[]
  /** Followers' polls that never saw the post within pollTimeoutMs. */
  freshnessMissed: number
  measuredSeconds: number
  distinctReaders: number
  sessions: number
  samples: RequestSamples
  /** The load process's own CPU over the measured window, milliseconds. */
  cpuMs: number
  firstFailure?: string
}

/**
 * The open-loop load process (bench/lib/open-load-worker.ts) lives through a whole capacity search: `setup` once,
 * then one `step` per rate tried (its pools of cursors and seen posts carry over, as the app's caches do), then `end`.
 */
export interface OpenLoadSetup {
  base: string
  /** Keep-alive sockets the arrivals are spread over; an arrival that finds them all busy waits, and the wait is timed. */
  connections: number
  seed: number
  members: MixedMember[]
  readers: number
  zipfExponent: number
  writeRatio: number
  writeWeights: Record<WriteKind, number>
  protectedMembers: number[]
  /** How many request inputs to keep per kind, replayed as the raw SQL of the mix. */
  samples: number
}

export type OpenLoadMessage = { type: 'setup'; setup: OpenLoadSetup } | { type: 'step'; step: OpenStepSettings } | { type: 'end' }

export interface OpenLoadStep extends OpenStepResult {
  /** Arrivals whose kind had nothing to act on yet (no cursor, no seen post) and asked a first feed page instead. */
  substituted: number
  /** The load process's own CPU over the step, milliseconds. */
  loadCpuMs: number
}

export interface OpenLoadEnd {
  samples: RequestSamples
}
