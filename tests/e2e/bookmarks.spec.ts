import { test, expect, type Page } from '@playwright/test'
import { follow, logIn, type Member, publish, register, setTheme, shot, toastSaying } from './support/members'

// Bookmarks and collections, walked in a real browser against the real server (docs/product.md, "Bookmarks"):
// Robin bookmarks three of Ann's posts from Home with the cards' bookmark buttons, makes a collection in Settings ->
// Bookmarks, files one post in it, opens it, and removes another bookmark; Home's cards follow. Screenshots of the
// dialog (light and dark, desktop and phone) go to test-results/screens/.

let robin: Member
let ann: Member
const posts = ['Avocets feeding at dawn', 'A curlew on the saltmarsh', 'Godwits over the estuary']

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  robin = await register(request, 'robin', 'Robin Wren')
  ann = await register(request, 'ann', 'Ann Estuary')
  await follow(request, robin, ann)
  for (const content of posts) await publish(request, ann, { content })
})

const cardWith = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text }).first()
const bookmarksDialog = (page: Page) => page.getByRole('dialog', { name: 'Bookmarks' })
const savedPosts = (page: Page) => bookmarksDialog(page).getByRole('list', { name: 'Saved posts' })

test('bookmark three posts, make a collection, file one, remove one', async ({ page }) => {
  await logIn(page, robin)
  for (const text of posts) {
    const button = cardWith(page, text).getByRole('button', { name: 'Bookmark', exact: true })
    await button.click()
    await expect(cardWith(page, text).getByRole('button', { name: 'Remove bookmark' })).toHaveAttribute('aria-pressed', 'true')
  }

  await page.goto('/settings?tab=bookmarks')
  const dialog = bookmarksDialog(page)
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('tab', { name: 'Bookmarks' })).toHaveAttribute('aria-selected', 'true')
  // Newest bookmark first.
  await expect(savedPosts(page).getByRole('article')).toHaveCount(3)
  await expect(savedPosts(page).getByRole('article').first()).toContainText(posts[2]!)

  // A collection: New Collection is on the Collections tab; the name is required.
  await dialog.getByRole('tab', { name: 'Collections' }).click()
  await expect(dialog.getByText('No collections yet')).toBeVisible()
  await dialog.getByRole('button', { name: 'New Collection' }).click()
  const form = dialog.getByRole('form', { name: 'New collection' })
  await form.getByRole('button', { name: 'Create' }).click()
  await expect(form.getByText('Name is required')).toBeVisible()
  await form.getByLabel('Name').fill('  Waders  ')
  await form.getByLabel('Description').fill('Long legs, long bills')
  await form.getByRole('button', { name: 'Create' }).click()
  await expect(toastSaying(page, 'Collection created successfully')).toBeVisible()
  const collections = dialog.getByRole('list', { name: 'Collections' })
  await expect(collections.getByText('Waders', { exact: true })).toBeVisible()
  await expect(collections.getByText('0 posts')).toBeVisible()

  // File the curlew in it.
  await dialog.getByRole('tab', { name: 'Bookmarks' }).click()
  const curlew = savedPosts(page).getByRole('listitem').filter({ hasText: posts[1]! })
  await curlew.getByRole('button', { name: 'Add to collection' }).click()
  await curlew.getByRole('group', { name: 'Add to collection' }).getByRole('button', { name: 'Waders' }).click()
  await expect(toastSaying(page, 'Added to collection')).toBeVisible()
  await expect(curlew.getByText('In Waders')).toBeVisible()

  // The collection counts it and shows it as a post card.
  await dialog.getByRole('tab', { name: 'Collections' }).click()
  await expect(collections.getByText(/^1 post/)).toBeVisible()
  await dialog.getByRole('button', { name: 'Open Waders' }).click()
  const inWaders = dialog.getByRole('list', { name: 'Posts in Waders' })
  await expect(inWaders.getByRole('article')).toHaveCount(1)
  await expect(inWaders.getByRole('article')).toContainText(posts[1]!)
  await dialog.getByRole('button', { name: 'All collections' }).click()

  // Edit it.
  await dialog.getByRole('button', { name: 'Edit Waders' }).click()
  const edit = dialog.getByRole('form', { name: 'Edit collection' })
  await expect(edit.getByLabel('Name')).toHaveValue('Waders')
  await edit.getByLabel('Name').fill('Shorebirds')
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(toastSaying(page, 'Collection updated successfully')).toBeVisible()
  await expect(collections.getByText('Shorebirds', { exact: true })).toBeVisible()

  // Remove the avocets' bookmark.
  await dialog.getByRole('tab', { name: 'Bookmarks' }).click()
  await savedPosts(page).getByRole('listitem').filter({ hasText: posts[0]! }).getByRole('button', { name: /^Remove bookmark of/ }).click()
  await expect(toastSaying(page, 'Bookmark removed')).toBeVisible()
  await expect(savedPosts(page).getByRole('article')).toHaveCount(2)
  await expect(savedPosts(page)).not.toContainText(posts[0]!)

  // Escape closes the dialog, and focus goes back to the page.
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)

  // Home's cards show the same: two saved, the avocets not.
  await page.goto('/')
  await expect(cardWith(page, posts[0]!).getByRole('button', { name: 'Bookmark', exact: true })).toHaveAttribute('aria-pressed', 'false')
  await expect(cardWith(page, posts[1]!).getByRole('button', { name: 'Remove bookmark' })).toBeVisible()

  // A reload keeps it all (the server's answer).
  await page.goto('/settings?tab=bookmarks')
  await expect(savedPosts(page).getByRole('article')).toHaveCount(2)
})

test('the card button removes a bookmark at once, and the post page has the same button', async ({ page }) => {
  await logIn(page, robin)
  await cardWith(page, posts[2]!).getByRole('button', { name: 'Remove bookmark' }).click()
  await expect(toastSaying(page, 'Bookmark removed')).toBeVisible()
  await expect(cardWith(page, posts[2]!).getByRole('button', { name: 'Bookmark', exact: true })).toBeVisible()
  await cardWith(page, posts[2]!).getByText(posts[2]!).click()
  await expect(page).toHaveURL(/\/post\//)
  const button = page.getByRole('article').first().getByRole('button', { name: 'Bookmark', exact: true })
  await button.click()
  await expect(page.getByRole('article').first().getByRole('button', { name: 'Remove bookmark' })).toHaveAttribute('aria-pressed', 'true')
  await page.goto('/settings?tab=bookmarks')
  await expect(savedPosts(page).getByRole('article').first()).toContainText(posts[2]!)
})

test('screenshots: the Bookmarks dialog, light and dark, desktop and phone', async ({ page }) => {
  await logIn(page, robin)
  for (const [device, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme)
      await page.setViewportSize(viewport)
      await page.goto('/settings?tab=bookmarks')
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/)
      const dialog = bookmarksDialog(page)
      await expect(savedPosts(page).getByRole('article').first()).toBeVisible()
      await shot(page, `bookmarks-dialog-${device}-${theme}`)
      await dialog.getByRole('tab', { name: 'Collections' }).click()
      await expect(dialog.getByRole('list', { name: 'Collections' })).toBeVisible()
      await shot(page, `bookmarks-collections-${device}-${theme}`)
      await page.keyboard.press('Escape')
      await page.goto('/')
      await expect(cardWith(page, posts[1]!)).toBeVisible()
      await shot(page, `home-bookmarked-card-${device}-${theme}`)
    }
  }
})
