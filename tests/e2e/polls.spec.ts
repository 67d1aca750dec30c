import { test, expect, type Page } from '@playwright/test'
import { follow, logIn, register, type Member, bothThemes, toastSaying } from './support/members'

// Polls, walked in a real browser against the real server (docs/product.md, "Polls"). Ann writes a poll in the
// composer (its rules said on the way: a blank option, a poll beside media is not offered), posts it, and sees the
// vote form with the time left. Bob, who follows her, votes from Home and sees the results with his choice checked;
// Ann then votes too and sees both votes counted.

let ann: Member
let bob: Member
const stamp = Date.now().toString(36)
const question = `Which bird wakes you first? ${stamp}`

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  ;[ann, bob] = await Promise.all([register(request, 'ann', 'Ann Estuary'), register(request, 'bob', 'Bob Reedbed')])
  await follow(request, bob, ann)
})

const homeFeed = (page: Page) => page.getByRole('feed', { name: 'Home feed' })
const cardWith = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text }).first()

test('the author writes a poll in the composer and posts it', async ({ page }) => {
  await logIn(page, ann)
  await page.getByRole('button', { name: 'Create Post' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Create Post' })
  await dialog.getByRole('textbox', { name: 'Post text' }).fill(question)
  await dialog.getByRole('button', { name: 'Add a poll' }).click()
  // A post has a poll or media: the media button is off while the poll is there, and says why.
  const media = dialog.getByRole('button', { name: 'Add photos or videos' })
  await expect(media).toBeDisabled()
  await expect(media).toHaveAttribute('title', 'A post can have a poll or media, not both')

  await dialog.getByRole('textbox', { name: 'Option 1' }).fill('Blackbird')
  await dialog.getByRole('button', { name: 'Add option' }).click()
  await dialog.getByRole('textbox', { name: 'Option 3' }).fill('Wren')
  // Option 2 left blank: posting says so and keeps the draft.
  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(dialog.getByRole('alert').filter({ hasText: 'Poll options must not be blank' })).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Option 2' }).fill('Robin')
  await dialog.getByRole('combobox', { name: 'Poll length' }).selectOption({ label: '3 days' })
  await expect(dialog.getByRole('alert')).toHaveCount(0)
  await bothThemes(page, 'poll-composer')

  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(toastSaying(page, 'Post created!')).toBeVisible()
  const card = cardWith(page, question)
  const form = card.getByRole('form', { name: 'Poll' })
  await expect(form.getByRole('radio', { name: 'Blackbird' })).toBeVisible()
  await expect(form.getByRole('radio')).toHaveCount(3)
  await expect(form.getByText('0 people')).toBeVisible()
  await expect(form.getByText(/^(2 days|3 days) left$/)).toBeVisible()
  await expect(form.getByRole('button', { name: 'Vote' })).toBeDisabled()
})

test('another member votes from Home and sees the results', async ({ page }) => {
  await logIn(page, bob)
  await expect(homeFeed(page)).toBeVisible()
  const card = cardWith(page, question)
  const form = card.getByRole('form', { name: 'Poll' })
  await expect(form).toBeVisible()
  await form.getByRole('radio', { name: 'Wren' }).check()
  await bothThemes(page, 'poll-vote')
  await form.getByRole('button', { name: 'Vote' }).click()

  const results = card.getByRole('list', { name: 'Poll results' })
  await expect(results).toBeVisible()
  await expect(card.getByRole('form', { name: 'Poll' })).toHaveCount(0)
  await expect(results.getByRole('listitem', { name: 'Wren: 100%, 1 vote, your choice' })).toBeVisible()
  await expect(results.getByRole('listitem', { name: 'Blackbird: 0%, 0 votes' })).toBeVisible()
  await expect(card.getByText('1 person')).toBeVisible()
  await bothThemes(page, 'poll-results')

  // The vote is the server's: the post page, read fresh, shows it too.
  await page.reload()
  await expect(cardWith(page, question).getByRole('listitem', { name: 'Wren: 100%, 1 vote, your choice' })).toBeVisible()
})

test('the author votes too and sees both votes counted', async ({ page }) => {
  await logIn(page, ann)
  const card = cardWith(page, question)
  const form = card.getByRole('form', { name: 'Poll' })
  await form.getByRole('radio', { name: 'Robin' }).check()
  await form.getByRole('button', { name: 'Vote' }).click()
  const results = card.getByRole('list', { name: 'Poll results' })
  await expect(results.getByRole('listitem', { name: 'Robin: 50%, 1 vote, your choice' })).toBeVisible()
  await expect(results.getByRole('listitem', { name: 'Wren: 50%, 1 vote' })).toBeVisible()
  await expect(card.getByText('2 people')).toBeVisible()
  await bothThemes(page, 'poll-author-results')
})
