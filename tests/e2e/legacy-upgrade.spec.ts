import { test, expect } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Effect } from 'effect'
import { openDatabase } from '../../server/db/client'
import { uuidv7 } from '../../server/db/ids'
import { users } from '../../server/db/schema'
import { PasswordHasher } from '../../server/modules/auth/passwords'
import { deriveConversationKey, encryptMessage, generateKeyPair } from '../../src/crypto'
import { sealWithPassword } from '../../src/crypto/wrap'

// An account from before the password split (password hash of the password itself, no KDF settings, its message key
// wrapped as wk1 under PBKDF2 of the password) signs in in the browser once, is moved over (its key re-wrapped as wk2
// under the derived wrapping key, POST /auth/upgrade), and still reads the message it was sent before. Such accounts
// cannot be made through today's API, so this suite writes them into a database of its own and runs its own server
// on it (the suite's server keeps its database locked); the web app is the one the suite's server built.

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const PASSWORD = 'Old-Sparrow-2019'
const OLD_MESSAGE = 'Sent before the move, still readable after it'
// Made in beforeAll: the runner also loads this file to list its tests, and must not leave a directory behind.
let dataDir = ''
let server: ChildProcess | undefined
let base = ''
const alice = { id: uuidv7(), username: 'legacy_alice' }
const bob = { id: uuidv7(), username: 'legacy_bob' }
let alicePublicKey = ''
let conversationId = ''

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

async function api<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return JSON.parse(text) as T
}

test.beforeAll(async () => {
  test.setTimeout(120_000)
  dataDir = mkdtempSync(join(tmpdir(), 'wren-legacy-'))
  // Two legacy members with wk1 keys at OWASP's PBKDF2 count, written as the app stored them before the split.
  const [aliceKeys, bobKeys] = await Promise.all([
    Effect.runPromise(generateKeyPair(sealWithPassword(PASSWORD))),
    Effect.runPromise(generateKeyPair(sealWithPassword(PASSWORD))),
  ])
  alicePublicKey = aliceKeys.publicKey
  const passwordHash = await new PasswordHasher(1).hash(PASSWORD)
  const database = await openDatabase({ dataDir })
  for (const [member, keys] of [
    [alice, aliceKeys],
    [bob, bobKeys],
  ] as const) {
    await database.db.insert(users).values({
      id: member.id,
      username: member.username,
      email: `${member.username}@example.test`,
      displayName: member.username,
      passwordHash,
      kdf: null,
      publicKey: keys.publicKey,
      wrappedPrivateKey: keys.wrappedPrivateKey,
    })
  }
  await database.close()

  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  server = spawn('npx', ['tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, RATE_LIMITS: 'off', DATABASE_URL: '', REDIS_URL: '' },
    stdio: 'ignore',
    detached: true,
  })
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    const healthy = await fetch(`${base}/api/health`).then((r) => r.ok, () => false)
    if (healthy) break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }

  // Bob, still legacy, signs in the old way and writes to Alice with his own key, as his browser would have.
  const signedIn = await api<{ token: string }>('POST', '/auth/login', { username: bob.username, password: PASSWORD })
  const { conversation } = await api<{ conversation: { id: string } }>(
    'POST',
    '/messages/conversations',
    { recipientId: alice.id },
    signedIn.token,
  )
  const key = await Effect.runPromise(
    deriveConversationKey({ publicKey: bobKeys.publicKey, privateKey: bobKeys.privateKey }, alicePublicKey),
  )
  const content = await Effect.runPromise(
    encryptMessage(key, OLD_MESSAGE, { conversationId: conversation.id, senderId: bob.id }),
  )
  await api('POST', `/messages/conversations/${conversation.id}/messages`, { content }, signedIn.token)
  conversationId = conversation.id
})

test.afterAll(() => {
  if (server?.pid) process.kill(-server.pid, 'SIGTERM')
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

test('a legacy account moves over at its sign-in in the browser and keeps reading its old message', async ({ page }) => {
  test.setTimeout(90_000)
  expect(await api('POST', '/auth/prelogin', { username: alice.username })).toEqual({ kdf: null })
  const sent: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/api/auth/')) sent.push(`${new URL(request.url()).pathname} ${request.postData() ?? ''}`)
  })

  await page.goto(`${base}/login`)
  await page.getByLabel(/username or email/i).fill(alice.username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(`${base}/`)

  await page.goto(`${base}/messages/${conversationId}`)
  await expect(page.getByRole('list', { name: 'Messages' }).getByText(OLD_MESSAGE)).toBeVisible({ timeout: 20_000 })

  // The password went to the server at this one sign-in and its upgrade only; the account now derives secrets.
  expect(sent.map((line) => line.split(' ')[0])).toEqual(
    expect.arrayContaining(['/api/auth/prelogin', '/api/auth/login', '/api/auth/upgrade']),
  )
  const after = await api<{ kdf: { algorithm: string } | null }>('POST', '/auth/prelogin', { username: alice.username })
  expect(after.kdf?.algorithm).toBe('argon2id')
  const refused = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: alice.username, password: PASSWORD }),
  })
  expect(refused.status).toBe(401)

  // A second device signs in the new way, with the secret only, and reads the same message.
  const second = await page.context().browser()!.newContext()
  const fresh = await second.newPage()
  const secondSent: string[] = []
  fresh.on('request', (request) => {
    if (request.url().includes('/api/auth/')) secondSent.push(request.postData() ?? '')
  })
  await fresh.goto(`${base}/login`)
  await fresh.getByLabel(/username or email/i).fill(alice.username)
  await fresh.getByLabel('Password').fill(PASSWORD)
  await fresh.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(fresh).toHaveURL(`${base}/`)
  for (const body of secondSent) expect(body).not.toContain(PASSWORD)
  await fresh.goto(`${base}/messages/${conversationId}`)
  await expect(fresh.getByRole('list', { name: 'Messages' }).getByText(OLD_MESSAGE)).toBeVisible({ timeout: 20_000 })
  await second.close()
})
