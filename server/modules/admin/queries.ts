import { eq, sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { users } from '../../db/schema'

export async function findRoleByUsername(db: Database, username: string) {
  const [row] = await db
    .select({ id: users.id, username: users.username, isAdmin: users.isAdmin })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1)
  return row
}

export async function setAdmin(db: Database, userId: string, isAdmin: boolean): Promise<void> {
  await db.update(users).set({ isAdmin, updatedAt: sql`now()` }).where(eq(users.id, userId))
}
