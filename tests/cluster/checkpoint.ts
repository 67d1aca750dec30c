import { sleep, type WrenProcess } from './processes'
import { compareStates, readState, type State } from './state'
import type { Verdict } from './verdict'
import type { Member, System } from './workload'

export interface CheckpointSystems {
  oracle: System
  /** The cluster's tokens and ids; its state is read from each process directly, not through the balancer. */
  cluster: System
  processes: WrenProcess[]
  members: Member[]
}

/**
 * Compares every member's state on each cluster process with the oracle's, reading again until they agree or
 * `settleMs` passes (another process's cache invalidations arrive a moment after a write's answer). Differences left
 * then go to the verdict. Returns the first process's state.
 */
export async function checkpoint(
  name: string,
  { oracle, cluster, processes, members }: CheckpointSystems,
  settleMs: number,
  verdict: Verdict,
  log: (line: string) => void,
): Promise<State> {
  const expected = await readState(oracle.base, oracle, members)
  const started = Date.now()
  let problems: string[] = []
  let states: State[] = []
  let first: string[] | undefined
  do {
    states = await Promise.all(processes.map((p) => readState(p.url, cluster, members)))
    problems = states.flatMap((state, i) => compareStates(`${name}, process ${processes[i]?.options.name}`, state, expected))
    first ??= problems
    if (problems.length === 0) break
    await sleep(250)
  } while (Date.now() - started < settleMs)
  for (const problem of problems) verdict.differ(problem)
  if (first.length > 0 && problems.length === 0) {
    log(`checkpoint "${name}": at first ${first.length} differences, gone within ${settleMs} ms, e.g. ${first[0]}`)
  }
  const agreed = `every process agrees with the oracle (${Date.now() - started} ms)`
  log(`checkpoint "${name}": ${problems.length === 0 ? agreed : `${problems.length} differences`}`)
  return states[0] ?? expected
}
