import { readFileSync } from 'node:fs'
import { test, expect, type Browser, type Page } from '@playwright/test'
import { registerThroughForm, uniqueUsername } from './support/members'

// A photo in a direct message, end to end: Ada picks the fixture photo (tests/fixtures/attachment-photo.png, which
// carries the marker WREN-PLAINTEXT-IMAGE-MARKER in a text chunk) in the composer, sees its preview, and sends it with
// a line of text; Ben sees the thumbnail in the bubble (decrypted in his browser into a blob: URL) and opens the whole
// photo. Every byte that crossed the network, both ways and in both browsers, is searched for the marker and the
// PNG signature: only ciphertext travels. Screenshots (composer with the photo, the bubble, the opened photo; light and
// dark) go to test-results/screens/attachments-*.png.

const PHOTO = new URL('../fixtures/attachment-photo.png', import.meta.url)
const MARKER = Buffer.from('WREN-PLAINTEXT-IMAGE-MARKER')
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

const ada = { username: uniqueUsername('ada'), name: 'Ada Photos' }
const ben = { username: uniqueUsername('ben'), name: 'Ben Viewer' }

/** Every request body sent and response body received by the page's API calls. */
function recordTraffic(page: Page): Buffer[] {
  const seen: Buffer[] = []
  page.on('request', (request) => {
    if (!request.url().includes('/api/')) return
    const body = request.postDataBuffer()
    if (body) seen.push(body)
  })
  page.on('response', async (response) => {
    if (!response.url().includes('/api/')) return
    try {
      seen.push(await response.body())
    } catch {
      // A body already gone (navigation): nothing to read.
    }
  })
  return seen
}

async function registerInBrowser(browser: Browser, who: { username: string; name: string }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  const traffic = recordTraffic(page)
  await registerThroughForm(page, who)
  return { context, page, traffic }
}

/** Light or dark without a reload (a reload would drop the picked files): the theme is a class on <html>. */
async function paint(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark')
}

async function shots(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await paint(page, theme)
    await page.screenshot({ path: `test-results/screens/attachments-${name}-${theme}.png`, animations: 'disabled' })
  }
  await paint(page, 'light')
}

test('a photo goes encrypted from Ada to Ben, who sees the thumbnail and opens it', async ({ browser }) => {
  test.setTimeout(120_000)
  const a = await registerInBrowser(browser, ada)
  const b = await registerInBrowser(browser, ben)

  await a.page.getByRole('link', { name: 'Messages' }).first().click()
  await a.page.getByRole('button', { name: 'New message', exact: true }).click()
  const modal = a.page.getByRole('dialog', { name: 'New Message' })
  await modal.getByLabel('To:').fill(ben.username)
  await modal.getByRole('list', { name: 'Members' }).getByRole('button', { name: new RegExp(`@${ben.username}`) }).click()
  await expect(a.page).toHaveURL(/\/messages\/[\w-]+$/)
  const conversationUrl = a.page.url()

  // A text file is refused with the reason; the photo is taken and previewed.
  const picker = a.page.getByTestId('message-files')
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
  await expect(a.page.getByRole('alert')).toContainText("notes.txt can't be sent")
  await picker.setInputFiles(PHOTO.pathname)
  const picked = a.page.getByRole('list', { name: 'Attachments' })
  await expect(picked.getByRole('img', { name: 'attachment-photo.png' })).toBeVisible()
  await expect(a.page.getByRole('button', { name: 'Send' })).toBeEnabled()
  await a.page.getByRole('textbox', { name: 'Message' }).fill('The view from here')
  await shots(a.page, 'composer')

  await a.page.getByRole('button', { name: 'Send' }).click()
  await expect(picked).toHaveCount(0)
  const sentBubble = a.page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'The view from here' })
  await expect(sentBubble.getByRole('img', { name: 'A photo' })).toBeVisible()

  // Ben opens the conversation: the thumbnail is decrypted in his browser.
  await b.page.goto(conversationUrl)
  const bubble = b.page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'The view from here' })
  const thumb = bubble.getByRole('img', { name: 'A photo' })
  await expect(thumb).toBeVisible({ timeout: 15_000 })
  await expect(thumb).toHaveAttribute('src', /^blob:/)
  expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThanOrEqual(320)
  await shots(b.page, 'bubble')

  await bubble.getByRole('button', { name: 'Open photo' }).click()
  const viewer = b.page.getByRole('dialog', { name: 'Photo' })
  const full = viewer.getByRole('img', { name: 'The photo' })
  await expect(full).toBeVisible()
  await expect(full).toHaveAttribute('src', /^blob:/)
  expect(await full.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([480, 320])
  await shots(b.page, 'opened')
  await viewer.getByRole('button', { name: 'Close' }).first().click()
  await expect(viewer).toHaveCount(0)

  // Only ciphertext crossed the network: not the marker, not a PNG, in any request or answer of either browser.
  const photo = readFileSync(PHOTO)
  expect(photo.includes(MARKER)).toBe(true)
  const traffic = [...a.traffic, ...b.traffic]
  const uploads = a.traffic.filter((body) => body.length > 1000)
  expect(uploads.length, 'the photo and its thumbnail were uploaded').toBeGreaterThanOrEqual(2)
  for (const body of traffic) {
    expect(body.includes(MARKER)).toBe(false)
    expect(body.includes(PNG_SIGNATURE)).toBe(false)
    expect(body.includes(photo.subarray(100, 164))).toBe(false)
  }
  await a.context.close()
  await b.context.close()
})

test('a video goes too: its thumbnail is a frame made in the browser, and it plays from a blob: URL', async ({ browser }) => {
  test.setTimeout(120_000)
  const sender = await registerInBrowser(browser, { username: uniqueUsername('vic'), name: 'Vic Video' })
  const viewer = { username: uniqueUsername('wes'), name: 'Wes Watcher' }
  const w = await registerInBrowser(browser, viewer)

  await sender.page.getByRole('link', { name: 'Messages' }).first().click()
  await sender.page.getByRole('button', { name: 'New message', exact: true }).click()
  const modal = sender.page.getByRole('dialog', { name: 'New Message' })
  await modal.getByLabel('To:').fill(viewer.username)
  await modal.getByRole('list', { name: 'Members' }).getByRole('button', { name: new RegExp(`@${viewer.username}`) }).click()
  await expect(sender.page).toHaveURL(/\/messages\/[\w-]+$/)
  const conversationUrl = sender.page.url()

  await sender.page.getByTestId('message-files').setInputFiles(new URL('../fixtures/located.webm', import.meta.url).pathname)
  await expect(sender.page.getByRole('list', { name: 'Attachments' }).getByLabel('located.webm', { exact: true })).toBeVisible()
  await sender.page.getByRole('button', { name: 'Send' }).click()
  await expect(sender.page.getByRole('list', { name: 'Attachments' })).toHaveCount(0)

  await w.page.goto(conversationUrl)
  const tile = w.page.getByRole('list', { name: 'Photos and videos' }).getByRole('button', { name: 'Open video' })
  const frame = tile.getByRole('img', { name: 'A video' })
  await expect(frame).toBeVisible({ timeout: 15_000 })
  expect(await frame.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  // The list's preview says what the message carries.
  await expect(w.page.getByRole('link', { name: /Vic Video/ }).first()).toContainText('Video')
  await tile.click()
  const player = w.page.getByRole('dialog', { name: 'Video' }).locator('video')
  await expect(player).toHaveAttribute('src', /^blob:/)
  await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.readyState)).toBeGreaterThanOrEqual(1)
  await sender.context.close()
  await w.context.close()
})
