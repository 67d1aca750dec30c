import { test, expect as baseExpect, type Page } from '@playwright/test'
import { PASSWORD, registerThroughForm, setTheme, shot, uniqueUsername } from './support/members'
import { linkIn, waitForMail } from './support/outbox'

// Email verification, walked in Chromium (docs/product.md, "Email"): a new member sees the quiet banner, opens the
// link from the outbox and the banner is gone; then changes their address in Settings -> Account (the password is
// refused when wrong), the old address is told, and the new one becomes theirs only once its link is opened, here in
// another browser where nobody is signed in. The Account section, the dialog and /verify-email (signed in and out)
// are photographed in light and dark.

test.describe.configure({ mode: 'serial' })

// Each step derives the password in the browser (argon2id) or loads a screen's code on its first visit: on a busy
// 2-core machine that takes longer than the suite's default wait.
const expect = baseExpect.configure({ timeout: 30_000 })

const username = uniqueUsername('mail')
const email = `${username}@example.test`
const newEmail = `${username}.new@example.org`

/** Switches the theme in place, as the theme actor does (src/main.tsx), and lets colour transitions finish. */
async function paint(page: Page, theme: 'light' | 'dark') {
  await setTheme(page, theme)
  await page.evaluate((value) => {
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

test('register, see the banner, open the mailed link, banner gone; change email through Account', async ({ page, browser }) => {
  test.setTimeout(300_000)
  await registerThroughForm(page, { username, name: 'Mail Wren' })
  const banner = page.getByTestId('email-banner')
  await expect(banner).toContainText(`Confirm your email: we sent a link to ${username[0]}***@example.test.`)
  await bothThemes(page, 'email-banner')

  // Mail it again from the banner: a second mail with a new link (the first one stops working), and the toast says so.
  const first = linkIn(await waitForMail(email, /Confirm your email/), '/verify-email')
  await banner.getByRole('button', { name: 'Mail it again' }).click()
  await expect(page.getByText('We sent you a new link')).toBeVisible()
  await expect.poll(async () => linkIn(await waitForMail(email, /Confirm your email/), '/verify-email'), { timeout: 20_000 }).not.toBe(first)
  const mail = await waitForMail(email, /Confirm your email/)

  await page.goto(linkIn(mail, '/verify-email'))
  // The page's code loads on its first visit; on a busy machine that can take a while.
  await expect(page.getByRole('heading', { name: 'Email confirmed' })).toBeVisible()
  await expect(page.getByText(`${email} is confirmed.`)).toBeVisible()
  await expect(page.getByTestId('email-banner')).toHaveCount(0)
  await bothThemes(page, 'verify-email-signed-in')
  await page.getByRole('link', { name: 'Go to Home' }).click()
  await expect(page.getByTestId('email-banner')).toHaveCount(0)

  // Account: the address; Change email asks for the password.
  await page.goto('/settings?tab=account')
  await expect(page.getByTestId('account-email')).toHaveText(email)
  await page.getByRole('button', { name: 'Change email' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: 'Change email' })).toBeVisible()
  await dialog.getByLabel('New email').fill(newEmail)
  await dialog.getByLabel('Password').fill('Wrong-Password-1')
  await dialog.getByRole('button', { name: 'Send link' }).click()
  await expect(dialog.getByText('Current password is incorrect')).toBeVisible()
  await bothThemes(page, 'change-email-dialog')
  await dialog.getByLabel('Password').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Send link' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.getByText(`Check ${newEmail} for a link to confirm it`)).toBeVisible()
  await expect(page.getByText(`Changing to ${newEmail}`)).toBeVisible()
  await expect(page.getByTestId('account-email')).toHaveText(email)
  await bothThemes(page, 'account-email-pending')

  // The old address is told, with the new one masked and no link.
  const notice = await waitForMail(email, /Your email is being changed/)
  expect(notice.text).toContain(`${username[0]}***@example.org`)
  expect(notice.text).not.toContain(newEmail)

  // The new address's link, opened in another browser where nobody is signed in.
  const link = linkIn(await waitForMail(newEmail, /Confirm your new email/), '/verify-email')
  const other = await browser.newContext()
  const elsewhere = await other.newPage()
  await elsewhere.goto(link)
  await expect(elsewhere.getByRole('heading', { name: 'Email confirmed' })).toBeVisible()
  await expect(elsewhere.getByText(`${newEmail} is confirmed.`)).toBeVisible()
  await bothThemes(elsewhere, 'verify-email-signed-out')
  // Opened again: used.
  await elsewhere.reload()
  await expect(elsewhere.getByText(/This link has expired or was already used/)).toBeVisible()
  await shot(elsewhere, 'verify-email-used-light')
  await other.close()

  // Back in the member's browser, the next check of the session shows the new address.
  await page.reload()
  await expect(page.getByTestId('account-email')).toHaveText(newEmail)
  await expect(page.getByText(/Changing to/)).toHaveCount(0)
})
