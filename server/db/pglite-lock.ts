import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs'

/**
 * PGlite is PostgreSQL in this process: two processes opening one data directory (a second server, or
 * `npm run admin` while the server runs) would corrupt it. An exclusive lock file holding the owner's pid prevents
 * that; a lock left by a process that no longer exists (a crash) is taken over.
 */
export class DatabaseInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(`The database in ${dir} is in use by process ${pid}. Stop that server first (or use DATABASE_URL).`)
    this.name = 'DatabaseInUseError'
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes the lock or throws DatabaseInUseError; returns the release function. */
export function lockDataDir(lockFile: string, dir: string): () => void {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockFile, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(lockFile, { force: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = Number(readFileSync(lockFile, 'utf8').trim())
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) throw new DatabaseInUseError(dir, owner)
      rmSync(lockFile, { force: true })
    }
  }
  throw new Error(`Could not lock ${lockFile}`)
}
