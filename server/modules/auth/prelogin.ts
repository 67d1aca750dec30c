import { createHmac, randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { KDF_DEFAULT, type KdfSettings } from '../../../src/api/contract/kdf'
import type { Database } from '../../db/client'
import { serverSecrets } from '../../db/schema-secrets'

const SECRET_NAME = 'prelogin'

/**
 * The made-up prelogin answer for a name no account has: today's default settings and a salt that is a keyed hash
 * (HMAC-SHA256 under a server secret) of the name as sign-in compares it (trimmed, any case). Stable, so asking twice
 * does not tell a made-up answer from a stored one; keyed, so nobody without the database can compute it. The key is
 * made on first use and kept in the database (schema-secrets.ts), shared by every server process.
 */
export class PreloginSalts {
  private key: Promise<Buffer> | undefined

  constructor(private readonly db: Database) {}

  private loadKey(): Promise<Buffer> {
    this.key ??= (async () => {
      await this.db
        .insert(serverSecrets)
        .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
        .onConflictDoNothing()
      const [row] = await this.db
        .select({ value: serverSecrets.value })
        .from(serverSecrets)
        .where(sql`${serverSecrets.name} = ${SECRET_NAME}`)
      if (!row) throw new Error('the prelogin secret is missing')
      return Buffer.from(row.value, 'base64url')
    })().catch((err: unknown) => {
      this.key = undefined
      throw err
    })
    return this.key
  }

  async madeUp(login: string): Promise<KdfSettings> {
    const key = await this.loadKey()
    const salt = createHmac('sha256', key)
      .update(`prelogin-salt\u0000${login.trim().toLowerCase()}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url')
    return { algorithm: 'argon2id', salt, ...KDF_DEFAULT }
  }
}
