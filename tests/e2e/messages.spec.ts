import { test, expect, type Browser, type Page } from '@playwright/test'
import { PASSWORD, registerThroughForm, register, uniqueUsername } from './support/members'
import { audit } from './support/audit'

// Direct messages end to end, in two browsers: Ada and Ben register in the browser (so each browser makes its key
// pair), Ada starts the conversation from Ben's profile and writes; Ben sees it arrive without reloading (the badge
// on Messages), reads it and replies; Ada sees the reply and the double tick; Ada edits and deletes, and Ben sees
// '(edited)' and 'This message was deleted'; Ben signs in again on a fresh device and reads the whole history. The
// server never sees a text: no messages call answers with one. Screenshots (light and dark, desktop and phone) go to
// test-results/screens/messages-*.png.

const ada = { username: uniqueUsername('ada'), name: 'Ada Lovelace' }
const ben = { username: uniqueUsername('ben'), name: 'Ben Franklin' }
const FIRST = 'Hello Ben, this is secret number one'
const REPLY = 'Hi Ada, got it loud and clear'
const EDITED = 'Hello Ben, this is secret number one, edited'
const SECOND = 'This one will be deleted'

/** Every body a messages call answered, to check that no text is ever in it. */
function recordMessageBodies(page: Page): string[] {
  const bodies: string[] = []
  page.on('response', async (response) => {
    if (!response.url().includes('/api/messages')) return
    try {
      bodies.push(await response.text())
    } catch {
      // A body already gone (navigation): nothing to read.
    }
  })
  return bodies
}

async function registerInBrowser(browser: Browser, who: { username: string; name: string }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  const bodies = recordMessageBodies(page)
  await registerThroughForm(page, who)
  return { context, page, bodies }
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('theme-storage', JSON.stringify({ context: { theme: value }, version: 0 })), theme)
  await page.reload()
  if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/dark/)
  else await expect(page.locator('html')).not.toHaveClass(/dark/)
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/messages-${name}.png` })
  await audit(page, `messages-${name}`)
}
const history = (page: Page) => page.getByRole('list', { name: 'Messages' })
const bubble = (page: Page, text: string) => history(page).getByRole('listitem').filter({ hasText: text })

test('two members write end to end encrypted: live, read ticks, edit, delete, history on a new device', async ({ browser }) => {
  test.setTimeout(120_000)
  const a = await registerInBrowser(browser, ada)
  const b = await registerInBrowser(browser, ben)

  // Nothing yet: the empty list and the empty right pane.
  await a.page.getByRole('link', { name: 'Messages' }).first().click()
  await expect(a.page.getByText('No messages yet')).toBeVisible()
  await expect(a.page.getByRole('heading', { name: 'Your messages' })).toBeVisible()
  // The New Message modal: 'To:' with its placeholder.
  await a.page.getByRole('button', { name: 'New message', exact: true }).click()
  const modal = a.page.getByRole('dialog', { name: 'New Message' })
  const to = modal.getByLabel('To:')
  await expect(to).toHaveAttribute('placeholder', 'Search for a user...')
  await to.fill('zzqx_nobody_here')
  await expect(modal.getByText('No users found')).toBeVisible()
  // Ada finds Ben by username and picks him: the conversation opens.
  await to.fill(ben.username)
  await modal.getByRole('list', { name: 'Members' }).getByRole('button', { name: new RegExp(`@${ben.username}`) }).click()
  await expect(a.page).toHaveURL(/\/messages\/[\w-]+$/)
  const conversationUrl = a.page.url()
  // The Message button on Ben's profile reopens the same conversation.
  await a.page.goto(`/profile/${ben.username}`)
  await a.page.getByRole('button', { name: `Message @${ben.username}` }).click()
  await expect(a.page).toHaveURL(conversationUrl)
  await expect(a.page.getByRole('link', { name: new RegExp(ben.name) }).first()).toBeVisible()
  const composer = a.page.getByRole('textbox', { name: 'Message' })
  await expect(composer).toHaveAttribute('placeholder', 'Type a message...')
  await expect(a.page.getByRole('button', { name: 'Send' })).toBeDisabled()
  await expect(a.page.getByRole('button', { name: 'Add photos or videos' })).toBeEnabled()
  await composer.fill(FIRST)
  await composer.press('Enter')
  await expect(bubble(a.page, FIRST)).toBeVisible()
  await expect(composer).toHaveValue('')
  await expect(bubble(a.page, FIRST).getByRole('img', { name: 'Sent' })).toBeVisible()

  // Ben, on his home page, sees the badge without reloading, then the conversation and the message.
  await expect(b.page.getByRole('link', { name: 'Messages, 1 unread' }).first()).toBeVisible({ timeout: 15_000 })
  await b.page.getByRole('link', { name: 'Messages, 1 unread' }).first().click()
  const row = b.page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(ada.name) })
  await expect(row).toContainText(FIRST)
  await expect(row.getByRole('img', { name: 'Unread' })).toBeVisible()
  await row.click()
  await expect(bubble(b.page, FIRST)).toBeVisible()
  // Opened, it is read: the badge goes.
  await expect(b.page.getByRole('link', { name: 'Messages', exact: true }).first()).toBeVisible()
  const benComposer = b.page.getByRole('textbox', { name: 'Message' })
  await benComposer.fill(REPLY)
  await b.page.getByRole('button', { name: 'Send' }).click()
  await expect(bubble(b.page, REPLY)).toBeVisible()

  // Ada sees the reply arrive, and the double tick on her message.
  await expect(bubble(a.page, REPLY)).toBeVisible({ timeout: 15_000 })
  await expect(bubble(a.page, FIRST).getByRole('img', { name: 'Read' })).toBeVisible({ timeout: 15_000 })

  // The safety number: the same on both sides.
  await a.page.getByRole('button', { name: 'Verify safety number' }).click()
  await b.page.getByRole('button', { name: 'Verify safety number' }).click()
  const numberA = await a.page.getByLabel('Safety number digits').textContent()
  await expect(b.page.getByLabel('Safety number digits')).toHaveText(numberA ?? 'none')
  expect(numberA).toMatch(/^\d{60}$/)
  await a.page.getByRole('dialog', { name: 'Safety number' }).getByRole('button', { name: 'Close' }).click()
  await b.page.getByRole('dialog', { name: 'Safety number' }).getByRole('button', { name: 'Close' }).click()

  // Ada edits her first message; Ben sees the new text and '(edited)'.
  await bubble(a.page, FIRST).getByRole('button', { name: 'Edit message' }).click()
  await a.page.getByRole('textbox', { name: 'Edit message' }).fill(EDITED)
  await a.page.getByRole('button', { name: 'Save' }).click()
  await expect(bubble(a.page, EDITED)).toContainText('(edited)')
  await expect(bubble(b.page, EDITED)).toContainText('(edited)', { timeout: 15_000 })

  // Ada sends another and deletes it; Ben sees 'This message was deleted'.
  await composer.fill(SECOND)
  await composer.press('Enter')
  await expect(bubble(b.page, SECOND)).toBeVisible({ timeout: 15_000 })
  await bubble(a.page, SECOND).getByRole('button', { name: 'Delete message' }).click()
  await a.page.getByRole('dialog', { name: 'Delete message?' }).getByRole('button', { name: 'Delete' }).click()
  await expect(a.page.getByText('Message deleted')).toBeVisible()
  await expect(history(a.page).getByText('This message was deleted')).toBeVisible()
  await expect(history(b.page).getByText('This message was deleted')).toBeVisible({ timeout: 15_000 })
  await expect(history(b.page).getByText(SECOND)).toHaveCount(0)

  // Screenshots: desktop light and dark.
  await shot(a.page, 'desktop-light')
  await setTheme(a.page, 'dark')
  await expect(bubble(a.page, REPLY)).toBeVisible()
  await shot(a.page, 'desktop-dark')
  await a.page.getByRole('link', { name: 'Messages', exact: true }).first().click()
  await expect(a.page.getByRole('heading', { name: 'Your messages' })).toBeVisible()
  await shot(a.page, 'desktop-list-dark')
  await setTheme(a.page, 'light')

  // Ben signs out and in again on a fresh device: the whole history reads.
  await b.page.getByRole('button', { name: /log ?out/i }).first().click()
  await expect(b.page).toHaveURL(/\/login/)
  await b.context.close()
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const page = await phone.newPage()
  const phoneBodies = recordMessageBodies(page)
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(ben.username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
  await page.getByRole('navigation', { name: 'Bottom navigation' }).getByRole('link', { name: 'Messages' }).click()
  // The last message was deleted: the row says so.
  await expect(page.getByRole('list', { name: 'Conversations' })).toContainText('This message was deleted')
  await shot(page, 'phone-list-light')
  await page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(ada.name) }).click()
  await expect(bubble(page, EDITED)).toBeVisible()
  await expect(bubble(page, REPLY)).toBeVisible()
  await expect(history(page).getByText('This message was deleted')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Back to Messages' })).toBeVisible()
  await shot(page, 'phone-conversation-light')
  await setTheme(page, 'dark')
  await expect(bubble(page, REPLY)).toBeVisible()
  await shot(page, 'phone-conversation-dark')

  // The server only ever answered ciphertext: no text in any messages call.
  const all = [...a.bodies, ...b.bodies, ...phoneBodies].join('\n')
  expect(all.length).toBeGreaterThan(0)
  for (const text of [FIRST, REPLY, EDITED, SECOND, 'secret number', 'loud and clear']) expect(all).not.toContain(text)

  await phone.close()
  await a.context.close()
})

test('a link to a conversation that does not exist says so', async ({ browser, request }) => {
  const member = await register(request, 'lost', 'Lost Wren')
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(member.username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/messages/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b')
  await expect(page.getByRole('heading', { name: 'Conversation not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Back to Messages' }).click()
  await expect(page).toHaveURL(/\/messages$/)
  await context.close()
})
