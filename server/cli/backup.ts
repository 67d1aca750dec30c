import { BackupRefused, createBackup } from '../backup/create'
import { PgToolMissingError } from '../backup/postgres-tools'
import { loadConfig } from '../config'
import { fileArgument, formatBytes } from './backup-cli'

/** `npm run backup -- <file or folder>`: see server/backup/create.ts and the README's "Backups". */

const usage = `Usage: npm run backup -- <file.tar | folder> [--force]
  Writes one archive with the database snapshot, DATA_DIR/media and DATA_DIR/attachments (not exports, not the
  mail outbox), safe while the server runs. Uses the server's own settings (DATA_DIR, DATABASE_URL, PG_BIN_DIR).
  <folder>   an existing folder: the archive is named wren-backup-<UTC time>.tar inside it
  --force    replace an existing archive of the same name`

const args = fileArgument(usage)
const config = loadConfig()
try {
  const result = await createBackup({
    output: args.file,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    pgBinDir: config.pgBinDir,
    force: args.force,
  })
  const { counts, database } = result.manifest
  console.log(`Backup written: ${result.path}`)
  console.log(`  size         ${formatBytes(result.bytes)}`)
  console.log(`  database     ${database.kind === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'}, at migration ${database.migration?.tag ?? 'unknown'}, read from the ${result.source}`)
  console.log(`  media        ${counts.media.files} files, ${formatBytes(counts.media.bytes)}`)
  console.log(`  attachments  ${counts.attachments.files} files, ${formatBytes(counts.attachments.bytes)}`)
  console.log(`  time         ${(result.milliseconds / 1000).toFixed(1)} s`)
} catch (err) {
  if (err instanceof BackupRefused || err instanceof PgToolMissingError) {
    console.error(err.message)
    process.exitCode = 1
  } else {
    console.error(`Backup failed; nothing was written. ${err instanceof Error ? err.message : String(err)}`)
    process.exitCode = 1
  }
}
