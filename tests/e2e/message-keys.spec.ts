import { test, expect, type Browser, type Page } from '@playwright/test'
import { PASSWORD, register, signIn, uniqueUsername } from './support/members'

// Message keys in the browser and the Content-Security-Policy that protects them. A member registers in
// the app (the key pair is made there: the server holds the public key and only a wrapped private key), logs in on
// fresh browser contexts (the key unlocks: Settings -> Security says "Message key: ready"), changes the password
// (the key is re-wrapped, so it still unlocks with the new one) and logs out (IndexedDB holds no key). Nothing
// secret is read from the page: only the status it shows and a count of IndexedDB records.

test.describe.configure({ mode: 'serial' })

const username = uniqueUsername('keys')
let password = PASSWORD
let userId = ''

/** Records CSP violations (the DOM event and Chromium's console message) from the first script on. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text())
  })
  await page.exposeFunction('__reportViolation', (text: string) => seen.push(text))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      ;(window as unknown as { __reportViolation(text: string): void }).__reportViolation(
        `${event.violatedDirective} ${event.blockedURI}`,
      )
    })
  })
  return seen
}

async function logIn(page: Page, secret: string) {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(username)
  await page.getByLabel('Password').fill(secret)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
}

async function keyStatus(page: Page) {
  await page.goto('/settings?tab=security')
  return page.getByRole('status').filter({ hasText: /^Message key:/ })
}

/** A fresh context (no IndexedDB, no localStorage): a new device. */
async function freshPage(browser: Browser) {
  const context = await browser.newContext()
  return { context, page: await context.newPage() }
}

test('registering makes the key pair in the browser: the server holds the public key and a wrapped private key', async ({
  page,
  request,
}) => {
  const violations = await watchViolations(page)
  await page.goto('/register')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Email').fill(`${username}@example.test`)
  await page.getByLabel('Display name').fill('Keys Wren')
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password').fill(password)
  await page.getByRole('checkbox', { name: /terms/i }).check()
  await page.getByRole('button', { name: /create account|sign up/i }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(await keyStatus(page)).toHaveText('Message key: ready')

  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('auth-storage'))) ?? '{}') as {
    user: { id: string }
    token: string
    privateKey: string | null
  }
  userId = stored.user.id
  // The session keeps the wrapped form only.
  expect(stored.privateKey).toMatch(/^wk2\./)

  const publicKey = await request.get(`/api/users/${userId}/public-key`, {
    headers: { Authorization: `Bearer ${stored.token}` },
  })
  expect(publicKey.status()).toBe(200)
  expect(((await publicKey.json()) as { publicKey: string | null }).publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/)

  const login = await signIn(request, username, password)
  const wrapped = login.body.privateKey ?? ''
  expect(wrapped).toBe(stored.privateKey)
  // Not a PKCS#8 key in any encoding: the versioned wrap format (IV, AES-GCM ciphertext).
  expect(wrapped.split('.')).toHaveLength(3)
  expect(wrapped).not.toMatch(/MIG|BEGIN/)
  expect(violations).toEqual([])
})

test('the app runs under a strict CSP: the header is sent, nothing is reported, an injected inline script does not run', async ({
  browser,
}) => {
  const { context, page } = await freshPage(browser)
  const violations = await watchViolations(page)
  const response = await page.goto('/login')
  const policy = response?.headers()['content-security-policy'] ?? ''
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "connect-src 'self';",
  ])
    expect(policy).toContain(directive)
  expect(policy).not.toMatch(/'unsafe-eval'/)
  expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/)

  await logIn(page, password)
  await expect(await keyStatus(page)).toHaveText('Message key: ready')
  await page.getByRole('link', { name: 'Home' }).first().click()
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()
  expect(violations).toEqual([])

  const ran = await page.evaluate(() => {
    const script = document.createElement('script')
    script.textContent = 'window.__injected = true'
    document.body.append(script)
    return (window as unknown as { __injected?: boolean }).__injected === true
  })
  expect(ran).toBe(false)
  await expect.poll(() => violations.some((text) => /script-src/.test(text))).toBe(true)
  await context.close()
})

test('change password re-wraps the key: a new device unlocks it with the new password', async ({ browser }) => {
  const { context, page } = await freshPage(browser)
  await logIn(page, password)
  await page.goto('/settings')
  await page.getByRole('button', { name: 'Change Password' }).first().click()
  const dialog = page.getByRole('dialog')
  // A wrong current password still shows the server's message.
  await dialog.getByLabel('Current password').fill('Wrong-password1')
  await dialog.getByLabel('New password', { exact: true }).fill('Nightingale2027')
  await dialog.getByLabel(/confirm new password/i).fill('Nightingale2027')
  await dialog.getByRole('button', { name: /change password|save|update/i }).click()
  await expect(page.getByText('Current password is incorrect').first()).toBeVisible()
  await dialog.getByLabel('Current password').fill(password)
  await dialog.getByRole('button', { name: /change password|save|update/i }).click()
  await expect(page.getByText('Password changed successfully!')).toBeVisible()
  password = 'Nightingale2027'
  await context.close()

  const fresh = await freshPage(browser)
  await logIn(fresh.page, password)
  await expect(await keyStatus(fresh.page)).toHaveText('Message key: ready')
  await fresh.context.close()
})

test('logout forgets the key: IndexedDB holds none for the member', async ({ browser }) => {
  const { context, page } = await freshPage(browser)
  await logIn(page, password)
  await expect(await keyStatus(page)).toHaveText('Message key: ready')
  const count = () =>
    page.evaluate(
      (id) =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('wren-keys')
          open.onerror = () => reject(new Error('cannot open'))
          open.onsuccess = () => {
            const db = open.result
            if (!db.objectStoreNames.contains('keys')) return resolve(0)
            const request = db.transaction('keys', 'readonly').objectStore('keys').count(id)
            request.onsuccess = () => {
              db.close()
              resolve(request.result)
            }
          }
        }),
      userId,
    )
  expect(await count()).toBe(1)
  // A reload loads the key from IndexedDB by user id.
  await page.reload()
  await expect(page.getByRole('status').filter({ hasText: /^Message key:/ })).toHaveText('Message key: ready')

  await page.getByRole('button', { name: /log ?out/i }).first().click()
  await expect(page).toHaveURL(/\/login$/)
  await expect.poll(count).toBe(0)
  await context.close()
})

test('a reload the moment home appears still finds the key, however slow the browser store is', async ({ browser }) => {
  const { context, page } = await freshPage(browser)
  // IndexedDB answering its opens 800 ms late, as a busy phone might: the key is still being written when the
  // sign-in would otherwise move on, and a navigation then aborts the write.
  await page.addInitScript(() => {
    const open = IDBFactory.prototype.open
    IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<IDBFactory['open']>) {
      const request = open.apply(this, args)
      Object.defineProperty(request, 'onsuccess', {
        set(handler: (this: IDBOpenDBRequest, event: Event) => void) {
          request.addEventListener('success', (event) => setTimeout(() => handler.call(request, event), 800))
        },
      })
      return request
    }
  })
  await logIn(page, password)
  await expect(await keyStatus(page)).toHaveText('Message key: ready')
  await context.close()
})

test('a keyless account (made before messaging) gets its key pair at its next login in the browser', async ({
  page,
  request,
}) => {
  // Registered through the API without keys, as an older client or the seed command would.
  const member = await register(request, 'keyless', 'Keyless Wren')
  const headers = { Authorization: `Bearer ${member.token}` }
  const before = await request.get(`/api/users/${member.id}/public-key`, { headers })
  expect(((await before.json()) as { publicKey: string | null }).publicKey).toBeNull()

  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(member.username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(await keyStatus(page)).toHaveText('Message key: ready')

  const after = await request.get(`/api/users/${member.id}/public-key`, { headers })
  expect(((await after.json()) as { publicKey: string | null }).publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/)
  // Signed in without "Remember me": the session is the tab's.
  const stored = JSON.parse((await page.evaluate(() => sessionStorage.getItem('auth-storage'))) ?? '{}') as {
    privateKey: string | null
  }
  expect(stored.privateKey).toMatch(/^wk2\./)
})
