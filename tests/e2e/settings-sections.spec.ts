import { test, expect, type Page } from '@playwright/test'
import { logIn, type Member, register, setTheme, shot } from './support/members'

// The Settings page made whole (docs/product.md, "Settings"): `?tab=` selects each section, and for lists, bookmarks,
// mutes, reports and analytics opens its dialog at once; Escape, the backdrop and the close button close it, and
// focus comes back to the page; the section's button opens it again. Quick Actions and the shell's Lists, Bookmarks
// and Analytics items lead to the right dialog. Screenshots (light and dark, desktop and phone).

let robin: Member

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  robin = await register(request, 'robin', 'Robin Wren')
})

const sectionTitle = (page: Page) => page.getByRole('heading', { level: 2 }).filter({ has: page.locator('#settings-section-title') }).or(page.locator('#settings-section-title'))

const DIALOGS = [
  { tab: 'lists', section: 'Lists', dialog: 'Manage Lists', button: 'Manage Lists' },
  { tab: 'bookmarks', section: 'Bookmarks', dialog: 'Bookmarks', button: 'Manage Bookmarks' },
  { tab: 'mutes', section: 'Mutes', dialog: 'Mute Management', button: 'Manage Mutes' },
  { tab: 'reports', section: 'Reports', dialog: 'Reports Management', button: 'View Reports' },
  { tab: 'analytics', section: 'Analytics', dialog: 'Analytics Dashboard', button: 'View Analytics' },
] as const

test('?tab=profile shows Profile and opens no dialog', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/settings?tab=profile')
  await expect(sectionTitle(page)).toHaveText('Profile')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeVisible()
})

for (const { tab, section, dialog, button } of DIALOGS) {
  test(`?tab=${tab} selects ${section} and opens ${dialog}; Escape and the backdrop close it; ${button} reopens it`, async ({ page }) => {
    await logIn(page, robin)
    await page.goto(`/settings?tab=${tab}`)
    const opened = page.getByRole('dialog', { name: dialog })
    await expect(opened).toBeVisible()
    await expect(sectionTitle(page)).toHaveText(section)
    // Focus is inside the dialog.
    await expect(opened.locator(':focus')).toHaveCount(1)
    await page.keyboard.press('Escape')
    await expect(opened).toHaveCount(0)
    const reopen = page.getByRole('button', { name: button })
    await reopen.click()
    await expect(page.getByRole('dialog', { name: dialog })).toBeVisible()
    // A click on the backdrop closes it too, and focus returns to the button that opened it.
    await page.mouse.click(10, 10)
    await expect(page.getByRole('dialog', { name: dialog })).toHaveCount(0)
    await expect(reopen).toBeFocused()
  })
}

test('Quick Actions lead to the right section and dialog', async ({ page }) => {
  await logIn(page, robin)
  const actions = [
    ['Manage Lists', 'Manage Lists'],
    ['View Bookmarks', 'Bookmarks'],
    ['Analytics', 'Analytics Dashboard'],
    ['Mute Settings', 'Mute Management'],
    ['Reports', 'Reports Management'],
  ] as const
  for (const [item, dialog] of actions) {
    await page.goto('/')
    await page.getByRole('button', { name: 'Quick Actions' }).click()
    await page.getByRole('menuitem', { name: item }).click()
    await expect(page.getByRole('dialog', { name: dialog })).toBeVisible()
    await page.getByRole('dialog', { name: dialog }).getByRole('button', { name: 'Close' }).click()
    await expect(page.getByRole('dialog', { name: dialog })).toHaveCount(0)
  }
})

test("the shell's Lists, Bookmarks and Analytics open their dialogs", async ({ page }) => {
  await logIn(page, robin)
  const nav = page.getByRole('navigation', { name: /main/i }).first()
  for (const [item, dialog] of [
    ['Lists', 'Manage Lists'],
    ['Bookmarks', 'Bookmarks'],
    ['Analytics', 'Analytics Dashboard'],
  ] as const) {
    await page.goto('/')
    await nav.getByRole('link', { name: item, exact: true }).click()
    await expect(page.getByRole('dialog', { name: dialog })).toBeVisible()
    await page.keyboard.press('Escape')
  }
})

test('on a phone the sections are a drop-down; choosing one changes the address and the section', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await logIn(page, robin)
  await page.goto('/settings')
  const select = page.getByLabel('Section', { exact: true })
  await expect(select).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Settings sections' })).toBeHidden()
  await select.selectOption('reports')
  await expect(page).toHaveURL(/tab=reports/)
  await expect(page.getByRole('dialog', { name: 'Reports Management' })).toBeVisible()
  await page.keyboard.press('Escape')
  await select.selectOption('appearance')
  await expect(sectionTitle(page)).toHaveText('Appearance')
  // Change Password at the top opens Security and the password dialog.
  await page.getByRole('button', { name: 'Change Password' }).first().click()
  await expect(page.getByRole('dialog', { name: 'Change Password' })).toBeVisible()
  await expect(sectionTitle(page)).toHaveText('Security')
})

test('screenshots: a section and a dialog, light and dark, desktop and phone', async ({ page }) => {
  await logIn(page, robin)
  for (const [device, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme)
      await page.setViewportSize(viewport)
      await page.goto('/settings?tab=analytics')
      await expect(page.getByRole('dialog', { name: 'Analytics Dashboard' })).toBeVisible()
      await shot(page, `settings-analytics-dialog-${device}-${theme}`)
      await page.keyboard.press('Escape')
      await expect(page.getByRole('button', { name: 'View Analytics' })).toBeVisible()
      await shot(page, `settings-analytics-section-${device}-${theme}`)
    }
  }
})
