import { expect, test, type Browser, type Page } from '@playwright/test'
import { PASSWORD, register, setTheme, shot, type Member } from './support/members'

// Session lifetimes and View Sessions in a real browser (docs/product.md, "Sessions"): "Remember me" decides where
// the token is kept (the tab's sessionStorage, or localStorage), and Settings -> Security -> View Sessions signs
// another browser out at once: its next call is refused, its socket drops, it lands on the login screen and its
// unwrapped message key is gone from IndexedDB.

async function logInThroughForm(page: Page, member: Member, remember: boolean): Promise<void> {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(member.username)
  await page.getByLabel('Password').fill(PASSWORD)
  if (remember) await page.getByRole('checkbox', { name: 'Remember me' }).check()
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
}

const stored = (page: Page) =>
  page.evaluate(() => ({ tab: sessionStorage.getItem('auth-storage'), browser: localStorage.getItem('auth-storage') }))

/** Waits for the dialog's opening animation, so the screenshot shows it as the member does. */
const settled = (page: Page) =>
  page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)).then(() => undefined))

const tokenIn = (raw: string | null) => (JSON.parse(raw ?? '{}') as { token?: string | null }).token ?? null

/** How many unwrapped message keys this browser keeps (IndexedDB `wren-keys`). */
const keysKept = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('wren-keys')
        open.onerror = () => reject(new Error('could not open wren-keys'))
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('keys')) return resolve(0)
          const count = db.transaction('keys').objectStore('keys').count()
          count.onsuccess = () => resolve(count.result)
          count.onerror = () => reject(new Error('could not count keys'))
        }
      }),
  )

async function newBrowser(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } })
  return { context, page: await context.newPage() }
}

test('without Remember me the session is the tab\'s: a new tab signs in again (and leaves the first tab its key); with it, a new tab is signed in', async ({ browser, baseURL, request }) => {
  const member = await register(request, 'rm', 'Remember Robin')
  const { context, page } = await newBrowser(browser, baseURL)
  await logInThroughForm(page, member, false)
  const tabOnly = await stored(page)
  expect(tokenIn(tabOnly.tab)).not.toBeNull()
  expect(tokenIn(tabOnly.browser)).toBeNull()
  // A reload keeps the tab's session.
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()
  const second = await context.newPage()
  await second.goto('/')
  await expect(second).toHaveURL(/\/login$/)
  // The new tab starts signed out, but the first tab is still signed in: the key they share in IndexedDB stays, and
  // the first tab still has it after a reload.
  await second.close()
  expect(await keysKept(page)).toBe(1)
  await page.goto('/settings?tab=security')
  await expect(page.getByText('Message key: ready')).toBeVisible()
  await context.close()

  const remembered = await newBrowser(browser, baseURL)
  await logInThroughForm(remembered.page, member, true)
  const kept = await stored(remembered.page)
  expect(tokenIn(kept.browser)).not.toBeNull()
  expect(tokenIn(kept.tab)).toBeNull()
  const another = await remembered.context.newPage()
  await another.goto('/')
  await expect(another.getByRole('heading', { name: 'Home' })).toBeVisible()
  await remembered.context.close()
})

test('View Sessions: one browser signs the other out; its next call is refused, its socket drops, its key goes', async ({ browser, baseURL, request }) => {
  const member = await register(request, 'vs', 'Session Sam')
  // Only the two browsers' sessions: the registration's ends (revoking one's current session is signing out).
  const listed = await request.get('/api/auth/sessions', { headers: { Authorization: `Bearer ${member.token}` } })
  const registrationId = ((await listed.json()) as { sessions: Array<{ id: string }> }).sessions[0]!.id
  const ended = await request.delete(`/api/auth/sessions/${registrationId}`, { headers: { Authorization: `Bearer ${member.token}` } })
  expect(ended.status()).toBe(204)

  const laptop = await newBrowser(browser, baseURL)
  await logInThroughForm(laptop.page, member, true)
  const phone = await newBrowser(browser, baseURL)
  const socketOpened = phone.page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/socket.io/') })
  await logInThroughForm(phone.page, member, false)
  const phoneSocket = await socketOpened
  const phoneToken = tokenIn((await stored(phone.page)).tab)
  expect(phoneToken).not.toBeNull()
  await expect.poll(() => keysKept(phone.page)).toBe(1)

  const page = laptop.page
  await page.goto('/settings?tab=security')
  await expect(page.getByText('Session management is coming soon.')).toHaveCount(0)
  await page.getByRole('button', { name: 'View Sessions' }).click()
  const dialog = page.getByRole('dialog', { name: 'Active Sessions' })
  const rows = dialog.getByRole('list', { name: 'Sessions' }).getByRole('listitem')
  await expect(rows).toHaveCount(2)
  await expect(rows.first().getByText('This device')).toBeVisible()
  await expect(rows.first().getByRole('button', { name: /sign out/i })).toHaveCount(0)
  await expect(rows.nth(1)).toContainText(/Chrom\w* .* on Linux/)
  await expect(rows.nth(1)).toContainText('IP 127.0.0.1')
  await expect(rows.nth(1)).toContainText('Last active')
  await expect(dialog.getByRole('button', { name: 'Sign out all other sessions' })).toBeVisible()
  await settled(page)
  await shot(page, 'sessions-light')
  await setTheme(page, 'dark')
  await page.reload()
  await page.getByRole('button', { name: 'View Sessions' }).click()
  await expect(rows).toHaveCount(2)
  await settled(page)
  await shot(page, 'sessions-dark')
  await setTheme(page, 'light')

  const socketClosed = phoneSocket.waitForEvent('close')
  await rows.nth(1).getByRole('button', { name: /sign out/i }).click()
  await expect(page.getByText('Session signed out')).toBeVisible()
  await expect(rows).toHaveCount(1)
  await expect(dialog.getByRole('button', { name: 'Sign out all other sessions' })).toHaveCount(0)

  // The phone: its socket is dropped by the server, its token is refused, and it is back on the login screen
  // without its message key.
  await socketClosed
  const refused = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${phoneToken}` } })
  expect(refused.status()).toBe(401)
  expect(await refused.json()).toEqual({ error: 'Session expired or revoked' })
  await expect(phone.page).toHaveURL(/\/login$/, { timeout: 15_000 })
  await expect.poll(() => keysKept(phone.page)).toBe(0)
  expect(tokenIn((await stored(phone.page)).tab)).toBeNull()

  // The laptop is still signed in.
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()
  await laptop.context.close()
  await phone.context.close()
})

test('"Sign out all other sessions" leaves only this browser', async ({ browser, baseURL, request }) => {
  const member = await register(request, 'so', 'Solo Sue')
  const { context, page } = await newBrowser(browser, baseURL)
  await logInThroughForm(page, member, true)
  await page.goto('/settings?tab=security')
  await page.getByRole('button', { name: 'View Sessions' }).click()
  const dialog = page.getByRole('dialog', { name: 'Active Sessions' })
  await expect(dialog.getByRole('listitem')).toHaveCount(2)
  await dialog.getByRole('button', { name: 'Sign out all other sessions' }).click()
  await expect(page.getByText('Signed out 1 other session')).toBeVisible()
  await expect(dialog.getByRole('listitem')).toHaveCount(1)
  const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${member.token}` } })
  expect(me.status()).toBe(401)
  await context.close()
})
