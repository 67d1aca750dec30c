import { ALLOWED, type Op, type Outcome, type System } from './workload'

/** How a call reads in a report: who did what to whom. */
export function describe(op: Op): string {
  const target = 'target' in op ? ` -> ${op.target.username}` : ''
  const post = 'post' in op ? ` on "${op.post}"` : 'parent' in op ? ` to "${op.parent}"` : ''
  return `${op.actor.username} ${op.kind}${target}${post}`
}

/**
 * What the run found wrong, in two lists: failures (a request that did not succeed, a lost write, a missed socket
 * event, a process that did not exit cleanly) and differences between the cluster and the oracle.
 */
export class Verdict {
  readonly failures: string[] = []
  readonly mismatches: string[] = []

  get passed(): boolean {
    return this.failures.length + this.mismatches.length === 0
  }

  fail(line: string): void {
    this.failures.push(line)
  }

  differ(line: string): void {
    this.mismatches.push(line)
  }

  /** Whether the answer is one the call may give (ALLOWED); records a failure if not. */
  judge(system: System, op: Op, outcome: Outcome): boolean {
    const { status, body, error } = outcome.answer
    if (ALLOWED[op.kind].includes(status)) return true
    const detail = error ?? (typeof body === 'string' ? body.slice(0, 120) : JSON.stringify(body)?.slice(0, 200))
    this.fail(`${system.label}: ${describe(op)} answered ${status}: ${detail}`)
    return false
  }

  print(limit = 40): void {
    for (const [label, lines] of [['FAILURE', this.failures], ['MISMATCH', this.mismatches]] as const) {
      for (const line of lines.slice(0, limit)) console.log(`${label} ${line}`)
      if (lines.length > limit) console.log(`${label} ... and ${lines.length - limit} more`)
    }
  }
}
