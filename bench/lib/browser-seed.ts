/**
 * The browser bench's data, made through the real API of the running app (rate limits off, embedded database): a
 * reader who follows `authors` members who together have `posts` text posts of varied length, so the reader's home
 * feed is at least `posts` long. Requests run a few at a time (the server hashes two passwords at once; PGlite runs
 * one statement at a time anyway).
 */
import { Effect } from 'effect'
import { deriveSecrets, freshKdf } from '../../src/crypto/kdf'

export interface SeededMember {
  id: string
  username: string
  token: string
  /** The user object the API returned at registration, as the SPA stores it. */
  user: Record<string, unknown>
}

export interface BrowserSeed {
  reader: SeededMember
  authors: number
  posts: number
  seconds: number
}

/** Every seeded member's password; the reader signs in with it in the sign-in measurement. */
export const PASSWORD = 'Sparrow2026'

/** What a browser sends for a password at registration: the secret derived from it and its settings. */
async function registrationSecrets(password: string) {
  const secrets = await Effect.runPromise(deriveSecrets(password, freshKdf()))
  return { authSecret: secrets.authSecret, kdf: secrets.kdf }
}
const stamp = Date.now().toString(36).slice(-5)

const WORDS = (
  'morning light over the harbour small boats drifting slowly toward the breakwater while gulls argue about bread ' +
  'the library reopened today with a new reading room and far too many plants someone should water them ' +
  'trying a sourdough recipe again this week the starter finally smells right and the crust sings when it cools ' +
  'community garden meeting on thursday bring seeds gloves and opinions about where the compost should go'
).split(' ')

/** Deterministic text of 1-4 sentences (60-400 characters): cards of different heights, as a real feed has. */
function postText(author: number, n: number): string {
  let seed = author * 7919 + n * 104729
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed
  }
  const sentences = 1 + (next() % 4)
  const parts: string[] = []
  for (let s = 0; s < sentences; s += 1) {
    const length = 8 + (next() % 14)
    const words: string[] = []
    for (let w = 0; w < length; w += 1) words.push(WORDS[next() % WORDS.length] ?? 'wren')
    const sentence = words.join(' ')
    parts.push(sentence.charAt(0).toUpperCase() + sentence.slice(1) + '.')
  }
  return `${parts.join(' ')} #${n}`
}

async function api<T>(baseUrl: string, method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {}
  if (token) headers.authorization = `Bearer ${token}`
  let payload: BodyInit | undefined
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const res = await fetch(`${baseUrl}/api${path}`, { method, headers, body: payload })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
  return (text ? JSON.parse(text) : null) as T
}

async function register(baseUrl: string, prefix: string, index: number): Promise<SeededMember> {
  const username = `${prefix}_${stamp}_${index}`.slice(0, 30)
  const body = await api<{ user: Record<string, unknown> & { id: string }; token: string }>(
    baseUrl,
    'POST',
    '/auth/register',
    null,
    { username, email: `${username}@example.test`, displayName: `${prefix} ${index}`, ...(await registrationSecrets(PASSWORD)) },
  )
  return { id: body.user.id, username, token: body.token, user: body.user }
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at once. */
async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let nextIndex = 0
  const workers = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (nextIndex < count) {
      const i = nextIndex
      nextIndex += 1
      await task(i)
    }
  })
  await Promise.all(workers)
}

export async function seedBrowserData(
  baseUrl: string,
  { authors, posts }: { authors: number; posts: number },
): Promise<BrowserSeed> {
  const started = performance.now()
  const reader = await register(baseUrl, 'reader', 0)
  const members: SeededMember[] = []
  await pool(authors, 4, async (i) => {
    members[i] = await register(baseUrl, 'author', i + 1)
  })
  await pool(authors, 6, async (i) => {
    const author = members[i]
    if (author) await api(baseUrl, 'POST', `/users/${author.id}/follow`, reader.token)
  })
  const perAuthor = Math.ceil(posts / authors)
  // Interleave authors (post n of every author, then n+1), so the feed mixes them as a real one does.
  await pool(perAuthor * authors, 6, async (k) => {
    const author = members[k % authors]
    const n = Math.floor(k / authors)
    if (!author) return
    const form = new FormData()
    form.set('content', postText(k % authors, n))
    form.set('visibility', 'public')
    form.set('sensitive', 'false')
    await api(baseUrl, 'POST', '/posts', author.token, form)
  })
  return { reader, authors, posts: perAuthor * authors, seconds: (performance.now() - started) / 1000 }
}
