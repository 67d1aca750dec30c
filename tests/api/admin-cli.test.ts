import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { ADMIN_USAGE, runAdminCommand } from '../../server/cli/admin-commands'
import { users } from '../../server/db/schema'
import { registerMember, useTestApp } from './harness'

const t = useTestApp()

async function isAdmin(username: string): Promise<boolean | undefined> {
  const [row] = await t.database.handle.db
    .select({ isAdmin: users.isAdmin })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
  return row?.isAdmin
}

describe('npm run admin', () => {
  it('promotes and demotes by username, case-insensitively', async () => {
    await registerMember(t.app) // the first account is admin already; use a second one
    const member = await registerMember(t.app, { username: 'Promote_Me' })
    expect(member.user.isAdmin).toBe(false)
    const run = (...args: string[]) => runAdminCommand(t.database.handle.db, args)

    expect(await run('promote', 'promote_me')).toEqual({ exitCode: 0, message: 'Promote_Me promoted to admin.' })
    expect(await isAdmin('Promote_Me')).toBe(true)
    expect(await run('promote', 'PROMOTE_ME')).toEqual({
      exitCode: 0,
      message: 'Promote_Me is already an admin; nothing changed.',
    })

    expect(await run('demote', 'Promote_Me')).toEqual({ exitCode: 0, message: 'Promote_Me demoted from admin.' })
    expect(await isAdmin('Promote_Me')).toBe(false)
    expect(await run('demote', 'Promote_Me')).toEqual({
      exitCode: 0,
      message: 'Promote_Me is not an admin; nothing changed.',
    })
  })

  it('fails with exit code 1 for an unknown user', async () => {
    expect(await runAdminCommand(t.database.handle.db, ['promote', 'no_such_member'])).toEqual({
      exitCode: 1,
      message: 'No account named "no_such_member".',
    })
  })

  it.each([[[]], [['promote']], [['delete', 'someone']], [['promote', 'a', 'b']]])(
    'prints the usage with exit code 2 for %j',
    async (args) => {
      expect(await runAdminCommand(t.database.handle.db, args)).toEqual({ exitCode: 2, message: ADMIN_USAGE })
    },
  )
})
