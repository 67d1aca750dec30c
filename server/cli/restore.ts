import { PgToolMissingError } from '../backup/postgres-tools'
import { restoreBackup, RestoreRefused } from '../backup/restore'
import { loadConfig } from '../config'
import { fileArgument, formatBytes } from './backup-cli'

/** `npm run restore -- <file>`: see server/backup/restore.ts and the README's "Backups". */

const usage = `Usage: npm run restore -- <file.tar> [--force]
  Stop the server first. Restores an archive made by npm run backup into this configuration's DATA_DIR (and, with
  DATABASE_URL, into that database). The archive is checked whole against its manifest before anything changes.
  --force    restore over an instance that is already there: under DATA_DIR it is moved to
             DATA_DIR/replaced-by-restore-<time>/; in PostgreSQL the backup's objects replace the current ones`

const args = fileArgument(usage)
const config = loadConfig()
try {
  const result = await restoreBackup({
    archive: args.file,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    pgBinDir: config.pgBinDir,
    force: args.force,
  })
  const { counts, database, createdAt, appVersion } = result.manifest
  console.log(`Restored the backup of ${createdAt} (Wren ${appVersion}) into ${config.dataDir}`)
  console.log(`  database     ${database.kind === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL (DATABASE_URL)'}, at migration ${database.migration?.tag ?? 'unknown'}`)
  console.log(`  media        ${counts.media.files} files, ${formatBytes(counts.media.bytes)}`)
  console.log(`  attachments  ${counts.attachments.files} files, ${formatBytes(counts.attachments.bytes)}`)
  console.log(`  time         ${(result.milliseconds / 1000).toFixed(1)} s`)
  if (result.movedAside) console.log(`What was there before is in ${result.movedAside}; delete it once the restore is checked.`)
  console.log('Start the server: it applies any newer migrations first.')
} catch (err) {
  if (err instanceof RestoreRefused || err instanceof PgToolMissingError) {
    console.error(`Restore refused: ${err.message}`)
  } else {
    console.error(`Restore failed: ${err instanceof Error ? err.message : String(err)}`)
  }
  process.exitCode = 1
}
