import { readFile } from 'node:fs/promises'
import { test, expect, type Page } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { findAdmin, PASSWORD, register, registerThroughForm, setTheme, shot, signIn, uniqueUsername } from './support/members'

// Two-factor sign-in, walked in Chromium (docs/product.md, "Two-factor sign-in"): a member turns it on in Settings by
// reading the secret's text from the dialog (the test is the authenticator app: otpauth computes the codes), keeps the
// recovery codes (Download gives a .txt), signs out and in with a code (the message key still unlocks: the password's
// wrapping key waited in memory through the second step), signs in with a recovery code (spent: a second use is
// refused), and turns it off with the password and a recovery code. The dialog and the second step are photographed
// in light and dark. Then an admin resets the 2FA of a member who lost everything, from the admin panel.

test.describe.configure({ mode: 'serial' })

const username = uniqueUsername('totp')
const STEP_MS = 30_000

function codeAt(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
  return totp.generate({ timestamp: Date.now() + offsetSteps * STEP_MS })
}

/** Switches the theme in place, as the theme actor does (src/main.tsx), and lets colour transitions finish. */
async function paint(page: Page, theme: 'light' | 'dark') {
  await setTheme(page, theme)
  await page.evaluate((value) => {
    document.documentElement.classList.toggle('dark', value === 'dark')
    document.documentElement.style.colorScheme = value
  }, theme)
  await page.waitForTimeout(600)
}

async function openSecurity(page: Page) {
  await page.goto('/settings?tab=security')
  await expect(page.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeVisible()
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Log out' }).first().click()
  await expect(page).toHaveURL(/\/login$/)
}

async function password(page: Page) {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: /log in/i }).click()
}

async function secondStep(page: Page, code: string) {
  await page.getByLabel('Authentication code').fill(code)
  await page.getByRole('button', { name: 'Verify' }).click()
}

test('turn on with the QR secret, sign in with a code and with a recovery code (spent), turn off', async ({ page }) => {
  test.setTimeout(180_000)
  const problems: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy|Refused/i.test(message.text())) problems.push(message.text())
  })
  await registerThroughForm(page, { username, name: 'Totp Wren' })
  await openSecurity(page)
  await expect(page.getByText('Off: add a second step when you log in.')).toBeVisible()
  await page.getByRole('button', { name: 'Enable 2FA' }).click()

  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('img', { name: /QR code/ })).toBeVisible()
  const secret = ((await dialog.getByTestId('two-factor-secret').textContent()) ?? '').replace(/\s/g, '')
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await shot(page, 'two-factor-setup-light')
  await paint(page, 'dark')
  await shot(page, 'two-factor-setup-dark')
  await paint(page, 'light')

  // A wrong code is refused with the server's words, and the dialog stays.
  await dialog.getByLabel('Authentication code').fill('000000')
  await dialog.getByLabel('Password').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Enable' }).click()
  await expect(dialog.getByText('Invalid code')).toBeVisible()
  await dialog.getByLabel('Authentication code').fill(codeAt(secret))
  await dialog.getByRole('button', { name: 'Enable' }).click()

  const list = dialog.getByRole('list', { name: 'Recovery codes' })
  await expect(list.getByRole('listitem')).toHaveCount(10)
  const recovery = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim())
  for (const code of recovery) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/)
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download' }).click()])
  expect(download.suggestedFilename()).toBe('wren-recovery-codes.txt')
  const file = await readFile((await download.path()) ?? '', 'utf8')
  for (const code of recovery) expect(file).toContain(code)
  await shot(page, 'two-factor-codes-light')
  await paint(page, 'dark')
  await shot(page, 'two-factor-codes-dark')
  await paint(page, 'light')
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('On: signing in asks for a code from your app.')).toBeVisible()

  // Signing in asks for a code after the password. The enabling code's step is spent: the app's next code works
  // (accepted within one step either side).
  await logOut(page)
  await password(page)
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible()
  await shot(page, 'two-factor-step-light')
  await paint(page, 'dark')
  await shot(page, 'two-factor-step-dark')
  await paint(page, 'light')
  await secondStep(page, '000000')
  await expect(page.getByText('Invalid code')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible()
  await secondStep(page, codeAt(secret, 1))
  await expect(page).toHaveURL(/\/$/)
  await openSecurity(page)
  await expect(page.getByText('Message key: ready')).toBeVisible()

  // A recovery code signs in once.
  await logOut(page)
  await password(page)
  await secondStep(page, recovery[0] ?? '')
  await expect(page).toHaveURL(/\/$/)
  await logOut(page)
  await password(page)
  await secondStep(page, recovery[0] ?? '')
  await expect(page.getByText('Invalid code')).toBeVisible()
  await secondStep(page, (recovery[1] ?? '').toUpperCase())
  await expect(page).toHaveURL(/\/$/)

  // Turning it off takes the password and a code (a recovery code here).
  await openSecurity(page)
  await page.getByRole('button', { name: 'Manage 2FA' }).click()
  await dialog.getByLabel('Authentication code').fill(recovery[2] ?? '')
  await dialog.getByLabel('Password').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Turn off' }).click()
  await expect(page.getByText('Two-factor sign-in is off')).toBeVisible()
  await expect(page.getByText('Off: add a second step when you log in.')).toBeVisible()
  await logOut(page)
  await password(page)
  await expect(page).toHaveURL(/\/$/)
  expect(problems).toEqual([])
})

test('an admin resets the two-factor sign-in of a member who lost their phone and codes', async ({ page, request }) => {
  test.setTimeout(120_000)
  // Lou turns 2FA on through the API, as their browser would, then loses the phone.
  const lou = await register(request, 'lou', 'Lou Lost')
  const headers = { Authorization: `Bearer ${lou.token}` }
  const { secret } = (await (await request.post('/api/auth/two-factor/setup', { headers })).json()) as { secret: string }
  const { secrets } = await signIn(request, lou.username)
  const enabled = await request.post('/api/auth/two-factor/enable', {
    headers,
    data: { code: codeAt(secret), currentAuthSecret: secrets?.authSecret },
  })
  expect(enabled.status(), await enabled.text()).toBe(200)
  expect(Object.keys((await signIn(request, lou.username)).body)).toEqual(['secondFactor'])

  const { admin, password: adminPassword } = await findAdmin(request, lou)
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(admin.username)
  await page.getByLabel('Password').fill(adminPassword)
  await page.getByRole('button', { name: /log in/i }).click()
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/admin')
  const stats = page.getByRole('region', { name: 'Stats Management' })
  await stats.getByLabel('User ID').fill(lou.id)
  await stats.getByRole('button', { name: 'Reset 2FA' }).click()
  const confirm = page.getByRole('dialog', { name: 'Are you sure?' })
  await expect(confirm).toContainText('they will sign in with their password alone')
  await confirm.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText(`Two-factor sign-in reset for @${lou.username}`)).toBeVisible()
  await expect(page.getByRole('list', { name: 'Audit log entries' }).getByRole('listitem').first()).toContainText(
    `Turned off two-factor sign-in of @${lou.username}`,
  )
  // Lou signs in with the password alone.
  const after = await signIn(request, lou.username)
  expect(after.status).toBe(200)
  expect(after.body.token).toEqual(expect.any(String))
})
