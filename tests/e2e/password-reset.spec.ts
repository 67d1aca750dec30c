import { test, expect as baseExpect, type Browser, type Page } from '@playwright/test'
import { PASSWORD, registerThroughForm, shot, uniqueUsername } from './support/members'
import { linkIn, waitForMail } from './support/outbox'

// Forgot password and the message recovery key, walked in Chromium (docs/product.md, "Password reset"): a member
// makes a recovery key in Settings, forgets the password, follows the mailed link (read from the outbox), types the
// key and a new password, and reads their earlier message again. Another member resets without the key ("I don't
// have it", confirmed): their earlier message is marked as no longer decryptable, and their contact sees the safety
// number changed. The reset screens and the recovery dialog are photographed in light and dark.

test.describe.configure({ mode: 'serial' })
// Two browsers, argon2id in each step, screenshots with audits: on a shared 2-core machine a step can take seconds.
const expect = baseExpect.configure({ timeout: 20_000 })

const NEW_PASSWORD = 'Nightingale2028'

/** Switches the theme in place, as the theme actor does, and lets colour transitions finish. */
async function paint(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((value) => {
    localStorage.setItem('theme-storage', JSON.stringify({ context: { theme: value }, version: 0 }))
    document.documentElement.classList.toggle('dark', value === 'dark')
    document.documentElement.style.colorScheme = value
  }, theme)
  await page.waitForTimeout(600)
}

async function bothThemes(page: Page, name: string) {
  await shot(page, `${name}-light`)
  await paint(page, 'dark')
  await shot(page, `${name}-dark`)
  await paint(page, 'light')
}

async function inBrowser(browser: Browser, who: { username: string; name: string }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await registerThroughForm(page, who)
  return { context, page }
}

const history = (page: Page) => page.getByRole('list', { name: 'Messages' })

/** From `from`'s browser: opens a conversation with `to` from their profile and sends `text`. */
async function write(page: Page, to: { username: string }, text: string) {
  await page.goto(`/profile/${to.username}`)
  await page.getByRole('button', { name: `Message @${to.username}` }).click()
  await expect(page).toHaveURL(/\/messages\/[\w-]+$/)
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill(text)
  await composer.press('Enter')
  await expect(history(page).getByRole('listitem').filter({ hasText: text })).toBeVisible()
  return page.url()
}

async function createRecoveryKey(page: Page, photograph: boolean): Promise<string> {
  await page.goto('/settings?tab=security')
  await expect(page.getByText('Off: if you forget your password, your earlier direct messages are lost.')).toBeVisible()
  await page.getByRole('button', { name: 'Create recovery key' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Password').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Create key' }).click()
  const key = ((await dialog.getByTestId('recovery-key').textContent()) ?? '').trim()
  expect(key).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){6}$/)
  if (photograph) await bothThemes(page, 'recovery-key-dialog')
  await expect(dialog.getByRole('button', { name: 'Done' })).toBeDisabled()
  const download = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Download .txt' }).click()
  expect((await download).suggestedFilename()).toBe('wren-message-recovery-key.txt')
  await dialog.getByRole('checkbox', { name: 'I saved my recovery key' }).check()
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByText('On: a password reset keeps your direct messages readable.')).toBeVisible()
  return key
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: /log ?out/i }).first().click()
  await expect(page).toHaveURL(/\/login$/)
}

/** Forgot password from the login screen, then the link from the mail. */
async function followResetLink(page: Page, username: string, photograph: boolean): Promise<string> {
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(page).toHaveURL(/\/forgot-password$/)
  await page.getByLabel('Username or email').fill(username)
  if (photograph) await bothThemes(page, 'forgot-password')
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByRole('main').getByRole('status')).toContainText('If an account has that username or email')
  const mail = await waitForMail(`${username}@example.test`, /Reset your password/)
  const url = linkIn(mail, '/reset-password')
  await page.goto(url)
  return url
}

async function chooseNewPassword(page: Page) {
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD)
  await page.getByRole('button', { name: 'Reset password' }).click()
  await expect(page.getByRole('main').getByRole('status')).toContainText('Your password is reset.')
}

async function logInWith(page: Page, username: string, password: string) {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: /log in/i }).click()
  await expect(page).toHaveURL(/\/$/)
}

test('reset with the recovery key: the history stays readable', async ({ browser }) => {
  test.setTimeout(360_000)
  const ada = { username: uniqueUsername('rka'), name: 'Ada Keeper' }
  const ben = { username: uniqueUsername('rkb'), name: 'Ben Keeper' }
  const a = await inBrowser(browser, ada)
  const b = await inBrowser(browser, ben)
  const MESSAGE = 'Kept through the reset, thanks to the key'
  const conversation = await write(a.page, ben, MESSAGE)

  const recoveryKey = await createRecoveryKey(a.page, true)
  await logOut(a.page)
  const link = await followResetLink(a.page, ada.username, true)

  await expect(a.page.getByRole('heading', { name: 'Enter your recovery key' })).toBeVisible()
  await bothThemes(a.page, 'reset-recovery-key')
  // A wrong key is said at once, and nothing is sent.
  await a.page.getByLabel('Message recovery key').fill('AAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA')
  await a.page.getByRole('button', { name: 'Continue' }).click()
  await expect(a.page.getByText('This recovery key does not open your message key.')).toBeVisible()
  // Typed in lower case with spaces: still the key.
  await a.page.getByLabel('Message recovery key').fill(recoveryKey.toLowerCase().replace(/-/g, ' '))
  await a.page.getByRole('button', { name: 'Continue' }).click()
  await expect(a.page.getByText('Recovery key accepted: your direct messages stay readable.')).toBeVisible()
  await bothThemes(a.page, 'reset-new-password')
  await chooseNewPassword(a.page)

  // The link is spent.
  await a.page.goto(link)
  await expect(a.page.getByRole('heading', { name: "This link doesn't work" })).toBeVisible()
  await bothThemes(a.page, 'reset-link-invalid')

  await logInWith(a.page, ada.username, NEW_PASSWORD)
  await a.page.goto(conversation)
  await expect(history(a.page).getByRole('listitem').filter({ hasText: MESSAGE })).toBeVisible()
  // Ben's side is unchanged: the same key pair, no warning.
  await b.page.goto(conversation)
  await expect(history(b.page).getByRole('listitem').filter({ hasText: MESSAGE })).toBeVisible({ timeout: 20_000 })
  await expect(b.page.getByRole('alert', { name: 'Safety number changed' })).toHaveCount(0)
  await a.context.close()
  await b.context.close()
})

test("reset without it: old messages are marked, the contact sees the safety number changed", async ({ browser }) => {
  test.setTimeout(360_000)
  const cat = { username: uniqueUsername('rkc'), name: 'Cat Lostkey' }
  const dan = { username: uniqueUsername('rkd'), name: 'Dan Contact' }
  const c = await inBrowser(browser, cat)
  const d = await inBrowser(browser, dan)
  const MESSAGE = 'Written before the key was lost'
  const conversation = await write(c.page, dan, MESSAGE)
  await d.page.goto(conversation)
  await expect(history(d.page).getByRole('listitem').filter({ hasText: MESSAGE })).toBeVisible()

  await createRecoveryKey(c.page, false)
  await logOut(c.page)
  await followResetLink(c.page, cat.username, false)
  await c.page.getByRole('button', { name: "I don't have it" }).click()
  await expect(c.page.getByRole('alert')).toContainText("Your earlier direct messages can't be decrypted on this account any more")
  await bothThemes(c.page, 'reset-confirm-loss')
  await c.page.getByRole('button', { name: 'Reset without it' }).click()
  await chooseNewPassword(c.page)

  await logInWith(c.page, cat.username, NEW_PASSWORD)
  await c.page.goto(conversation)
  await expect(history(c.page).getByText("This message can't be decrypted on this account any more")).toBeVisible({ timeout: 15_000 })
  await expect(history(c.page).getByText(MESSAGE)).toHaveCount(0)
  await shot(c.page, 'reset-undecryptable-light')

  await d.page.reload()
  await expect(d.page.getByRole('alert', { name: 'Safety number changed' })).toContainText(`${cat.name}'s safety number changed`)
  await expect(history(d.page).getByText("This message can't be decrypted on this account any more")).toBeVisible()
  await shot(d.page, 'reset-contact-key-changed-light')
  await c.context.close()
  await d.context.close()
})
