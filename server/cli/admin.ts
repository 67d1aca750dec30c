import { loadConfig } from '../config'
import { openDatabase } from '../db/client'
import { runAdminCommand } from './admin-commands'

/** `npm run admin -- promote <username>`: acts on the same database the server uses (same environment). */
const config = loadConfig()
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir })
try {
  const { exitCode, message } = await runAdminCommand(database.db, process.argv.slice(2))
  ;(exitCode === 0 ? console.log : console.error)(message)
  process.exitCode = exitCode
} finally {
  await database.close()
}
