import { readdir, readFile } from 'node:fs/promises'
import { createClient } from 'redis'

/**
 * CPU outside the Node processes, for the cost per message: the PostgreSQL backends serving the bench's database
 * and the Redis server. Both may be shared with other work on the machine: the PostgreSQL figure counts only
 * backends whose process title names the bench's database (not the WAL writer, checkpointer or other databases);
 * the Redis figure is the whole server's.
 */

// Linux's USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on every mainstream kernel build.
const TICK_MS = 10

/** User + system CPU milliseconds of the PostgreSQL backends connected to `database` (Linux /proc; 0 elsewhere). */
export async function postgresCpuMs(database: string): Promise<number> {
  let pids: string[]
  try {
    pids = (await readdir('/proc')).filter((p) => /^\d+$/.test(p))
  } catch {
    return 0
  }
  let ticks = 0
  await Promise.all(
    pids.map(async (pid) => {
      try {
        const title = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ')
        // A backend's title: "postgres: <user> <database> <client> <state>".
        if (!title.startsWith('postgres: ') || !title.split(' ').includes(database)) return
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
        // Fields after the ")" closing the command name: utime and stime are the 14th and 15th of the line.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        ticks += Number(fields[11]) + Number(fields[12])
      } catch {
        // The process ended meanwhile.
      }
    }),
  )
  return ticks * TICK_MS
}

/** Redis's own used_cpu_user + used_cpu_sys, in milliseconds (undefined if it cannot be asked). */
export async function redisCpuMs(url: string): Promise<number | undefined> {
  const client = createClient({ url })
  client.on('error', () => undefined)
  try {
    await client.connect()
    const info = await client.info('cpu')
    const read = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? Number.NaN)
    const total = (read('used_cpu_user') + read('used_cpu_sys')) * 1000
    return Number.isFinite(total) ? total : undefined
  } catch {
    return undefined
  } finally {
    await client.close().catch(() => undefined)
  }
}
