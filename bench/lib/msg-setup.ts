import { randomBytes } from 'node:crypto'
import os from 'node:os'
import pg from 'pg'
import { openDatabase } from '../../server/db/client'
import { uuidv7 } from '../../server/db/ids'
import { newToken } from '../../server/modules/auth/tokens'
import { recreateBenchDatabase } from './database'

/**
 * The messaging bench's data, made in seconds rather than through 5,000 registrations (each an argon2id hash):
 * the app's own migrations, then members, their sessions and their conversations in a few `unnest` inserts that
 * fill the same columns the API would. Tokens come from the auth module's `newToken()` (only their SHA-256 is
 * stored, as for a real login), ids from `server/db/ids.ts`.
 */

/** One member of the run: the bearer token lives only in the bench's memory, as a browser's would. */
export interface BenchMember {
  id: string
  token: string
}

/** Two members and their conversation; both send in it, alternately. */
export interface BenchPair {
  a: number
  b: number
  conversationId: string
}

export interface MessagingData {
  members: BenchMember[]
  pairs: BenchPair[]
  seconds: number
}

const b64url = (bytes: number) => randomBytes(bytes).toString('base64url')

/**
 * Key-shaped strings in the SPA's formats (src/api/contract/encryption.ts): a public key is 65 bytes of base64url
 * (87 characters), the wrapped private key `wk1.<iterations>.<salt>.<iv>.<ciphertext>`. Random bytes: the server
 * never opens them, and nothing in the bench decrypts.
 */
const publicKey = () => b64url(65)
const wrappedKey = () => `wk1.600000.${b64url(16)}.${b64url(12)}.${b64url(138)}`

// Not an argon2 hash: nobody signs in with a password during the bench (the sessions are made here).
const NO_PASSWORD = 'bench-member-without-password'

export async function makeMessagingData(name: string, url: string, count: number): Promise<MessagingData> {
  const started = performance.now()
  await recreateBenchDatabase(name)
  // Migrations through the app's own code.
  const handle = await openDatabase({ url, dataDir: os.tmpdir() })
  await handle.close()

  const members: BenchMember[] = []
  const hashes: string[] = []
  for (let i = 0; i < count; i += 1) {
    const { token, tokenHash } = newToken()
    members.push({ id: uuidv7(), token })
    hashes.push(tokenHash)
  }
  // Neighbours pair up: member 2k with 2k+1 (an odd count leaves the last one receiving nothing but connected).
  const pairs: BenchPair[] = []
  for (let a = 0; a + 1 < count; a += 2) pairs.push({ a, b: a + 1, conversationId: uuidv7() })

  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('begin')
    const ids = members.map((m) => m.id)
    await client.query(
      `insert into users (id, username, email, display_name, password_hash, public_key, wrapped_private_key)
       select id, 'bench_' || n, 'bench_' || n || '@bench.invalid', 'Bench member ' || n, $2, pk, wk
       from unnest($1::uuid[], $3::text[], $4::text[]) with ordinality as t(id, pk, wk, n)`,
      [ids, NO_PASSWORD, ids.map(publicKey), ids.map(wrappedKey)],
    )
    await client.query(
      `insert into sessions (id, user_id, token_hash, user_agent, remember, expires_at)
       select s, u, h, 'wren-bench', true, now() + interval '90 days' from unnest($1::uuid[], $2::uuid[], $3::text[]) as t(s, u, h)`,
      [members.map(() => uuidv7()), ids, hashes],
    )
    const low = pairs.map((p) => (ids[p.a]! < ids[p.b]! ? ids[p.a]! : ids[p.b]!))
    const high = pairs.map((p) => (ids[p.a]! < ids[p.b]! ? ids[p.b]! : ids[p.a]!))
    const conversationIds = pairs.map((p) => p.conversationId)
    await client.query(
      `insert into conversations (id, member_low, member_high) select * from unnest($1::uuid[], $2::uuid[], $3::uuid[])`,
      [conversationIds, low, high],
    )
    await client.query(
      `insert into conversation_members (conversation_id, user_id)
       select c, u from unnest($1::uuid[], $2::uuid[]) as t(c, u)
       union all select c, u from unnest($1::uuid[], $3::uuid[]) as t(c, u)`,
      [conversationIds, low, high],
    )
    await client.query('commit')
    await client.query('vacuum analyze users, sessions, conversations, conversation_members')
  } finally {
    await client.end()
  }
  return { members, pairs, seconds: (performance.now() - started) / 1000 }
}
