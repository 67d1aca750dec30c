import { test, expect, type Page } from '@playwright/test'
import { follow, gradientPng, logIn, publish, register, type Member, bothThemes, toastSaying } from './support/members'

// Editing a post (docs/product.md, "Editing a post"): the author opens Edit from the card's menu, the composer opens
// prefilled, Save updates the card in place with '(edited)'; a narrower audience cannot be widened again (the wider
// choice is greyed with its reason); another member opens '(edited)' and reads every version, newest first.

const ORIGINAL = 'First light over the marsh, a wren on every post'
const EDITED = 'First light over the marsh, a wren on every post (and one heron) #birding'

let ada: Member
let ben: Member

test.beforeAll(async ({ request }) => {
  ada = await register(request, 'ada', 'Ada Author')
  ben = await register(request, 'ben', 'Ben Reader')
  await follow(request, ben, ada)
  await publish(request, ada, { content: ORIGINAL, image: await gradientPng(640, 360, [40, 120, 90], [220, 200, 120]) })
})


const cardOf = (page: Page, text: string) =>
  page.getByRole('feed', { name: 'Home feed' }).getByRole('article').filter({ hasText: text }).first()

async function openEdit(page: Page, text: string) {
  await cardOf(page, text).getByRole('button', { name: 'More options' }).click()
  await page.getByRole('menuitem', { name: 'Edit' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit Post' })
  await expect(dialog).toBeVisible()
  return dialog
}

test('the author edits a post; another member reads its history', async ({ page, browser }) => {
  await logIn(page, ada)
  await expect(cardOf(page, ORIGINAL)).toBeVisible()
  await expect(page.getByText('Editing posts is coming soon')).toHaveCount(0)

  const dialog = await openEdit(page, ORIGINAL)
  const text = dialog.getByRole('textbox', { name: 'Post text' })
  await expect(text).toHaveValue(ORIGINAL)
  // The post's photo is shown as it is (no remove button, no new files), its alt text editable.
  await expect(dialog.getByRole('button', { name: /Remove image/ })).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'Add photos or videos' })).toHaveCount(0)
  await text.fill(EDITED)
  await dialog.getByRole('textbox', { name: 'Alt text for image 1' }).fill('A wren on a fence post at dawn')
  await dialog.getByRole('combobox', { name: 'Who can see this' }).selectOption('followers')
  await bothThemes(page, 'post-edit-composer')
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(dialog).toHaveCount(0)
  await expect(toastSaying(page, 'Post updated!')).toBeVisible()

  // The card changed in place, without a reload.
  const card = cardOf(page, 'one heron')
  await expect(card).toBeVisible()
  await expect(card.getByRole('button', { name: '(edited)' })).toBeVisible()
  await expect(card.getByRole('img', { name: 'A wren on a fence post at dawn' })).toBeVisible()

  // Followers-only now: the composer greys out a wider audience, and says why.
  const again = await openEdit(page, 'one heron')
  const audience = again.getByRole('combobox', { name: 'Who can see this' })
  await expect(audience).toHaveValue('followers')
  await expect(audience.locator('option[value="public"]')).toBeDisabled()
  await expect(audience.locator('option[value="mentioned"]')).toBeEnabled()
  await expect(again.getByText('Only a narrower audience can be chosen for a post already shared')).toBeVisible()
  await bothThemes(page, 'post-edit-narrower-only')
  await again.getByRole('button', { name: 'Close' }).click()
  await expect(again).toHaveCount(0)
  await bothThemes(page, 'post-edit-card')

  // Ben follows Ada: he sees the edited post and opens its history.
  const context = await browser.newContext()
  const other = await context.newPage()
  await logIn(other, ben)
  const seen = cardOf(other, 'one heron')
  await expect(seen).toBeVisible()
  await seen.getByRole('button', { name: '(edited)' }).click()
  const history = other.getByRole('dialog', { name: 'Edit history' })
  await expect(history).toBeVisible()
  const versions = history.getByRole('list', { name: 'Versions' }).getByRole('listitem').filter({ has: other.locator('time') })
  await expect(versions).toHaveCount(2)
  await expect(versions.nth(0)).toContainText('Current')
  await expect(versions.nth(0)).toContainText(EDITED)
  await expect(versions.nth(0)).toContainText('Followers only')
  await expect(versions.nth(0)).toContainText('Media 1: A wren on a fence post at dawn')
  await expect(versions.nth(1)).toContainText('Original')
  await expect(versions.nth(1)).toContainText(ORIGINAL)
  await expect(versions.nth(1)).toContainText('Everyone')
  await bothThemes(other, 'post-edit-history')
  await history.getByRole('button', { name: 'Close' }).click()
  await expect(history).toHaveCount(0)
  await context.close()
})
