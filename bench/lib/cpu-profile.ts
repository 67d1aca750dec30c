import { writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import path from 'node:path'

/**
 * A V8 CPU profile of this process (the app under test) around one phase of a bench, through the inspector (no
 * `--cpu-prof` restart needed), written as a .cpuprofile for Chrome DevTools and summarised by where the self time
 * went: the package (node_modules/<name>), the server file, or V8's own buckets (GC, idle, program).
 */

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string }
  hitCount?: number
}

interface Profile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
}

export interface ProfileShare {
  where: string
  share: number
}

export async function profiled<T>(file: string, run: () => Promise<T>): Promise<{ result: T; summary: ProfileShare[] }> {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 500 })
  await session.post('Profiler.start')
  let result: T
  try {
    result = await run()
  } finally {
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile }
    await writeFile(file, JSON.stringify(profile))
    session.disconnect()
    summaryOf.set(file, summarise(profile))
  }
  return { result, summary: summaryOf.get(file) ?? [] }
}

const summaryOf = new Map<string, ProfileShare[]>()

function bucket(url: string, functionName: string): string {
  if (!url) return functionName || '(anonymous)'
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (modules?.[1]) return modules[1]
  if (url.startsWith('node:')) return url
  const server = /\/(server|bench|src)\/(.*)$/.exec(url)
  if (server) return `${server[1]}/${server[2]}`
  return path.basename(url)
}

function summarise(profile: Profile): ProfileShare[] {
  const totals = new Map<string, number>()
  let all = 0
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0
    if (hits === 0) continue
    const where = bucket(node.callFrame.url, node.callFrame.functionName)
    totals.set(where, (totals.get(where) ?? 0) + hits)
    all += hits
  }
  return [...totals.entries()]
    .map(([where, hits]) => ({ where, share: hits / Math.max(1, all) }))
    .sort((a, b) => b.share - a.share)
    .slice(0, 25)
}
