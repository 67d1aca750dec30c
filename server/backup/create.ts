import { createHash, type Hash } from 'node:crypto'
import { createWriteStream, existsSync } from 'node:fs'
import { link, open, readdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { openPgliteAsIs, pgliteLockFile } from '../db/client'
import { DatabaseInUseError } from '../db/pglite-lock'
import { isValidKey } from '../storage/storage'
import { appVersion } from '../version'
import { controlSocketPath, requestSnapshot, type RemoteSnapshot } from './control-socket'
import {
  type BackupManifest,
  currentMigration,
  DATABASE_ENTRY,
  drizzleQuery,
  FILE_FOLDERS,
  type FileFolder,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_NAME,
  type ManifestFile,
  type MigrationMark,
  NOT_INCLUDED,
} from './manifest'
import { checkPgTool, postgresMigration, runPgTool } from './postgres-tools'
import { TarWriter } from './tar'

/**
 * `npm run backup`: one tar holding the database snapshot, DATA_DIR/media and DATA_DIR/attachments, and last the
 * manifest (versions, counts, a SHA-256 per file). Written under a temporary name beside the target and renamed when
 * whole, so a backup that stopped half-way is never taken for one.
 *
 * Files are copied in two passes around the snapshot: everything before it, then whatever appeared since. A file
 * the snapshot names was either there before (first pass) or created after the first pass, and then it is copied
 * by the second unless it was deleted in between; on the embedded database the server holds deletions back from
 * the snapshot until the archive is written, which closes that gap (docs/architecture.md, "Backups").
 */

export class BackupRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BackupRefused'
  }
}

export interface BackupOptions {
  /** The archive to write, or an existing directory to write `wren-backup-<time>.tar` into. */
  output: string
  dataDir: string
  databaseUrl?: string
  pgBinDir?: string
  /** Replace an existing archive of that name. */
  force?: boolean
}

export interface BackupResult {
  path: string
  bytes: number
  manifest: BackupManifest
  milliseconds: number
  /** How the database was read. */
  source: 'running server' | 'database files' | 'pg_dump'
}

function stamp(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '').replaceAll('-', '').replace('T', '-')
}

async function resolveOutput(output: string, force: boolean, now: Date): Promise<string> {
  const target = path.resolve(output)
  const info = await stat(target).catch(() => undefined)
  if (info?.isDirectory()) return path.join(target, `wren-backup-${stamp(now)}.tar`)
  if (info && !force) throw new BackupRefused(`${target} already exists. Choose another name, or pass --force to replace it.`)
  if (!(await stat(path.dirname(target)).catch(() => undefined))?.isDirectory()) {
    throw new BackupRefused(`The folder ${path.dirname(target)} does not exist.`)
  }
  return target
}

/** Renames the finished archive to its name; without `force`, never over a file that appeared there meanwhile. */
async function moveIntoPlace(partial: string, target: string, force: boolean): Promise<void> {
  if (force) return rename(partial, target)
  try {
    // A hard link fails if the name is taken, where a rename would silently replace that file.
    await link(partial, target)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new BackupRefused(`${target} appeared while the backup ran (another backup?). Nothing was replaced.`)
    }
    throw err
  }
  await rm(partial)
}

async function* hashed(body: AsyncIterable<Buffer | Uint8Array>, hash: Hash): AsyncGenerator<Buffer | Uint8Array> {
  for await (const chunk of body) {
    hash.update(chunk)
    yield chunk
  }
}

class ArchiveBuilder {
  readonly files: ManifestFile[] = []
  private readonly names = new Set<string>()
  readonly counts: Record<FileFolder, { files: number; bytes: number }> = {
    media: { files: 0, bytes: 0 },
    attachments: { files: 0, bytes: 0 },
  }

  constructor(private readonly tar: TarWriter) {}

  async add(name: string, size: number, body: AsyncIterable<Buffer | Uint8Array>, mtime?: number): Promise<void> {
    const hash = createHash('sha256')
    await this.tar.add(name, size, hashed(body, hash), mtime)
    this.files.push({ path: name, size, sha256: hash.digest('hex') })
    this.names.add(name)
  }

  /** Adds every stored file of DATA_DIR/<folder> not archived yet; a file deleted while listing is skipped. */
  async addFolder(dataDir: string, folder: FileFolder): Promise<void> {
    const root = path.join(dataDir, folder)
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return []
      throw err
    })
    for (const entry of entries) {
      if (!entry.isFile()) continue
      const key = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')
      // Only what the storage wrote under a key: its unfinished uploads (.partial) and strangers are not data.
      if (!isValidKey(key)) continue
      const name = `${folder}/${key}`
      if (this.names.has(name)) continue
      let handle
      try {
        handle = await open(path.join(root, ...key.split('/')), 'r')
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue
        throw err
      }
      try {
        const info = await handle.stat()
        await this.add(name, info.size, handle.createReadStream({ autoClose: false }), info.mtimeMs)
        this.counts[folder].files += 1
        this.counts[folder].bytes += info.size
      } finally {
        await handle.close()
      }
    }
  }
}

interface Snapshot {
  size: number
  body: AsyncIterable<Buffer | Uint8Array>
  migration: MigrationMark | null
  source: BackupResult['source']
  /** Ends what taking the snapshot holds (the server's hold on deletions, a temporary file, an open database). */
  done: () => Promise<void>
}

function assertPgliteThere(dataDir: string): void {
  if (!existsSync(path.join(dataDir, 'db', 'PG_VERSION'))) {
    throw new BackupRefused(`There is no embedded database in ${path.join(dataDir, 'db')}: check DATA_DIR (or set DATABASE_URL).`)
  }
}

async function pgliteSnapshot(dataDir: string): Promise<Snapshot> {
  const remote: RemoteSnapshot | undefined = await requestSnapshot(dataDir)
  if (remote) {
    const { finish } = remote
    return { size: remote.bytes, body: remote.body, migration: remote.migration, source: 'running server', done: async () => finish() }
  }
  assertPgliteThere(dataDir)
  let handle
  try {
    handle = await openPgliteAsIs(dataDir)
  } catch (err) {
    if (err instanceof DatabaseInUseError) {
      throw new BackupRefused(
        `${err.message.replace(/ Stop.*$/, '')} A running server answers backups on DATA_DIR/control.sock, but none ` +
          `answered there: if that server is older than this backup command, stop it for the backup (or restart it ` +
          `to get the channel). Lock file: ${pgliteLockFile(dataDir)}.`,
      )
    }
    throw err
  }
  try {
    const migration = await currentMigration(drizzleQuery(handle.db))
    const { data } = await handle.snapshot!()
    return {
      size: data.size,
      body: data.stream() as unknown as AsyncIterable<Uint8Array>,
      migration,
      source: 'database files',
      done: () => handle.close(),
    }
  } catch (err) {
    await handle.close()
    throw err
  }
}

async function postgresSnapshot(databaseUrl: string, file: string, pgBinDir: string | undefined): Promise<Snapshot> {
  const migration = await postgresMigration(databaseUrl)
  await runPgTool('pg_dump', ['--format=custom', '--file', file], databaseUrl, pgBinDir)
  const handle = await open(file, 'r')
  const size = (await handle.stat()).size
  return {
    size,
    body: handle.createReadStream({ autoClose: false }),
    migration,
    source: 'pg_dump',
    done: async () => {
      await handle.close()
      await rm(file, { force: true })
    },
  }
}

export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const started = performance.now()
  const now = new Date()
  const target = await resolveOutput(options.output, options.force ?? false, now)
  // What would make the backup fail is checked before any file is copied.
  if (options.databaseUrl) await checkPgTool('pg_dump', options.pgBinDir)
  else if (!existsSync(controlSocketPath(options.dataDir))) assertPgliteThere(options.dataDir)
  const partial = `${target}.partial-${process.pid}`
  const dumpFile = `${target}.pg_dump-${process.pid}`
  const kind = options.databaseUrl ? 'postgres' : 'pglite'
  const out = createWriteStream(partial, { flags: 'wx', mode: 0o600 })
  let snapshot: Snapshot | undefined
  try {
    await new Promise<void>((resolve, reject) => {
      out.once('open', () => resolve())
      out.once('error', reject)
    })
    const tar = new TarWriter(out)
    const archive = new ArchiveBuilder(tar)
    for (const folder of FILE_FOLDERS) await archive.addFolder(options.dataDir, folder)
    snapshot = options.databaseUrl
      ? await postgresSnapshot(options.databaseUrl, dumpFile, options.pgBinDir)
      : await pgliteSnapshot(options.dataDir)
    await archive.add(DATABASE_ENTRY[kind], snapshot.size, snapshot.body)
    for (const folder of FILE_FOLDERS) await archive.addFolder(options.dataDir, folder)
    const manifest: BackupManifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      appVersion,
      createdAt: now.toISOString(),
      database: { kind, entry: DATABASE_ENTRY[kind], migration: snapshot.migration },
      counts: archive.counts,
      notIncluded: NOT_INCLUDED,
      files: archive.files,
    }
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`)
    await tar.add(MANIFEST_NAME, manifestBytes.length, [manifestBytes])
    await tar.finish()
    const source = snapshot.source
    await snapshot.done()
    snapshot = undefined
    // Flushed to disk before the rename, so a crash right after cannot leave a whole-looking but empty archive.
    const handle = await open(partial, 'r+')
    await handle.sync()
    await handle.close()
    await moveIntoPlace(partial, target, options.force ?? false)
    return {
      path: target,
      bytes: (await stat(target)).size,
      manifest,
      milliseconds: Math.round(performance.now() - started),
      source,
    }
  } catch (err) {
    out.destroy()
    await snapshot?.done().catch(() => undefined)
    await rm(partial, { force: true })
    await rm(dumpFile, { force: true })
    throw err
  }
}
