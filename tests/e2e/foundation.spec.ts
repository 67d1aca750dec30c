import { test, expect, type Page } from '@playwright/test'
import { audit } from './support/audit'

// A new member's first minutes: sent to /login, registers (after tripping every validation message),
// lands on Home inside the shell, toggles the theme, logs out, and logs back in by email.
const stamp = Date.now().toString(36)
const member = {
  username: `wren_${stamp}`,
  email: `Wren.${stamp}@Example.org`,
  displayName: 'Robin Wren',
  password: 'Sparrow2026',
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true })
  await audit(page, name)
}

test.describe.configure({ mode: 'serial' })

test('a visitor is sent to /login from any path', async ({ page }) => {
  await page.goto('/settings')
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByLabel(/username or email/i)).toBeVisible()
  await shot(page, 'login-light')
})

test('registering with bad values shows the message of each broken rule', async ({ page }) => {
  await page.goto('/register')
  await page.getByRole('button', { name: /create account|sign up/i }).click()
  for (const message of ['Username is required', 'Email is required', 'Display name is required',
    'Password is required', 'Please confirm your password', 'You must accept the terms']) {
    await expect(page.getByText(message, { exact: true })).toBeVisible()
  }
  await page.getByLabel('Username').fill('ab')
  await page.getByLabel('Email').fill('not an email')
  await page.getByLabel('Display name').fill('x'.repeat(51))
  await page.getByLabel('Password', { exact: true }).fill('short')
  await page.getByLabel('Confirm password').fill('different')
  await page.getByRole('button', { name: /create account|sign up/i }).click()
  await expect(page.getByText('Minimum 3 characters', { exact: true })).toBeVisible()
  await expect(page.getByText('Invalid email address', { exact: true })).toBeVisible()
  await expect(page.getByText('Maximum 50 characters', { exact: true })).toBeVisible()
  await expect(page.getByText('Minimum 8 characters', { exact: true })).toBeVisible()
  await expect(page.getByText('Passwords do not match', { exact: true })).toBeVisible()

  await page.getByLabel('Username').fill('has space!')
  await page.getByLabel('Password', { exact: true }).fill('alllowercase1')
  await page.getByRole('button', { name: /create account|sign up/i }).click()
  await expect(page.getByText('Only letters, numbers, and underscores allowed', { exact: true })).toBeVisible()
  await expect(page.getByText('Must contain uppercase, lowercase, and number', { exact: true })).toBeVisible()
  await page.getByLabel('Username').fill('x'.repeat(31))
  await page.getByRole('button', { name: /create account|sign up/i }).click()
  await expect(page.getByText('Maximum 30 characters', { exact: true })).toBeVisible()
  await shot(page, 'register-errors-light')
})

test('registering lands on Home inside the shell; theme survives reload; logout returns to /login', async ({ page }) => {
  await page.goto('/register')
  await page.getByLabel('Username').fill(member.username)
  await page.getByLabel('Email').fill(member.email)
  await page.getByLabel('Display name').fill(member.displayName)
  await page.getByLabel('Password', { exact: true }).fill(member.password)
  await page.getByLabel('Confirm password').fill(member.password)
  await page.getByRole('checkbox', { name: /terms/i }).check()
  await page.getByRole('button', { name: /create account|sign up/i }).click()

  await expect(page).toHaveURL(/\/$/)
  const nav = page.getByRole('navigation', { name: /main/i })
  await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible()
  await expect(page.getByText(`@${member.username}`).first()).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()
  await shot(page, 'home-light')

  // The first account of a fresh instance is its admin: the Admin entry shows.
  await expect(nav.getByRole('link', { name: 'Admin' })).toBeVisible()

  await expect(page.locator('html')).not.toHaveClass(/dark/)
  await page.getByRole('button', { name: /dark mode|toggle theme|switch to dark/i }).first().click()
  await expect(page.locator('html')).toHaveClass(/dark/)
  await page.reload()
  await expect(page.locator('html')).toHaveClass(/dark/)
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()
  await shot(page, 'home-dark')

  await page.goto('/settings')
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible()
  await shot(page, 'settings-dark')

  await page.getByRole('button', { name: /log ?out/i }).first().click()
  await expect(page).toHaveURL(/\/login$/)
  await shot(page, 'login-dark')
  const stored = await page.evaluate(() => localStorage.getItem('auth-storage'))
  expect(stored ?? '').not.toContain('"token":"')
})

test('login by email (any case) works, and a wrong password shows the server message', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(member.email.toUpperCase())
  await page.getByLabel('Password').fill('Wrong-password1')
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page.getByText('Invalid username or password')).toBeVisible()

  await page.getByLabel('Password').fill(member.password)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByText(`@${member.username}`).first()).toBeVisible()
})

test('change password from Settings -> Security, then the new password logs in', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(member.username)
  await page.getByLabel('Password').fill(member.password)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)

  await page.goto('/settings')
  await page.getByRole('button', { name: 'Change Password' }).first().click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Current password').fill(member.password)
  await dialog.getByLabel('New password', { exact: true }).fill('short')
  await dialog.getByLabel(/confirm new password/i).fill('shorter')
  await dialog.getByRole('button', { name: /change password|save|update/i }).click()
  await expect(dialog.getByText('New passwords do not match')).toBeVisible()
  await dialog.getByLabel('New password', { exact: true }).fill('short')
  await dialog.getByLabel(/confirm new password/i).fill('short')
  await dialog.getByRole('button', { name: /change password|save|update/i }).click()
  await expect(dialog.getByText('New password must be at least 8 characters long')).toBeVisible()
  await shot(page, 'change-password-dark-or-light')
  const next = 'Nightingale2027'
  await dialog.getByLabel('New password', { exact: true }).fill(next)
  await dialog.getByLabel(/confirm new password/i).fill(next)
  await dialog.getByRole('button', { name: /change password|save|update/i }).click()
  await expect(page.getByText('Password changed successfully!')).toBeVisible()
  member.password = next

  await page.getByRole('button', { name: /log ?out/i }).first().click()
  await page.getByLabel(/username or email/i).fill(member.username)
  await page.getByLabel('Password').fill(next)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
})

test('a stale stored token is cleared by the me-check and the visitor lands on /login', async ({ page }) => {
  await page.goto('/login')
  await page.evaluate(() => localStorage.setItem('auth-storage', JSON.stringify({
    user: { id: 'gone', username: 'ghost', displayName: 'Ghost', avatar: null, isAdmin: false },
    token: 'revoked-token', privateKey: null, isAuthenticated: true,
  })))
  await page.goto('/')
  await expect(page).toHaveURL(/\/login$/)
  const stored = await page.evaluate(() => localStorage.getItem('auth-storage'))
  expect(stored ?? '').not.toContain('revoked-token')
})

test('the phone layout has a bottom bar with the first five items', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(member.username)
  await page.getByLabel('Password').fill(member.password)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
  const bar = page.getByRole('navigation', { name: /bottom/i })
  for (const item of ['Home', 'Explore', 'Search', 'Messages', 'Notifications']) {
    await expect(bar.getByRole('link', { name: item })).toBeVisible()
  }
  await shot(page, 'home-phone')
  await page.getByRole('button', { name: /open menu|menu/i }).first().click()
  await expect(page.getByRole('dialog', { name: /menu/i }).getByRole('link', { name: 'Settings' })).toBeVisible()
  await shot(page, 'menu-phone')
})
