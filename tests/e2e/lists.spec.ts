import { mkdirSync } from 'node:fs'
import { test, expect, type Page } from '@playwright/test'
import { logIn, type Member, publish, register, setTheme, toastSaying } from './support/members'
import { audit } from './support/audit'

// Lists, walked in a real browser against the real server (docs/product.md, "Lists"): Robin makes a list in Settings
// -> Lists (the sidebar's Lists item opens it), adds Ann and Bob through the member search, opens the list's page and
// reads their posts; Cat subscribes to it from her own browser; Robin takes Ann off and back on from Ann's profile
// (Add to list) and finally deletes the list, which asks first. Screenshots of the dialog and the list page, light and
// dark, desktop and phone, go to /tmp/lists-shots/.

const SHOTS = '/tmp/lists-shots'

let robin: Member
let ann: Member
let bob: Member
let cat: Member
let listUrl = ''

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  robin = await register(request, 'robin', 'Robin Wren')
  ann = await register(request, 'ann', 'Ann Estuary')
  bob = await register(request, 'bob', 'Bob Marsh')
  cat = await register(request, 'cat', 'Cat Heron')
  await publish(request, ann, { content: 'Avocets feeding at dawn' })
  await publish(request, bob, { content: 'A curlew on the saltmarsh' })
  await publish(request, cat, { content: 'Cat is not on the list' })
  mkdirSync(SHOTS, { recursive: true })
})

const listsDialog = (page: Page) => page.getByRole('dialog', { name: 'Manage Lists' })

async function addMember(page: Page, member: Member) {
  const dialog = listsDialog(page)
  await dialog.getByLabel('Add members').fill(member.username)
  const result = dialog.getByRole('list', { name: 'Search results' }).getByRole('listitem').filter({ hasText: `@${member.username}` })
  await result.getByRole('button', { name: `Add @${member.username}` }).click()
  await expect(toastSaying(page, 'Added to list')).toBeVisible()
  await expect(dialog.getByRole('list', { name: 'Members of Shorebirds' }).getByText(`@${member.username}`)).toBeVisible()
}

test('make a list from the dialog, add two members, read its timeline', async ({ page }) => {
  await logIn(page, robin)
  // The sidebar's Lists item opens Settings -> Lists and its dialog.
  await page.getByRole('navigation').getByRole('link', { name: 'Lists' }).first().click()
  const dialog = listsDialog(page)
  await expect(dialog).toBeVisible()
  await expect(dialog.getByText('No lists yet')).toBeVisible()

  await dialog.getByRole('button', { name: 'New List' }).click()
  const form = dialog.getByRole('form', { name: 'New list' })
  await form.getByRole('button', { name: 'Create' }).click()
  await expect(form.getByText('Name is required')).toBeVisible()
  await form.getByLabel('Name').fill('x'.repeat(51))
  await expect(form.getByText('Name must be at most 50 characters')).toHaveCount(0)
  await form.getByRole('button', { name: 'Create' }).click()
  await expect(form.getByText('Name must be at most 50 characters')).toBeVisible()
  await form.getByLabel('Name').fill('  Shorebirds  ')
  await form.getByLabel('Description').fill('Waders of the estuary')
  await form.getByRole('button', { name: 'Create' }).click()
  await expect(toastSaying(page, 'List created successfully')).toBeVisible()
  const own = dialog.getByRole('list', { name: 'Your lists' })
  await expect(own.getByRole('link', { name: 'Shorebirds' })).toBeVisible()
  await expect(own.getByText(/0 members/)).toBeVisible()

  // Members: the search needs two characters and waits for the member to stop typing.
  await dialog.getByRole('button', { name: 'Members of Shorebirds' }).click()
  await expect(dialog.getByText('No members yet. Search above to add some.')).toBeVisible()
  await dialog.getByLabel('Add members').fill('a')
  await expect(dialog.getByRole('list', { name: 'Search results' })).toHaveCount(0)
  await addMember(page, ann)
  await addMember(page, bob)
  await expect(dialog.getByText('2 members')).toBeVisible()

  // The list's page: its name, description, count, members and their posts (not Cat's).
  await dialog.getByRole('link', { name: 'Shorebirds' }).click()
  await expect(page).toHaveURL(/\/lists\/[0-9a-f-]+$/)
  listUrl = new URL(page.url()).pathname
  const about = page.getByRole('region', { name: 'About this list' })
  await expect(about.getByRole('heading', { name: 'Shorebirds' })).toBeVisible()
  await expect(about.getByText('Waders of the estuary')).toBeVisible()
  await expect(about.getByText('2 members')).toBeVisible()
  await expect(about.getByRole('list', { name: 'Members' }).getByRole('link')).toHaveCount(2)
  // The member count opens the Members dialog (paged with Load more, none here: two members are one page).
  await about.getByRole('button', { name: '2 members' }).click()
  const members = page.getByRole('dialog', { name: 'Members' })
  await expect(members.getByRole('list', { name: 'Members of Shorebirds' }).getByRole('listitem')).toHaveCount(2)
  await expect(members.getByRole('button', { name: 'Load more' })).toHaveCount(0)
  await members.getByRole('button', { name: 'Close' }).click()
  await expect(members).toHaveCount(0)
  const timeline = page.getByRole('feed', { name: 'Posts in Shorebirds' })
  await expect(timeline.getByRole('article')).toHaveCount(2)
  await expect(timeline.getByRole('article').first()).toContainText('A curlew on the saltmarsh')
  await expect(timeline.getByRole('article').nth(1)).toContainText('Avocets feeding at dawn')
  await expect(timeline).not.toContainText('Cat is not on the list')
  // One's own list offers Manage, not Subscribe.
  await expect(about.getByRole('button', { name: 'Subscribe' })).toHaveCount(0)
})

test('another member subscribes from their own browser', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL })
  const page = await context.newPage()
  await logIn(page, cat)
  await page.goto(listUrl)
  const about = page.getByRole('region', { name: 'About this list' })
  await expect(about.getByText(`@${robin.username}`)).toBeVisible()
  await expect(about.getByText('0 subscribers')).toBeVisible()
  await about.getByRole('button', { name: 'Subscribe' }).click()
  await expect(toastSaying(page, 'Subscribed to list')).toBeVisible()
  await expect(about.getByRole('button', { name: 'Unsubscribe' })).toBeVisible()
  await expect(about.getByText('1 subscriber')).toBeVisible()
  await expect(page.getByRole('feed', { name: 'Posts in Shorebirds' }).getByRole('article')).toHaveCount(2)

  // It shows beside her own lists, under Subscribed.
  await page.goto('/settings?tab=lists')
  const subscribed = listsDialog(page).getByRole('list', { name: 'Subscribed lists' })
  await expect(subscribed.getByRole('link', { name: 'Shorebirds' })).toBeVisible()
  await expect(subscribed.getByText(/2 members · 1 subscriber/)).toBeVisible()
  await context.close()
})

test("Add to list from a member's profile", async ({ page }) => {
  await logIn(page, robin)
  await page.goto(`/profile/${ann.username}`)
  await page.getByRole('button', { name: 'Add to list' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add to list' })
  const box = dialog.getByRole('checkbox', { name: /Shorebirds/ })
  await expect(box).toBeChecked()
  await box.uncheck()
  await expect(toastSaying(page, 'Removed from list')).toBeVisible()
  await expect(box).not.toBeChecked()
  await expect(dialog.getByText('1 member')).toBeVisible()
  await box.check()
  await expect(toastSaying(page, 'Added to list')).toBeVisible()
  await expect(box).toBeChecked()
  await expect(dialog.getByText('2 members')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
})

test('screenshots: Manage Lists and the list page, light and dark, desktop and phone', async ({ page }) => {
  await logIn(page, robin)
  for (const [device, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme)
      await page.setViewportSize(viewport)
      await page.goto('/settings?tab=lists')
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/)
      const dialog = listsDialog(page)
      await expect(dialog.getByRole('list', { name: 'Your lists' })).toBeVisible()
      await page.screenshot({ path: `${SHOTS}/manage-lists-${device}-${theme}.png` })
      await audit(page, `manage-lists-${device}-${theme}`)
      await dialog.getByRole('button', { name: 'Members of Shorebirds' }).click()
      // Typed once the members are shown: the search box takes text only then (lists.machine.ts `browsing`).
      await expect(dialog.getByRole('list', { name: 'Members of Shorebirds' })).toBeVisible()
      await dialog.getByLabel('Add members').fill(cat.username)
      await expect(dialog.getByRole('list', { name: 'Search results' })).toBeVisible()
      await page.screenshot({ path: `${SHOTS}/manage-lists-members-${device}-${theme}.png` })
      await audit(page, `manage-lists-members-${device}-${theme}`)
      await page.keyboard.press('Escape')
      await page.goto(listUrl)
      await expect(page.getByRole('feed', { name: 'Posts in Shorebirds' }).getByRole('article').first()).toBeVisible()
      await page.screenshot({ path: `${SHOTS}/list-page-${device}-${theme}.png` })
      await audit(page, `list-page-${device}-${theme}`)
    }
  }
})

test('delete the list with the confirmation; it is gone for everyone', async ({ page, browser, baseURL }) => {
  await logIn(page, robin)
  await page.goto('/settings?tab=lists')
  const dialog = listsDialog(page)
  await dialog.getByRole('button', { name: 'Delete Shorebirds' }).click()
  const confirm = dialog.getByRole('alertdialog', { name: 'Delete list' })
  await expect(confirm.getByText('Are you sure you want to delete this list?')).toBeVisible()
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(dialog.getByRole('link', { name: 'Shorebirds' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Delete Shorebirds' }).click()
  await dialog.getByRole('alertdialog', { name: 'Delete list' }).getByRole('button', { name: 'Delete' }).click()
  await expect(toastSaying(page, 'List deleted successfully')).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Shorebirds' })).toHaveCount(0)
  await expect(dialog.getByText('No lists yet')).toBeVisible()

  const context = await browser.newContext({ baseURL })
  const other = await context.newPage()
  await logIn(other, cat)
  await other.goto(listUrl)
  await expect(other.getByRole('heading', { name: 'List not found' })).toBeVisible()
  await context.close()
})
