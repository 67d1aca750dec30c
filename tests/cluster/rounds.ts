import { describe, type Verdict } from './verdict'
import { type Member, type Op, type OpKind, type Outcome, perform, type Planner, READS, type System } from './workload'

/** A direct message the cluster acknowledged, for the socket and lost-write checks. */
export interface SentMessage {
  sender: Member
  recipient: Member
  content: string
  /** The cluster's id of the message (what the recipient's socket event carries). */
  id: string
  sentAt: number
  ackAt: number
}

/**
 * Plays the workload's rounds: every member's call at once on the cluster, then the same calls one by one, in the
 * round's order, on the oracle, comparing what must be the same (a write's status and its deterministic result).
 */
export class RoundPlayer {
  rounds = 0
  readonly counts = new Map<OpKind, number>()
  readonly latencies: number[] = []
  slowest = { ms: 0, what: '' }
  readonly sentMessages: SentMessage[] = []

  constructor(
    private readonly cluster: System,
    private readonly oracle: System,
    private readonly planner: Planner,
    private readonly verdict: Verdict,
    private readonly elapsed: () => string,
  ) {}

  async playRound(): Promise<void> {
    const ops = this.planner.round()
    this.rounds += 1
    const started = Date.now()
    const outcomes = await Promise.all(ops.map((op) => perform(this.cluster, op)))
    const ackAt = Date.now()
    const succeeded = ops.map((op, i) => this.record(op, outcomes[i] as Outcome, started, ackAt))
    for (const [i, op] of ops.entries()) {
      // A call the cluster failed is already a failure; the oracle does not get it, so a later difference says the
      // cluster ran it after all.
      if (!succeeded[i]) continue
      const mine = outcomes[i] as Outcome
      const theirs = await perform(this.oracle, op)
      this.verdict.judge(this.oracle, op, theirs)
      if (READS.has(op.kind)) continue
      if (mine.answer.status !== theirs.answer.status || mine.result !== theirs.result) {
        this.verdict.differ(
          `${describe(op)} (round ${this.rounds}): cluster ${mine.answer.status} ${mine.result} vs oracle ${theirs.answer.status} ${theirs.result}`,
        )
      }
    }
  }

  private record(op: Op, outcome: Outcome, started: number, ackAt: number): boolean {
    this.counts.set(op.kind, (this.counts.get(op.kind) ?? 0) + 1)
    this.latencies.push(outcome.answer.ms)
    if (outcome.answer.ms > this.slowest.ms) this.slowest = { ms: outcome.answer.ms, what: `${describe(op)} at ${this.elapsed()}` }
    const allowed = this.verdict.judge(this.cluster, op, outcome)
    if (outcome.answer.status >= 200 && outcome.answer.status < 300) this.planner.acknowledged(op)
    if (op.kind === 'message' && outcome.messageId) {
      this.sentMessages.push({ sender: op.actor, recipient: op.target, content: op.content, id: outcome.messageId, sentAt: started, ackAt })
    }
    return allowed
  }

  /** Rounds for `ms`, and on until `until` settles when given. */
  async playFor(ms: number, until?: Promise<unknown>): Promise<void> {
    const end = Date.now() + ms
    let done = until === undefined
    void until?.finally(() => {
      done = true
    })
    while (!done || Date.now() < end) await this.playRound()
  }
}
