import type { Database } from '../db/client'
import { changeAdminRole } from '../modules/admin/service'

export const ADMIN_USAGE = 'Usage: npm run admin -- promote <username> | demote <username>'

export interface CommandResult {
  exitCode: number
  message: string
}

/** The admin CLI without the process around it (argument parsing, outcome, exit code), so tests can run it. */
export async function runAdminCommand(db: Database, args: readonly string[]): Promise<CommandResult> {
  const [command, username, ...rest] = args
  if ((command !== 'promote' && command !== 'demote') || !username || rest.length > 0) {
    return { exitCode: 2, message: ADMIN_USAGE }
  }
  const result = await changeAdminRole(db, username, command === 'promote')
  switch (result.outcome) {
    case 'unknown-user':
      return { exitCode: 1, message: `No account named "${username}".` }
    case 'unchanged':
      return {
        exitCode: 0,
        message: `${result.username} ${result.isAdmin ? 'is already an admin' : 'is not an admin'}; nothing changed.`,
      }
    case 'changed':
      return {
        exitCode: 0,
        message: `${result.username} ${result.isAdmin ? 'promoted to admin' : 'demoted from admin'}.`,
      }
  }
}
