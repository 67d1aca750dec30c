import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { Effect } from 'effect'
import sharp from 'sharp'
import type { KdfSettings } from '../../../src/api/contract/kdf'
import { deriveSecrets, freshKdf, type DerivedSecrets } from '../../../src/crypto/kdf'
import { SESSION_STORAGE_KEY } from '../../../src/machines/session/session.storage'
import { audit } from './audit'

// Members and content made through the real API (the e2e server runs with RATE_LIMITS=off), so a test sets up a
// network in seconds and spends its browser time on what the member does. Every name carries the run's stamp: the
// suite shares one server, and the first account on it (the admin) may or may not be one of ours.

export const PASSWORD = 'Sparrow2026'

export interface Member {
  id: string
  username: string
  displayName: string
  token: string
}

const stamp = Date.now().toString(36).slice(-5)
let sequence = 0

/** A fresh username (letters, digits, underscores; at most 30). */
export function uniqueUsername(prefix: string): string {
  sequence += 1
  return `${prefix}_${stamp}${sequence}`.slice(0, 30)
}

/** The secrets a password gives under one account's settings, derived once per test process (argon2id is slow). */
const derived = new Map<string, Promise<DerivedSecrets>>()

/** Fresh settings per password and test process: the accounts made with one password share them. */
const registrationKdf = new Map<string, KdfSettings>()

/**
 * What a browser sends for a password at registration: the secret argon2id and HKDF derive from it under fresh
 * settings (the app's own code, src/crypto/kdf.ts), so the browser can sign in with the same password later. Made
 * once per password and test process, and then found again at sign-in: members made through the API only need to be
 * able to sign in (the walks of registering through the form derive their own, with fresh salts).
 */
export async function registrationSecrets(password = PASSWORD): Promise<{ authSecret: string; kdf: KdfSettings }> {
  let kdf = registrationKdf.get(password)
  if (!kdf) {
    kdf = freshKdf()
    registrationKdf.set(password, kdf)
  }
  const { authSecret } = await secretsFor(password, kdf)
  return { authSecret, kdf }
}

function secretsFor(password: string, kdf: KdfSettings): Promise<DerivedSecrets> {
  // Field by field: the server's answer may list the settings in another order than freshKdf does.
  const key = JSON.stringify([password, kdf.algorithm, kdf.salt, kdf.memory, kdf.iterations, kdf.parallelism])
  let secrets = derived.get(key)
  if (!secrets) {
    secrets = Effect.runPromise(deriveSecrets(password, kdf))
    derived.set(key, secrets)
  }
  return secrets
}

/** Signs in through the API as the browser does: prelogin, derive, login with the secret (the password if legacy). */
export async function signIn(
  request: APIRequestContext,
  username: string,
  password = PASSWORD,
): Promise<{
  status: number
  body: { token: string; privateKey: string | null; user: Record<string, unknown> }
  secrets: DerivedSecrets | null
}> {
  const { kdf } = (await (await request.post('/api/auth/prelogin', { data: { username } })).json()) as {
    kdf: KdfSettings | null
  }
  const secrets = kdf === null ? null : await secretsFor(password, kdf)
  const data = secrets ? { username, authSecret: secrets.authSecret } : { username, password }
  const res = await request.post('/api/auth/login', { data })
  return {
    status: res.status(),
    body: (await res.json()) as { token: string; privateKey: string | null; user: Record<string, unknown> },
    secrets,
  }
}

export async function register(request: APIRequestContext, prefix: string, displayName: string): Promise<Member> {
  const username = uniqueUsername(prefix)
  const res = await request.post('/api/auth/register', {
    data: { username, email: `${username}@example.test`, displayName, ...(await registrationSecrets()) },
  })
  expect(res.status(), await res.text()).toBe(201)
  const body = (await res.json()) as { user: { id: string }; token: string }
  return { id: body.user.id, username, displayName, token: body.token }
}

const auth = (member: Member) => ({ Authorization: `Bearer ${member.token}` })

/**
 * The foundation suite's account: the fresh instance's first, so its admin (display name 'Robin Wren'), found through
 * `viewer`'s eyes. That suite changes its password to 'Nightingale2027' part-way, so both are tried.
 */
export async function findAdmin(request: APIRequestContext, viewer: Member): Promise<{ admin: Member; password: string }> {
  const headers = auth(viewer)
  const found = await request.get('/api/users/search?q=wren_&limit=50', { headers })
  expect(found.status(), await found.text()).toBe(200)
  const { users } = (await found.json()) as { users: Array<{ username: string }> }
  for (const { username } of users) {
    const profile = (await (await request.get(`/api/users/${username}`, { headers })).json()) as {
      user: { id: string; isAdmin: boolean; displayName: string }
    }
    if (!profile.user.isAdmin) continue
    for (const password of [PASSWORD, 'Nightingale2027']) {
      const login = await signIn(request, username, password)
      if (login.status !== 200) continue
      const admin = { id: profile.user.id, username, displayName: profile.user.displayName, token: login.body.token }
      return { admin, password }
    }
  }
  throw new Error('No admin account with the suite password: run the foundation suite first')
}

export async function follow(request: APIRequestContext, who: Member, target: Member): Promise<void> {
  const res = await request.post(`/api/users/${target.id}/follow`, { headers: auth(who) })
  expect(res.status(), await res.text()).toBe(200)
}

export interface NewPost {
  content?: string
  replyTo?: string
  image?: Buffer
}

/** POST /api/posts as multipart, the way the composer sends it. */
export async function publish(request: APIRequestContext, who: Member, post: NewPost): Promise<{ id: string }> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    visibility: 'public',
    sensitive: 'false',
  }
  if (post.content) multipart.content = post.content
  if (post.replyTo) multipart.replyTo = post.replyTo
  if (post.image) multipart.media = { name: 'photo.png', mimeType: 'image/png', buffer: post.image }
  const res = await request.post('/api/posts', { headers: auth(who), multipart })
  expect(res.status(), await res.text()).toBe(201)
  const body = (await res.json()) as { post: { id: string } }
  return body.post
}

export async function like(request: APIRequestContext, who: Member, postId: string): Promise<void> {
  const res = await request.post(`/api/posts/${postId}/like`, { headers: auth(who) })
  expect(res.status(), await res.text()).toBe(200)
}

/** A small PNG with a diagonal two-colour gradient, so uploads look like pictures in the screenshots. */
export async function gradientPng(width: number, height: number, from: [number, number, number], to: [number, number, number]) {
  const pixels = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const t = (x / width + y / height) / 2
      const offset = (y * width + x) * 3
      for (let c = 0; c < 3; c += 1) pixels[offset + c] = Math.round((from[c] ?? 0) * (1 - t) + (to[c] ?? 0) * t)
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer()
}

/**
 * Opens Home signed in as `member`, as a browser that kept its session does: a new session through the API (the
 * same calls the sign-in form makes), written where the app keeps a session that is not remembered (the tab's
 * storage), then Home loads and checks it with the server. The form itself is walked by the foundation, sessions,
 * two-factor and password walks; the other walks are about what comes after, and a form sign-in costs two page loads
 * and an argon2id derivation in the browser each time. A member made through the API has no message keys this way:
 * the walks that message sign in through the form.
 */
export async function logIn(page: Page, member: Member): Promise<void> {
  const { status, body } = await signIn(page.request, member.username)
  expect(status, JSON.stringify(body)).toBe(200)
  // A same-origin answer that is not the app, so the storage is written before the app first reads it.
  await page.goto('/api/health')
  await page.evaluate(
    ({ key, value }) => {
      localStorage.removeItem(key)
      sessionStorage.setItem(key, value)
    },
    {
      key: SESSION_STORAGE_KEY,
      value: JSON.stringify({ user: body.user, token: body.token, privateKey: body.privateKey, isAuthenticated: true }),
    },
  )
  await page.goto('/')
  await expect(page.getByRole('navigation').first()).toBeVisible()
}

/** Signs in through the login form, as a member does: the browser derives the secret and settles the keys. */
export async function logInThroughForm(page: Page, member: Member): Promise<void> {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(member.username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
}

/**
 * Registers through the form, as a new member does (the browser derives the secrets and makes the key pair), and
 * waits for Home. The page's listeners (traffic recorders) should be attached before.
 */
export async function registerThroughForm(page: Page, who: { username: string; name: string }, password = PASSWORD): Promise<void> {
  await page.goto('/register')
  await page.getByLabel('Username').fill(who.username)
  await page.getByLabel('Email').fill(`${who.username}@example.test`)
  await page.getByLabel('Display name').fill(who.name)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password').fill(password)
  await page.getByRole('checkbox', { name: /terms/i }).check()
  await page.getByRole('button', { name: /create account|sign up/i }).click()
  await expect(page).toHaveURL(/\/$/)
}

export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => {
    localStorage.setItem('theme-storage', JSON.stringify({ context: { theme: value }, version: 0 }))
  }, theme)
}

/** A full-page screenshot, and the accessibility audit of the same screen (support/audit.ts). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true })
  await audit(page, name)
}

/** The dark theme is one class on <html> over the same screen; colours ease over, so each shot waits for that. */
export async function bothThemes(page: Page, name: string): Promise<void> {
  const settled = () => page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => a))))
  await settled()
  await shot(page, `${name}-light`)
  await page.evaluate(() => document.documentElement.classList.add('dark'))
  await settled()
  await shot(page, `${name}-dark`)
  await page.evaluate(() => document.documentElement.classList.remove('dark'))
  await settled()
}

/** The toast region's newest line with this text. */
export const toastSaying = (page: Page, text: string | RegExp) => page.getByRole('region', { name: 'Notifications' }).getByText(text).last()
