import { readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { type Database, type DatabaseKind, migrationsFolder } from '../db/client'
import { selectRows } from '../db/rows'
import { isValidKey } from '../storage/storage'

/**
 * What a backup archive holds, written as its last entry (`manifest.json`): only an archive written to the end has
 * one, and restore checks every file against it before anything in the target is touched.
 */

export const FORMAT = 'wren-backup'
export const FORMAT_VERSION = 1
export const MANIFEST_NAME = 'manifest.json'
/** The database's entry, by kind: PGlite's data directory as a gzipped tar, or a pg_dump custom-format dump. */
export const DATABASE_ENTRY: Record<DatabaseKind, string> = {
  pglite: 'database/pglite-datadir.tar.gz',
  postgres: 'database/postgres.dump',
}
/** The DATA_DIR folders an archive carries; exports (re-made on request) and the mail outbox are left out. */
export const FILE_FOLDERS = ['media', 'attachments'] as const
export type FileFolder = (typeof FILE_FOLDERS)[number]
export const NOT_INCLUDED = ['exports', 'outbox'] as const

export interface MigrationMark {
  /** The last applied migration's file name (`0029_exports`), or null when this code does not know it. */
  tag: string | null
  /** drizzle's `created_at` of that migration (the journal's `when`). */
  when: number
}

export interface ManifestFile {
  path: string
  size: number
  sha256: string
}

export interface BackupManifest {
  format: typeof FORMAT
  formatVersion: number
  appVersion: string
  createdAt: string
  database: { kind: DatabaseKind; entry: string; migration: MigrationMark | null }
  counts: Record<FileFolder, { files: number; bytes: number }>
  notIncluded: readonly string[]
  files: ManifestFile[]
}

export class ManifestError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ManifestError'
  }
}

interface JournalEntry {
  tag: string
  when: number
}

/** The migrations this code ships, oldest first. */
export function knownMigrations(): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[]
  }
  return journal.entries
}

type Query = (text: string) => Promise<Record<string, unknown>[]>

/** Runs migration queries through drizzle (the server, PGlite) or a plain pg client (pg_dump's side). */
export const drizzleQuery =
  (db: Database): Query =>
  (text) =>
    selectRows<Record<string, unknown>>(db, sql.raw(text))

/** The last migration applied to a database (drizzle's own table), or null for a database never migrated. */
export async function currentMigration(query: Query): Promise<MigrationMark | null> {
  const [present] = await query(`select to_regclass('drizzle.__drizzle_migrations')::text as found`)
  if (!present?.found) return null
  const [row] = await query('select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1')
  if (!row) return null
  const when = Number(row.created_at)
  return { tag: knownMigrations().find((m) => m.when === when)?.tag ?? null, when }
}

/**
 * Whether an archive entry's name is one this format writes: the manifest, the database entry, or a storage key
 * under media/ or attachments/ (the storage's own key rule, so no name can climb out of the target directory).
 */
export function entryFolder(name: string): FileFolder | 'database' | 'manifest' | undefined {
  if (name === MANIFEST_NAME) return 'manifest'
  if (Object.values(DATABASE_ENTRY).includes(name)) return 'database'
  const slash = name.indexOf('/')
  const folder = name.slice(0, slash)
  return (FILE_FOLDERS as readonly string[]).includes(folder) && isValidKey(name.slice(slash + 1))
    ? (folder as FileFolder)
    : undefined
}

/** Parses and checks a manifest's shape; refuses formats this code cannot restore. */
export function parseManifest(text: string): BackupManifest {
  let value: Partial<BackupManifest>
  try {
    value = JSON.parse(text) as Partial<BackupManifest>
  } catch {
    throw new ManifestError('The archive\'s manifest is not valid JSON: the archive is damaged')
  }
  if (value.format !== FORMAT) throw new ManifestError('This is not a Wren backup (its manifest names no Wren format)')
  if (value.formatVersion !== FORMAT_VERSION) {
    throw new ManifestError(
      `This backup uses format version ${value.formatVersion}; this Wren reads version ${FORMAT_VERSION}. ` +
        'Restore it with the Wren version that made it (its manifest says which).',
    )
  }
  const db = value.database
  if (!db || (db.kind !== 'pglite' && db.kind !== 'postgres') || db.entry !== DATABASE_ENTRY[db.kind]) {
    throw new ManifestError('The archive\'s manifest names no database snapshot: the archive is damaged')
  }
  if (!Array.isArray(value.files) || value.files.some((f) => typeof f?.path !== 'string' || typeof f.sha256 !== 'string' || typeof f.size !== 'number')) {
    throw new ManifestError('The archive\'s manifest has no valid file list: the archive is damaged')
  }
  return value as BackupManifest
}

/**
 * Refuses a snapshot from a newer Wren: its migrations are unknown here and starting this server on it would run an
 * older schema's code against a newer schema. An older snapshot is fine: the server's start applies what is missing.
 */
export function assertMigrationKnown(manifest: BackupManifest): void {
  const mark = manifest.database.migration
  if (!mark) return
  const known = knownMigrations()
  if (!known.some((m) => m.when === mark.when)) {
    throw new ManifestError(
      `This backup's database is at migration ${mark.tag ?? `from ${new Date(mark.when).toISOString()}`}, which this ` +
        `Wren (${known.at(-1)?.tag ?? 'no migrations'}) does not know: it was made by a newer Wren ` +
        `(${manifest.appVersion}). Restore it with that version or a later one.`,
    )
  }
}
