import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync, openAsBlob } from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { loadPgliteSnapshot, pgliteLockFile } from '../db/client'
import { DatabaseInUseError, lockDataDir } from '../db/pglite-lock'
import {
  assertMigrationKnown,
  type BackupManifest,
  entryFolder,
  FILE_FOLDERS,
  ManifestError,
  parseManifest,
} from './manifest'
import { checkPgTool, postgresHasWrenTables, runPgTool } from './postgres-tools'
import { ArchiveFormatError, readTar } from './tar'

/**
 * `npm run restore`: with the server stopped, puts an archive's database, media and attachments back under DATA_DIR
 * (and, with DATABASE_URL, into that database). The archive is first unpacked into a folder inside DATA_DIR and every
 * file checked against the manifest; only a whole, unaltered archive reaches the target, so a truncated or damaged
 * one changes nothing. What a forced restore replaces is moved aside, not deleted. The next server start applies
 * any migration newer than the snapshot.
 */

export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RestoreRefused'
  }
}

export interface RestoreOptions {
  archive: string
  dataDir: string
  databaseUrl?: string
  pgBinDir?: string
  /** Restore over a data directory or database that already holds an instance. */
  force?: boolean
}

export interface RestoreResult {
  manifest: BackupManifest
  milliseconds: number
  /** Where a forced restore moved what it replaced under DATA_DIR (undefined when nothing was there). */
  movedAside?: string
}

const MAX_MANIFEST_BYTES = 512 * 1024 * 1024
const STAGING_PREFIX = '.restore-'

/**
 * A restore killed half-way leaves its unpacked folder behind; it was never swapped in, so it is only waste. Safe to
 * remove: on the embedded database this process holds the lock, and two restores into one DATA_DIR at once are not
 * something to support.
 */
async function removeAbandonedStaging(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir)) {
    if (name.startsWith(STAGING_PREFIX)) await rm(path.join(dataDir, name), { recursive: true, force: true })
  }
}

async function hasFiles(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.some((e) => e.isFile())
}

/** What of DATA_DIR a restore would replace. */
async function occupied(dataDir: string, embedded: boolean): Promise<string[]> {
  const found: string[] = []
  if (embedded && (await hasFiles(path.join(dataDir, 'db')))) found.push('db')
  for (const folder of FILE_FOLDERS) if (await hasFiles(path.join(dataDir, folder))) found.push(folder)
  return found
}

interface Extracted {
  manifest: BackupManifest
  /** Unpacked files by archive name, with what was read. */
  files: Map<string, { size: number; sha256: string }>
}

/** Unpacks the archive under `staging`, hashing every file; throws on anything that is not a whole Wren backup. */
async function extract(archive: string, staging: string): Promise<Extracted> {
  const files = new Map<string, { size: number; sha256: string }>()
  const input = createReadStream(archive)
  try {
    return await extractFrom(input, staging, files)
  } finally {
    input.destroy()
  }
}

async function extractFrom(
  input: ReturnType<typeof createReadStream>,
  staging: string,
  files: Map<string, { size: number; sha256: string }>,
): Promise<Extracted> {
  let manifestText: string | undefined
  for await (const entry of readTar(input)) {
    const folder = entryFolder(entry.name)
    if (!folder) throw new ArchiveFormatError(`The archive holds "${entry.name}", which no Wren backup contains`)
    if (manifestText !== undefined) {
      throw new ArchiveFormatError(`The archive holds "${entry.name}" after its manifest, which a Wren backup writes last: it was altered`)
    }
    if (files.has(entry.name)) throw new ArchiveFormatError(`The archive holds "${entry.name}" twice: it was altered`)
    if (folder === 'manifest') {
      if (entry.size > MAX_MANIFEST_BYTES) throw new ArchiveFormatError('The archive\'s manifest is implausibly large')
      const chunks: Buffer[] = []
      for await (const chunk of entry.body) chunks.push(chunk)
      manifestText = Buffer.concat(chunks).toString('utf8')
      continue
    }
    const hash = createHash('sha256')
    const file = path.join(staging, ...entry.name.split('/'))
    await mkdir(path.dirname(file), { recursive: true })
    await pipeline(
      entry.body,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk)
          yield chunk
        }
      },
      createWriteStream(file, { flags: 'wx' }),
    )
    files.set(entry.name, { size: entry.size, sha256: hash.digest('hex') })
  }
  if (manifestText === undefined) {
    // Also what an archive cut between two entries looks like: tar-stream reads it to that point without error.
    throw new ArchiveFormatError('The archive has no manifest: it is truncated, a backup that did not finish, or not a Wren backup')
  }
  return { manifest: parseManifest(manifestText), files }
}

function verify({ manifest, files }: Extracted): void {
  const listed = new Set<string>()
  for (const expected of manifest.files) {
    listed.add(expected.path)
    const got = files.get(expected.path)
    if (!got) throw new ArchiveFormatError(`The archive lacks ${expected.path}, which its manifest lists: it is damaged`)
    if (got.size !== expected.size || got.sha256 !== expected.sha256) {
      throw new ArchiveFormatError(`${expected.path} does not match its checksum in the manifest: the archive is damaged or was altered`)
    }
  }
  for (const name of files.keys()) {
    if (!listed.has(name)) throw new ArchiveFormatError(`The archive holds ${name}, which its manifest does not list: it was altered`)
  }
  if (!files.has(manifest.database.entry)) {
    throw new ArchiveFormatError('The archive holds no database snapshot: it is damaged')
  }
}

/** Moves what is there now aside (nothing is deleted) and the restored folders into place. */
async function swapIn(dataDir: string, staging: string, names: string[], replacing: string[]): Promise<string | undefined> {
  let aside: string | undefined
  if (replacing.length > 0) {
    aside = path.join(dataDir, `replaced-by-restore-${new Date().toISOString().replaceAll(':', '')}`)
    await mkdir(aside)
  }
  for (const name of names) {
    const current = path.join(dataDir, name)
    if (existsSync(current)) {
      if (aside) await rename(current, path.join(aside, name))
      else await rm(current, { recursive: true })
    }
    const restored = path.join(staging, name)
    if (existsSync(restored)) await rename(restored, current)
    else await mkdir(current)
  }
  return aside
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now()
  const archive = path.resolve(options.archive)
  if (!(await stat(archive).catch(() => undefined))?.isFile()) throw new RestoreRefused(`There is no archive at ${archive}.`)
  const embedded = !options.databaseUrl
  if (!embedded) await checkPgTool('pg_restore', options.pgBinDir)
  await mkdir(options.dataDir, { recursive: true })

  // Taken for the whole restore: no server can start on this data directory meanwhile.
  let unlock: (() => void) | undefined
  if (embedded) {
    try {
      unlock = lockDataDir(pgliteLockFile(options.dataDir), path.join(options.dataDir, 'db'))
    } catch (err) {
      if (err instanceof DatabaseInUseError) {
        throw new RestoreRefused(`${err.message.replace(/ Stop.*$/, '')} Stop the server before restoring.`)
      }
      throw err
    }
  }
  const staging = path.join(options.dataDir, `${STAGING_PREFIX}${process.pid}-${Date.now()}`)
  try {
    await removeAbandonedStaging(options.dataDir)
    const replacing = await occupied(options.dataDir, embedded)
    if (replacing.length > 0 && !options.force) {
      throw new RestoreRefused(
        `${options.dataDir} already holds an instance (${replacing.join(', ')}). Restore into an empty DATA_DIR, or ` +
          'pass --force to replace it (what is there now is moved to DATA_DIR/replaced-by-restore-<time>/).',
      )
    }
    if (options.databaseUrl && !options.force && (await postgresHasWrenTables(options.databaseUrl))) {
      throw new RestoreRefused(
        'The DATABASE_URL database already holds Wren\'s tables. Restore into a new, empty database, or pass --force ' +
          'to replace the objects the backup holds (pg_restore --clean; the current data is dropped, so back it up first).',
      )
    }
    await mkdir(staging)
    const extracted = await extract(archive, staging)
    verify(extracted)
    const { manifest } = extracted
    const archiveKind = manifest.database.kind === 'pglite' ? 'the embedded database (PGlite)' : 'PostgreSQL'
    if ((manifest.database.kind === 'pglite') !== embedded) {
      throw new RestoreRefused(
        `This backup holds ${archiveKind}, but this configuration uses ` +
          `${embedded ? 'the embedded database (DATABASE_URL is unset)' : 'PostgreSQL (DATABASE_URL is set)'}. ` +
          'Restore it with the same kind of database it was made from.',
      )
    }
    assertMigrationKnown(manifest)
    const dumpFile = path.join(staging, ...manifest.database.entry.split('/'))
    if (embedded) {
      await loadPgliteSnapshot(path.join(staging, 'db'), await openAsBlob(dumpFile, { type: 'application/gzip' }))
    } else {
      // One transaction: a dump PostgreSQL refuses part-way leaves the database as it was.
      const clean = options.force ? ['--clean', '--if-exists'] : []
      await runPgTool(
        'pg_restore',
        ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', ...clean, dumpFile],
        options.databaseUrl!,
        options.pgBinDir,
      )
    }
    const movedAside = await swapIn(
      options.dataDir,
      staging,
      embedded ? ['db', ...FILE_FOLDERS] : [...FILE_FOLDERS],
      replacing,
    )
    return { manifest, milliseconds: Math.round(performance.now() - started), movedAside }
  } catch (err) {
    if (err instanceof ManifestError) throw new RestoreRefused(err.message)
    if (err instanceof ArchiveFormatError) throw new RestoreRefused(`${err.message}. Nothing was restored.`)
    throw err
  } finally {
    await rm(staging, { recursive: true, force: true })
    unlock?.()
  }
}
