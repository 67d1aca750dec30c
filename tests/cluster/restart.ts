import type { Balancer } from './haproxy'
import type { WrenProcess } from './processes'

export interface RestartReport {
  name: string
  /** SIGTERM until HAProxy marked the process down. */
  downSeenMs: number
  /** SIGTERM until the process exited (draining). */
  drainMs: number
  exitCode: number | null
  /** The new process's start until it answered its readiness check. */
  startMs: number
  /** That until HAProxy sent it traffic again. */
  upSeenMs: number
}

/** One process after the other: SIGTERM, wait for it to go, start it again, wait until HAProxy sees it up. */
export async function rollingRestart(balancer: Balancer, processes: WrenProcess[]): Promise<RestartReport[]> {
  const reports: RestartReport[] = []
  for (const process of processes) {
    const name = process.options.name
    const stopped = Date.now()
    const [downSeenMs, exitCode] = await Promise.all([
      balancer.waitFor(name, 'DOWN'),
      process.stop(),
    ])
    const drainMs = Date.now() - stopped
    const starting = Date.now()
    await process.start()
    const startMs = Date.now() - starting
    const upSeenMs = await balancer.waitFor(name, 'UP')
    reports.push({ name, downSeenMs, drainMs, exitCode, startMs, upSeenMs })
  }
  return reports
}
