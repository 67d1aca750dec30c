import { test, expect, type Page } from '@playwright/test'
import { logIn, register, type Member, bothThemes, toastSaying } from './support/members'

// Drafts and scheduled posts in a real browser against the real server (docs/product.md, "Drafts and scheduled
// posts"): save a draft from the composer, find it on Drafts & Scheduled and open it again, schedule a post with the
// composer's date and time, see it under Scheduled, reschedule it, and cancel its schedule (it goes back to Drafts).

let wren: Member
const stamp = Date.now().toString(36)
const draftText = `A thought for later ${stamp}`
const scheduledText = `Good morning, tomorrow ${stamp}`

test.beforeAll(async ({ request }) => {
  wren = await register(request, 'wren', 'Wren Planner')
})

const composer = (page: Page) => page.getByRole('dialog', { name: 'Create Post' })
const pad = (n: number) => String(n).padStart(2, '0')
const localDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`

test('save a draft, open it again, schedule a post, reschedule it and cancel it', async ({ page }) => {
  await logIn(page, wren)

  // Save draft keeps the text for later and closes the dialog.
  await page.getByRole('button', { name: 'Create Post' }).first().click()
  const dialog = composer(page)
  await dialog.getByLabel('Post text').fill(draftText)
  await dialog.getByRole('button', { name: 'Save draft' }).click()
  await expect(toastSaying(page, 'Draft saved')).toBeVisible()
  await expect(dialog).toBeHidden()

  await page.goto('/drafts')
  await expect(page.getByRole('heading', { name: 'Drafts & Scheduled' })).toBeVisible()
  const drafts = page.getByRole('list', { name: 'Drafts' })
  await expect(drafts.getByText(draftText)).toBeVisible()
  await bothThemes(page, 'drafts-list')

  // Open puts it back into the composer.
  await drafts.getByRole('listitem').filter({ hasText: draftText }).getByRole('button', { name: 'Open' }).click()
  await expect(dialog.getByLabel('Post text')).toHaveValue(draftText)
  await dialog.getByRole('button', { name: 'Close' }).first().click().catch(() => page.keyboard.press('Escape'))
  await page.keyboard.press('Escape')

  // A date and time make Post into Schedule.
  await page.getByRole('button', { name: 'Create Post' }).first().click()
  await dialog.getByLabel('Post text').fill(scheduledText)
  await dialog.getByRole('button', { name: 'Options' }).click()
  await expect(dialog.getByText(/Set a date and time to schedule the post/)).toBeVisible()
  const tomorrow = new Date(Date.now() + 86_400_000)
  await dialog.getByLabel('Schedule date').fill(localDate(tomorrow))
  await dialog.getByLabel('Schedule time').fill('09:30')
  await expect(dialog.getByRole('button', { name: 'Schedule', exact: true })).toBeEnabled()
  await bothThemes(page, 'composer-schedule')
  await dialog.getByRole('button', { name: 'Schedule', exact: true }).click()
  await expect(toastSaying(page, 'Post scheduled')).toBeVisible()

  await page.getByRole('tab', { name: 'Scheduled' }).click()
  const scheduled = page.getByRole('list', { name: 'Scheduled' })
  const row = scheduled.getByRole('listitem').filter({ hasText: scheduledText })
  await expect(row).toBeVisible()
  await expect(row.getByText(/Goes out/)).toBeVisible()
  await bothThemes(page, 'drafts-scheduled')

  // Reschedule: too soon is refused under the form; a later time is saved.
  await row.getByRole('button', { name: 'Reschedule' }).click()
  await row.getByLabel('New date').fill(localDate(new Date(Date.now() - 86_400_000)))
  await row.getByRole('button', { name: 'Save time' }).click()
  await expect(row.getByText('Schedule a post at least 1 minute ahead')).toBeVisible()
  await bothThemes(page, 'drafts-reschedule')
  const later = new Date(Date.now() + 3 * 86_400_000)
  await row.getByLabel('New date').fill(localDate(later))
  await row.getByRole('button', { name: 'Save time' }).click()
  await expect(toastSaying(page, 'Post rescheduled')).toBeVisible()
  await expect(row.getByText(/Goes out/)).toBeVisible()

  // Cancelling the schedule moves it back to Drafts.
  await row.getByRole('button', { name: 'Cancel schedule' }).click()
  await expect(toastSaying(page, /back in Drafts/)).toBeVisible()
  await expect(scheduled.getByText(scheduledText)).toHaveCount(0)
  await page.getByRole('tab', { name: 'Drafts' }).click()
  await expect(page.getByRole('list', { name: 'Drafts' }).getByText(scheduledText)).toBeVisible()
})
