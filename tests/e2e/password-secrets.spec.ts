import { test, expect, type Page, type Request } from '@playwright/test'
import { Effect } from 'effect'
import type { KdfSettings } from '../../src/api/contract/kdf'
import { deriveSecrets, passwordWrapper, unwrapPrivateKeyWith } from '../../src/crypto'
import { fromBase64url } from '../../src/crypto/encoding'
import { setTheme, signIn, uniqueUsername } from './support/members'
import { audit } from './support/audit'

// The password never leaves the browser in a form that unwraps the message key (docs/security.md, "The design in one
// paragraph"). A member registers, signs in and changes the password in Chromium, under the app's CSP (argon2id runs
// in WebAssembly: 'wasm-unsafe-eval'); every request body the page sends to /api/auth/* is recorded. None contains a
// typed password, and no string in them opens the stored wk2 key, used as a password (through the member's own
// settings) or as key material. The login form is photographed while it derives, in light and dark.

test.describe.configure({ mode: 'serial' })

const username = uniqueUsername('split')
const FIRST = 'Kestrel-Wings-42'
const SECOND = 'Heron-Shore-77'
const sent: string[] = []

function record(page: Page) {
  page.on('request', (request: Request) => {
    if (!new URL(request.url()).pathname.startsWith('/api/auth/')) return
    const body = request.postData()
    if (body) sent.push(body)
  })
}

/** Every string in the recorded JSON bodies (keys and values), the whole bodies too. */
function recordedStrings(): string[] {
  const out = new Set<string>()
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.add(value)
    else if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) {
        out.add(key)
        walk(inner)
      }
  }
  for (const body of sent) {
    out.add(body)
    walk(JSON.parse(body))
  }
  return [...out]
}

async function logIn(page: Page, password: string) {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
}

test('registration, sign-in and password change send no password and nothing that opens the key', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  record(page)
  const errors: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy|WebAssembly/i.test(message.text())) errors.push(message.text())
  })

  await page.goto('/register')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Email').fill(`${username}@example.test`)
  await page.getByLabel('Display name').fill('Split Wren')
  await page.getByLabel('Password', { exact: true }).fill(FIRST)
  await page.getByLabel('Confirm password').fill(FIRST)
  await page.getByRole('checkbox', { name: /terms/i }).check()
  await page.getByRole('button', { name: /create account|sign up/i }).click()
  await expect(page).toHaveURL(/\/$/)

  await page.evaluate(() => localStorage.clear())
  await logIn(page, FIRST)

  await page.goto('/settings')
  await page.getByRole('button', { name: 'Change Password' }).first().click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Current password').fill(FIRST)
  await dialog.getByLabel('New password', { exact: true }).fill(SECOND)
  await dialog.getByLabel(/confirm new password/i).fill(SECOND)
  await dialog.getByRole('button', { name: /change password|save|update/i }).click()
  await expect(page.getByText('Password changed successfully!')).toBeVisible()
  await context.close()
  expect(errors, 'argon2id ran under the CSP').toEqual([])

  const paths = sent.map((body) => Object.keys(JSON.parse(body) as object).sort().join(','))
  expect(paths).toEqual(
    expect.arrayContaining([
      'authSecret,displayName,email,kdf,privateKey,publicKey,username',
      // The login: the secret, and "Remember me" (a choice, nothing about the password).
      'authSecret,remember,username',
      'currentAuthSecret,kdf,newAuthSecret,privateKey',
    ]),
  )
  for (const body of sent) {
    expect(body).not.toContain(FIRST)
    expect(body).not.toContain(SECOND)
  }

  // The stored key, and the check itself: the new password, through the member's settings, opens it.
  const now = await signIn(request, username, SECOND)
  expect(now.status).toBe(200)
  const stored = now.body.privateKey ?? ''
  expect(stored).toMatch(/^wk2\./)
  const { kdf } = (await (await request.post('/api/auth/prelogin', { data: { username } })).json()) as { kdf: KdfSettings }
  const opens = async (password: string) =>
    Effect.runPromise(
      Effect.flatMap(deriveSecrets(password, kdf), passwordWrapper).pipe(
        Effect.flatMap((wrapper) => unwrapPrivateKeyWith(stored, wrapper)),
        Effect.as(true),
        Effect.orElseSucceed(() => false),
      ),
    )
  expect(await opens(SECOND)).toBe(true)

  const binding = `kdf.${kdf.salt}`
  for (const text of recordedStrings()) {
    expect(await opens(text), `as a password: ${text.slice(0, 40)}`).toBe(false)
    const bytes = fromBase64url(text)
    if (bytes?.length !== 32) continue
    const key = await crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['decrypt', 'unwrapKey'])
    const opened = await Effect.runPromise(
      unwrapPrivateKeyWith(stored, { key, binding }).pipe(Effect.as(true), Effect.orElseSucceed(() => false)),
    )
    expect(opened, `as key material: ${text}`).toBe(false)
  }
})

for (const theme of ['light', 'dark'] as const) {
  test(`the login form while the password is derived (${theme})`, async ({ page }) => {
    await page.goto('/login')
    await setTheme(page, theme)
    // Hold the settings' answer so the form stays in its deriving state long enough to be seen.
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/api/auth/prelogin', async (route) => {
      await held
      await route.continue()
    })
    await page.reload()
    await page.getByLabel(/username or email/i).fill(username)
    await page.getByLabel('Password').fill(SECOND)
    await page.getByRole('button', { name: /log in|sign in/i }).click()
    const button = page.getByRole('button', { name: /logging in/i })
    await expect(button).toBeDisabled()
    await expect(button).toHaveAttribute('aria-busy', 'true')
    await page.screenshot({ path: `test-results/screens/login-deriving-${theme}.png` })
    await audit(page, `login-deriving-${theme}`)
    release()
    await expect(page).toHaveURL(/\/$/)
  })
}
