import { readFile } from 'node:fs/promises'
import { strFromU8, unzipSync } from 'fflate'
import { test, expect, type Browser } from '@playwright/test'
import { registerThroughForm, shot, uniqueUsername } from './support/members'
import { waitForMail } from './support/outbox'

// Settings -> Account -> Export my data, end to end: Ada (registered in this browser, so her message key is here)
// posts and writes to Ben; she asks for her data, the notification tells her it is ready, she downloads it, and the
// saved zip holds her post (from the server) and the conversation, decrypted by her browser (never by the server).
// Screenshots of the Account section with a ready export, light and dark: test-results/screens/export-*.png.

const ada = { username: uniqueUsername('ada'), name: 'Ada Exporter' }
const ben = { username: uniqueUsername('ben'), name: 'Ben Reader' }
const POST = 'A post worth keeping forever'
const SECRET = 'Only Ben and my archive may read this'

async function member(browser: Browser, who: { username: string; name: string }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true })
  const page = await context.newPage()
  await registerThroughForm(page, who)
  return { context, page }
}

test('export my data: ask, get notified, download, and find a post and the messages in the zip', async ({ browser }) => {
  test.setTimeout(150_000)
  const b = await member(browser, ben)
  const a = await member(browser, ada)
  const page = a.page

  // A post.
  await page.getByRole('button', { name: 'Create Post' }).first().click()
  const composer = page.getByRole('dialog').filter({ has: page.getByRole('textbox', { name: 'Post text' }) })
  await composer.getByRole('textbox', { name: 'Post text' }).fill(POST)
  await composer.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(page.getByText(POST).first()).toBeVisible()

  // A message to Ben.
  await page.goto(`/profile/${ben.username}`)
  await page.getByRole('button', { name: `Message @${ben.username}` }).click()
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill(SECRET)
  await box.press('Enter')
  await expect(page.getByRole('list', { name: 'Messages' }).getByText(SECRET)).toBeVisible()

  // Ask for the export.
  await page.goto('/settings?tab=account')
  await page.getByRole('button', { name: 'Export my data' }).click()
  const status = page.locator('[data-export-state]')
  // Prepared in the background; the notification brings the row to "Ready" without a reload.
  await expect(status).toHaveAttribute('data-export-state', 'ready', { timeout: 30_000 })
  await expect(status).toContainText('Ready until')
  await expect(page.getByRole('complementary').getByRole('link', { name: /^Notifications/ })).toHaveAccessibleName(/Notifications\s*,\s*1 unread/)
  const mail = await waitForMail(`${ada.username}@example.test`, /Your data is ready/)
  expect(mail.text).toContain('/settings?tab=account')

  await shot(page, 'export-ready-light')
  await page.evaluate(() => localStorage.setItem('theme-storage', JSON.stringify({ context: { theme: 'dark' }, version: 0 })))
  await page.reload()
  await expect(page.locator('html')).toHaveClass(/dark/)
  await expect(page.locator('[data-export-state]')).toHaveAttribute('data-export-state', 'ready')
  await shot(page, 'export-ready-dark')

  // Download: the browser adds the conversation and saves the zip.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()])
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${ada.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`))
  await expect(page.getByText('Saved with your messages (1 conversation).')).toBeVisible()
  const files = unzipSync(new Uint8Array(await readFile((await download.path()) ?? '')))
  const posts = JSON.parse(strFromU8(files['posts.json'] ?? new Uint8Array())) as { content: string }[]
  expect(posts.map((p) => p.content)).toContain(POST)
  const conversations = Object.keys(files).filter((name) => name.startsWith('messages/'))
  expect(conversations).toEqual([expect.stringMatching(new RegExp(`^messages/${ben.username}-[\\w-]+\\.json$`))])
  const conversation = JSON.parse(strFromU8(files[conversations[0] ?? ''] ?? new Uint8Array())) as {
    with: string[]
    messages: { from: string; text: string }[]
  }
  expect(conversation.with).toEqual([ben.username])
  expect(conversation.messages).toEqual([expect.objectContaining({ from: ada.username, text: SECRET })])
  expect(strFromU8(files['README.txt'] ?? new Uint8Array())).toContain('messages/')

  await a.context.close()
  await b.context.close()
})
