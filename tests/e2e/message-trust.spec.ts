import { test, expect, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { PASSWORD, registerThroughForm, uniqueUsername } from './support/members'
import { audit } from './support/audit'

// Playwright plays the malicious server (docs/security.md, "Safety numbers and key changes"): `page.route` rewrites the
// keys in the API's answers. Alice and Ben write to each other honestly first (each browser records the other's key,
// sealed) and Alice marks Ben verified; then the "server" gives each of them a key of its own for the other. Alice
// sees the strong warning (she had verified Ben), the safety numbers the two pages show differ, and no message is
// posted until she acknowledges; a second device of Alice's sees the same warning for a change it never saw. Then the
// server also reports each one's fake key as their own: the own-key alert, and nothing is sent. Screenshots (light and
// dark) of the warning, the alert and the verify dialog go to test-results/screens/trust-*.png.

const alice = { username: uniqueUsername('alice'), name: 'Alice Hart' }
const ben = { username: uniqueUsername('ben'), name: 'Ben Okafor' }

interface Session {
  context: BrowserContext
  page: Page
  token: string
  id: string
}

async function signedIn(page: Page): Promise<{ token: string; id: string }> {
  // A registration is remembered (localStorage); a sign-in without "Remember me" is the tab's (sessionStorage).
  const raw = await page.evaluate(() => sessionStorage.getItem('auth-storage') ?? localStorage.getItem('auth-storage'))
  const stored = JSON.parse(raw ?? '{}') as { user: { id: string }; token: string }
  return { token: stored.token, id: stored.user.id }
}

async function registerInBrowser(browser: Browser, who: { username: string; name: string }): Promise<Session> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await registerThroughForm(page, who)
  return { context, page, ...(await signedIn(page)) }
}

async function logInOnNewDevice(browser: Browser, username: string): Promise<Session> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
  return { context, page, ...(await signedIn(page)) }
}

/** A P-256 public key the "server" made: base64url of the raw point, as the app stores keys. */
async function serverMadeKey(): Promise<string> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])
  return Buffer.from(await crypto.subtle.exportKey('raw', pair.publicKey)).toString('base64url')
}

/** The malicious server: every messages and key answer has its keys replaced. */
async function swapKeys(page: Page, swaps: ReadonlyArray<readonly [string, string]>): Promise<void> {
  await page.unrouteAll({ behavior: 'wait' })
  await page.route(/\/api\/(messages\/|users\/[^/]+\/(public-key|key-history))/, async (route) => {
    const response = await route.fetch()
    let body = await response.text()
    for (const [real, fake] of swaps) body = body.split(real).join(fake)
    await route.fulfill({ response, body })
  })
}

/** Every message posted (sent or edited) and every trust record stored, in order. */
function recordWrites(page: Page): string[] {
  const writes: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (request.method() === 'POST' && /\/api\/messages\/conversations\/[^/]+\/messages$/.test(url.pathname)) writes.push('send')
    if (request.method() === 'PATCH' && url.pathname.startsWith('/api/messages/messages/')) writes.push('edit')
    if (request.method() === 'PUT' && url.pathname.endsWith('/trust-record')) writes.push('trust')
  })
  return writes
}

async function publicKeyOf(page: Page, token: string, id: string): Promise<string> {
  const res = await page.request.get(`/api/users/${id}/public-key`, { headers: { Authorization: `Bearer ${token}` } })
  return ((await res.json()) as { publicKey: string }).publicKey
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('theme-storage', JSON.stringify({ context: { theme: value }, version: 0 })), theme)
  await page.reload()
  if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/dark/)
  else await expect(page.locator('html')).not.toHaveClass(/dark/)
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/trust-${name}.png` })
  await audit(page, `trust-${name}`)
}
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' })
const sendButton = (page: Page) => page.getByRole('button', { name: 'Send' })
const digits = (page: Page) => page.getByLabel('Safety number digits')

async function safetyNumber(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Verify safety number' }).click()
  const number = (await digits(page).textContent()) ?? ''
  await page.getByRole('dialog', { name: 'Safety number' }).getByRole('button', { name: 'Close' }).click()
  return number
}

async function send(page: Page, text: string) {
  await composer(page).fill(text)
  await sendButton(page).click()
  await expect(page.getByRole('list', { name: 'Messages' }).getByText(text)).toBeVisible()
}

test('a server that swaps keys is caught: differing safety numbers, a held composer, the own-key alert, on every device', async ({ browser }) => {
  test.setTimeout(180_000)
  const a = await registerInBrowser(browser, alice)
  const b = await registerInBrowser(browser, ben)
  const aliceKey = await publicKeyOf(a.page, a.token, a.id)
  const benKey = await publicKeyOf(a.page, a.token, b.id)

  // Honest first contact: each browser records the other's key (trust on first use) and they write.
  const started = await a.page.request.post('/api/messages/conversations', {
    headers: { Authorization: `Bearer ${a.token}` },
    data: { recipientId: b.id },
  })
  expect(started.status()).toBe(201)
  const conversationId = ((await started.json()) as { conversation: { id: string } }).conversation.id
  const url = `/messages/${conversationId}`
  await a.page.goto(url)
  await send(a.page, 'Hi Ben, before anything happens')
  await b.page.goto(url)
  await send(b.page, 'Hi Alice')
  const honestA = await safetyNumber(a.page)
  expect(honestA).toMatch(/^\d{60}$/)
  expect(await safetyNumber(b.page)).toBe(honestA)

  // Alice compares and marks Ben verified; the dialog (QR and digits) in both themes.
  await a.page.getByRole('button', { name: 'Verify safety number' }).click()
  const dialog = a.page.getByRole('dialog', { name: 'Safety number' })
  await expect(dialog.getByRole('img', { name: /QR code of the safety number/ })).toBeVisible()
  await dialog.getByRole('button', { name: 'Mark as verified' }).click()
  await expect(dialog.getByText(`You verified ${ben.name}.`)).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Unverify' })).toBeVisible()
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(a.page, theme)
    await a.page.getByRole('button', { name: 'Verify safety number' }).click()
    await expect(a.page.getByRole('dialog', { name: 'Safety number' }).getByRole('img', { name: /QR code/ })).toBeVisible()
    await shot(a.page, `verify-dialog-${theme}`)
    await a.page.getByRole('dialog', { name: 'Safety number' }).getByRole('button', { name: 'Close' }).click()
  }
  await setTheme(a.page, 'light')
  await expect(a.page.getByText('Verified', { exact: true })).toBeVisible()

  // The attack: each is given a key the server made for the other; their own keys are reported honestly.
  const fakeBen = await serverMadeKey()
  const fakeAlice = await serverMadeKey()
  await swapKeys(a.page, [[benKey, fakeBen]])
  await swapKeys(b.page, [[aliceKey, fakeAlice]])
  const aliceWrites = recordWrites(a.page)
  const benWrites = recordWrites(b.page)
  await a.page.reload()
  await b.page.reload()

  // Alice had verified Ben: the strong warning, the mark gone, and the composer held.
  const warning = a.page.getByRole('alert', { name: 'Safety number changed' })
  await expect(warning).toContainText(`You had verified ${ben.name}. Their safety number changed`)
  await expect(a.page.getByText('Verified', { exact: true })).toHaveCount(0)
  await expect(a.page.getByText(`Acknowledge ${ben.name}'s new safety number above to send messages.`)).toBeVisible()
  await expect(composer(a.page)).toHaveCount(0)
  // Ben's browser too: Alice's key is not the one it recorded.
  await expect(b.page.getByRole('alert', { name: 'Safety number changed' })).toContainText(`${alice.name}'s safety number changed`)

  // The two pages show different safety numbers: comparing them reveals the server.
  const attackedA = await safetyNumber(a.page)
  const attackedB = await safetyNumber(b.page)
  expect(attackedA).toMatch(/^\d{60}$/)
  expect(attackedA).not.toBe(attackedB)
  expect(attackedA).not.toBe(honestA)

  for (const theme of ['light', 'dark'] as const) {
    await setTheme(a.page, theme)
    await expect(warning).toBeVisible()
    await shot(a.page, `key-changed-${theme}`)
  }
  await setTheme(a.page, 'light')

  // A second device of Alice's, which never saw Ben's old key, shows the same warning.
  const second = await logInOnNewDevice(browser, alice.username)
  await swapKeys(second.page, [[benKey, fakeBen]])
  const secondWrites = recordWrites(second.page)
  await second.page.goto(url)
  await expect(second.page.getByRole('alert', { name: 'Safety number changed' })).toContainText(`You had verified ${ben.name}.`)
  await expect(composer(second.page)).toHaveCount(0)
  expect(secondWrites, 'the new device sends nothing and records nothing by itself').toEqual([])

  // Nothing was posted before Alice acknowledges; after it, she can send (to the key she now knowingly accepted).
  expect(aliceWrites).toEqual([])
  expect(benWrites).toEqual([])
  await warning.getByRole('button', { name: 'Acknowledge' }).click()
  await expect(warning).toHaveCount(0)
  await send(a.page, 'Is this really you, Ben?')
  expect(aliceWrites).toEqual(['trust', 'send'])

  // The full attack: the server also reports each one's fake key as their own. Ben's browser holds his real key.
  await swapKeys(b.page, [[aliceKey, fakeAlice], [benKey, fakeBen]])
  await b.page.reload()
  const alert = b.page.getByRole('alert', { name: 'Key alert' })
  await expect(alert).toContainText('The server reports a different key for your account')
  await expect(b.page.getByText('Sending is turned off in this conversation: see the alert above.')).toBeVisible()
  await expect(composer(b.page)).toHaveCount(0)
  await expect(b.page.getByRole('alert', { name: 'Safety number changed' })).toHaveCount(0)
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(b.page, theme)
    await expect(alert).toBeVisible()
    await shot(b.page, `own-key-alert-${theme}`)
  }
  // Whatever the own key the server reports, the number Ben's page shows is from his real key: still not Alice's.
  expect(await safetyNumber(b.page)).not.toBe(await safetyNumber(a.page))
  expect(benWrites).toEqual([])

  await second.context.close()
  await a.context.close()
  await b.context.close()
})
