import { test, expect, type Page } from '@playwright/test'
import { follow, gradientPng, logIn, publish, register, type Member, bothThemes, toastSaying } from './support/members'

// Quote posts (docs/product.md, "Quotes"): Lark quotes Heron's post from the repost menu, the composer shows the
// quoted card under the text, and Home shows the quote with Heron's card nested in it; Heron's post page links to its
// quotes. Heron hears of it ('quoted your post'), opens the quote and detaches his post from it: the quote then shows
// 'This post is unavailable', for Lark too.

let heron: Member
let lark: Member
let heronPost: string

test.beforeAll(async ({ request }) => {
  heron = await register(request, 'heron', 'Heron Grey')
  lark = await register(request, 'lark', 'Lark Lively')
  const image = await gradientPng(640, 400, [36, 112, 206], [240, 168, 72])
  heronPost = (await publish(request, heron, { content: 'Low tide at the harbour this morning, the boats all leaning', image })).id
  await follow(request, lark, heron)
})

const home = (page: Page) => page.getByRole('feed', { name: 'Home feed' })

test('quote a post, see it nested, hear of it, detach it', async ({ page }) => {
  await logIn(page, lark)
  const original = home(page).getByRole('article').filter({ hasText: 'Low tide at the harbour' })
  await expect(original).toBeVisible()

  // The repost button offers Repost and Quote; Quote opens the composer with the card under the text.
  await original.getByRole('button', { name: 'Repost, 0 reposts' }).click()
  await expect(original.getByRole('menuitem', { name: 'Repost' })).toBeVisible()
  await original.getByRole('menuitem', { name: 'Quote' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create Post' })
  await expect(dialog.getByTestId('quoted-card')).toContainText('Low tide at the harbour')
  // A quote needs text (or media), like any post.
  await expect(dialog.getByRole('button', { name: 'Post', exact: true })).toBeDisabled()
  await dialog.getByRole('textbox', { name: 'Post text' }).fill('The light here is unreal. Worth the early start.')
  await bothThemes(page, 'quote-composer')
  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(dialog).toHaveCount(0)

  const quote = home(page).getByRole('article').filter({ hasText: 'The light here is unreal' })
  const nested = quote.getByTestId('quoted-card')
  await expect(nested).toContainText('Heron Grey')
  await expect(nested).toContainText('Low tide at the harbour')
  await expect(nested.locator('img')).toBeVisible()
  await bothThemes(page, 'quote-card')

  // The nested card opens the quoted post, whose page links to its quotes.
  await nested.click()
  await expect(page).toHaveURL(new RegExp(`/post/${heronPost}$`))
  await page.getByRole('link', { name: '1 quote' }).click()
  await expect(page).toHaveURL(new RegExp(`/post/${heronPost}/quotes$`))
  await expect(page.getByRole('article').filter({ hasText: 'The light here is unreal' })).toBeVisible()
  await bothThemes(page, 'quote-list')

  // Heron hears of it.
  await logIn(page, heron)
  await page.goto('/notifications')
  const item = page.getByRole('listitem').filter({ hasText: 'quoted your post' })
  await expect(item).toContainText('Lark Lively')
  await bothThemes(page, 'quote-notification')

  // He opens the quote and detaches his post from it.
  await item.getByRole('link', { name: /The light here is unreal/ }).click()
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]+$/)
  const focused = page.getByRole('article').filter({ hasText: 'The light here is unreal' }).first()
  await expect(focused.getByTestId('quoted-card')).toBeVisible()
  await focused.getByRole('button', { name: 'More options' }).click()
  await page.getByRole('menuitem', { name: 'Detach quote' }).click()
  const confirm = page.getByRole('dialog', { name: 'Detach your post?' })
  await expect(confirm).toBeVisible()
  await bothThemes(page, 'quote-detach-confirm')
  await confirm.getByRole('button', { name: 'Detach' }).click()
  await expect(toastSaying(page, 'Quote detached')).toBeVisible()
  await expect(focused.getByTestId('quote-unavailable')).toHaveText('This post is unavailable')
  await expect(focused.getByTestId('quoted-card')).toHaveCount(0)
  await bothThemes(page, 'quote-detached')

  // For Lark too, after a reload.
  await logIn(page, lark)
  const again = home(page).getByRole('article').filter({ hasText: 'The light here is unreal' })
  await expect(again.getByTestId('quote-unavailable')).toBeVisible()
})
