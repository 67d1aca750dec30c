import { test, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { deflateSync } from 'node:zlib'
import { registrationSecrets, toastSaying } from './support/members'
import { audit } from './support/audit'

// Posting, the home feed and post pages, walked in a real browser against the real server (its own members; the suite
// shares one server):
// - Wren (registered here) meets the welcome tour, posts text, a post with two photos, a followers-only post and a
//   sensitive one, and sees them in Home; trips every composer rule; likes, reposts, replies on a post page and
//   deletes a post;
// - Lark (followed by Wren) has 45 posts, so Home pages in more as Wren scrolls while the DOM stays small; Lark also
//   reposts a post by Heron, which Home shows as 'Reposted by Lark'.
// Screenshots (light and dark, desktop and phone) go to test-results/screens/posting-*.png.

const PASSWORD = 'Sparrow2026'
const stamp = Date.now().toString(36).slice(-5)

interface Member {
  id: string
  username: string
  token: string
}

let wren: Member
let lark: Member
let heron: Member

// ---- a tiny PNG encoder, so the photos are real images made from bytes in the test

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Buffer): number {
  let c = 0xffffffff
  for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A width x height PNG with a diagonal gradient between two colours. */
function gradientPng(width: number, height: number, from: [number, number, number], to: [number, number, number]): Buffer {
  const rows: Buffer[] = []
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3) // filter byte 0, then RGB
    for (let x = 0; x < width; x += 1) {
      const t = (x / width + y / height) / 2
      for (let c = 0; c < 3; c += 1) row[1 + x * 3 + c] = Math.round(from[c]! * (1 - t) + to[c]! * t)
    }
    rows.push(row)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const photo = (name: string, from: [number, number, number], to: [number, number, number]) => ({
  name,
  mimeType: 'image/png',
  buffer: gradientPng(360, 240, from, to),
})

// ---- members and content through the API

async function register(request: APIRequestContext, prefix: string, displayName: string): Promise<Member> {
  const username = `${prefix}_${stamp}`
  const res = await request.post('/api/auth/register', {
    data: { username, email: `${username}@example.test`, displayName, ...(await registrationSecrets(PASSWORD)) },
  })
  expect(res.status(), await res.text()).toBe(201)
  const body = (await res.json()) as { user: { id: string }; token: string }
  return { id: body.user.id, username, token: body.token }
}

const auth = (member: Member) => ({ Authorization: `Bearer ${member.token}` })

async function publish(request: APIRequestContext, who: Member, content: string, image?: Buffer): Promise<string> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    content,
    visibility: 'public',
    sensitive: 'false',
  }
  if (image) multipart.media = { name: 'photo.png', mimeType: 'image/png', buffer: image }
  const res = await request.post('/api/posts', { headers: auth(who), multipart })
  expect(res.status(), await res.text()).toBe(201)
  return ((await res.json()) as { post: { id: string } }).post.id
}

async function logIn(page: Page, member: Member): Promise<void> {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(member.username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('theme-storage', JSON.stringify({ context: { theme: value }, version: 0 })), theme)
  await page.reload()
  if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/dark/)
  else await expect(page.locator('html')).not.toHaveClass(/dark/)
}

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: `test-results/screens/posting-${name}.png`, fullPage })
  await audit(page, `posting-${name}`)
}

// ---- the screen's parts

const homeFeed = (page: Page) => page.getByRole('feed', { name: 'Home feed' })
const cardWith = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text }).first()
/** The newest toast with this text (earlier ones may still be on screen). */
const composer = (page: Page) => page.getByRole('dialog', { name: 'Create Post' })

/** Clicks the card's text at its start (the middle may be one of its links). */
async function openPostPage(page: Page, text: string): Promise<void> {
  await cardWith(page, text).getByText(text).click({ position: { x: 4, y: 6 } })
}

async function openComposer(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Create Post' }).first().click()
  const dialog = composer(page)
  await expect(dialog.getByRole('textbox', { name: 'Post text' })).toBeFocused()
  return dialog
}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000)
  wren = await register(request, 'wren', 'Wren Writer')
  lark = await register(request, 'lark', 'Lark Lively')
  heron = await register(request, 'heron', 'Heron Harbour')
  const follow = await request.post(`/api/users/${lark.id}/follow`, { headers: auth(wren) })
  expect(follow.status()).toBe(200)
  // Lark's 45 posts, oldest first, so Home needs three pages (20 a page) to reach the first one.
  for (let i = 1; i <= 45; i += 1) await publish(request, lark, `Lark's note number ${i} #birding`)
  const heronPost = await publish(request, heron, 'Low tide at the harbour, herons everywhere', gradientPng(480, 320, [32, 139, 254], [255, 176, 72]))
  const repost = await request.post(`/api/posts/${heronPost}/repost`, { headers: auth(lark) })
  expect(repost.status()).toBe(200)
})

test('a first visit shows the welcome tour; Skip Tour remembers it and Help brings it back', async ({ page }) => {
  await logIn(page, wren)
  const tour = page.getByRole('region', { name: 'Welcome tour' })
  await expect(tour.getByRole('heading', { name: 'Welcome to Wren' })).toBeVisible()
  await expect(tour.getByText('Step 1 of 6')).toBeVisible()
  const titles = ['Connect with people', "Discover what's happening", 'Talk privately', 'Stay in the loop', 'Make it yours']
  for (const title of titles) {
    await tour.getByRole('button', { name: 'Next' }).click()
    await expect(tour.getByRole('heading', { name: title })).toBeVisible()
    if (title === 'Talk privately') await expect(tour.getByText(/end-to-end encrypted/)).toBeVisible()
  }
  await expect(tour.getByRole('button', { name: 'Skip Tour' })).toHaveCount(0)
  await tour.getByRole('button', { name: 'Get Started' }).click()
  await expect(tour).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()
  await expect(tour).toHaveCount(0)

  // Help (/?show-help=true) reopens it and leaves a clean address.
  await page.getByRole('link', { name: 'Help' }).first().click()
  await expect(tour.getByRole('heading', { name: 'Welcome to Wren' })).toBeVisible()
  await expect(tour, 'Help gives the reopened tour the keyboard').toBeFocused()
  await expect(page).toHaveURL(/\/$/)
  await tour.getByRole('button', { name: 'Skip Tour' }).click()
  await expect(tour).toHaveCount(0)

  // The new-features banner goes once dismissed.
  const banner = page.getByRole('region', { name: "What's new" })
  await expect(banner).toBeVisible()
  await banner.getByRole('button', { name: 'Dismiss' }).click()
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()
  await expect(banner).toHaveCount(0)
})

test("Create Post pressed before the composer's code has come opens it when it does", async ({ page }) => {
  // The composer loads after the first screen; on a slow network a member can press Create Post before that.
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/member\.later-[^/]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await logIn(page, wren)
  await page.getByRole('button', { name: 'Create Post' }).first().click()
  await expect(composer(page)).toHaveCount(0)
  release()
  await expect(composer(page).getByRole('textbox', { name: 'Post text' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(composer(page)).toHaveCount(0)
})

test('posting text, two photos, a followers-only post and a sensitive one; all show in Home', async ({ page }) => {
  await logIn(page, wren)
  await expect(homeFeed(page)).toBeVisible()

  // Text, from the sidebar's Create Post.
  let dialog = await openComposer(page)
  await expect(dialog.getByRole('button', { name: 'Post', exact: true })).toBeDisabled()
  const firstText = `First post! Hello @${lark.username} #wren https://example.org/notes`
  await dialog.getByRole('textbox', { name: 'Post text' }).fill(firstText)
  await expect(dialog.getByText(`${firstText.length}/500`)).toBeVisible()
  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(toastSaying(page, 'Post created!')).toBeVisible()
  await expect(dialog).toHaveCount(0)
  const first = cardWith(page, 'First post!')
  await expect(homeFeed(page).getByRole('article').first()).toContainText('First post!')
  await expect(first.getByRole('link', { name: `@${lark.username}` })).toHaveAttribute('href', `/profile/${lark.username}`)
  await expect(first.getByRole('link', { name: '#wren' })).toHaveAttribute('href', '/search?q=%23wren')
  const external = first.getByRole('link', { name: 'https://example.org/notes' })
  await expect(external).toHaveAttribute('rel', 'noopener noreferrer nofollow')
  await expect(external).toHaveAttribute('target', '_blank')
  await expect(first.getByText('a few seconds ago')).toBeVisible()

  // Two photos, from the What's happening box, with alt text for the first.
  await page.getByRole('button', { name: "What's happening?" }).click()
  dialog = composer(page)
  await dialog.getByRole('textbox', { name: 'Post text' }).fill('Two photos from the estuary')
  await dialog.locator('input[type=file]').setInputFiles([
    photo('dawn.png', [255, 120, 80], [80, 60, 200]),
    photo('dusk.png', [20, 160, 120], [240, 220, 90]),
  ])
  await expect(dialog.getByRole('img', { name: 'Image 1' })).toBeVisible()
  await expect(dialog.getByRole('img', { name: 'Image 2' })).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Alt text for image 1' }).fill('Sunrise over the water')
  await shot(page, 'composer-light')
  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(toastSaying(page, 'Post created!')).toBeVisible()
  const photos = cardWith(page, 'Two photos from the estuary')
  await expect(photos.getByRole('img', { name: 'Sunrise over the water' })).toBeVisible()
  await expect(photos.getByRole('button', { name: /^View image/ })).toHaveCount(2)

  // The photo viewer: arrows move, Escape closes.
  await photos.getByRole('button', { name: 'View image, ALT: Sunrise over the water' }).click()
  const viewer = page.getByRole('dialog', { name: 'Image viewer' })
  await expect(viewer.getByText('1 / 2')).toBeVisible()
  await page.keyboard.press('ArrowRight')
  await expect(viewer.getByText('2 / 2')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(viewer).toHaveCount(0)

  // Followers only: it cannot be reposted.
  dialog = await openComposer(page)
  await dialog.getByRole('textbox', { name: 'Post text' }).fill('Only for my followers')
  await dialog.getByLabel('Who can see this').selectOption('followers')
  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(toastSaying(page, 'Post created!')).toBeVisible()
  const followersOnly = cardWith(page, 'Only for my followers')
  await expect(followersOnly.getByRole('button', { name: /^Repost/ })).toBeDisabled()
  await expect(followersOnly.getByRole('button', { name: /^Repost/ })).toHaveAttribute('title', 'Only public posts can be reposted or quoted')

  // Sensitive, with a reason: hidden behind the notice until Show anyway.
  dialog = await openComposer(page)
  await dialog.getByRole('textbox', { name: 'Post text' }).fill('The ending of the book, spoiled')
  await dialog.getByRole('button', { name: 'Options' }).click()
  await dialog.getByLabel('Mark as sensitive').check()
  await dialog.getByRole('textbox', { name: 'Reason (optional)' }).fill('Book spoilers')
  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(toastSaying(page, 'Post created!')).toBeVisible()
  const sensitive = homeFeed(page).getByRole('article').first()
  await expect(sensitive.getByText('Book spoilers')).toBeVisible()
  await expect(sensitive.getByText('The ending of the book, spoiled')).toHaveCount(0)
  await sensitive.getByRole('button', { name: 'Show anyway' }).click()
  await expect(sensitive.getByText('The ending of the book, spoiled')).toBeVisible()

  // After a reload the server's feed has them all, newest first, with Lark's repost of Heron's post.
  await page.reload()
  const articles = homeFeed(page).getByRole('article')
  await expect(articles.nth(0)).toContainText('Book spoilers')
  await expect(articles.nth(1)).toContainText('Only for my followers')
  await expect(articles.nth(2)).toContainText('Two photos from the estuary')
  await expect(articles.nth(3)).toContainText('First post!')
  await expect(cardWith(page, 'Low tide at the harbour')).toContainText('Reposted by Lark Lively')
})

test('the composer says each rule: 500 characters, content or media, 4 files, a schedule not in the past', async ({ page }) => {
  await logIn(page, wren)
  const dialog = await openComposer(page)
  const text = dialog.getByRole('textbox', { name: 'Post text' })
  const post = dialog.getByRole('button', { name: 'Post', exact: true })

  await text.fill('x'.repeat(501))
  await expect(dialog.getByText('501/500')).toBeVisible()
  await expect(dialog.getByText('Maximum 500 characters')).toBeVisible()
  await text.fill('x'.repeat(499) + '🐦')
  await expect(dialog.getByText('500/500')).toBeVisible()
  await expect(dialog.getByText('Maximum 500 characters')).toHaveCount(0)

  await text.fill('   ')
  await post.click()
  await expect(dialog.getByText('Content is required when no media is attached')).toBeVisible()
  await text.fill('')
  await expect(post).toBeDisabled()

  const five = ['1', '2', '3', '4', '5'].map((n) => photo(`p${n}.png`, [40 * Number(n), 90, 200], [250, 200, 40 * Number(n)]))
  await dialog.locator('input[type=file]').setInputFiles(five)
  await expect(dialog.getByText('Maximum 4 media files allowed')).toBeVisible()
  await expect(dialog.getByRole('button', { name: /^Remove image/ })).toHaveCount(4)
  // With media, text is optional: the Post button is enabled.
  await expect(post).toBeEnabled()
  await dialog.getByRole('button', { name: 'Remove image 4' }).click()
  await expect(dialog.getByRole('button', { name: /^Remove image/ })).toHaveCount(3)

  await dialog.getByRole('button', { name: 'Options' }).click()
  await expect(dialog.getByText(/Set a date and time to schedule the post/)).toBeVisible()
  const yesterday = new Date(Date.now() - 86_400_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  await dialog.getByLabel('Schedule date').fill(`${yesterday.getFullYear()}-${pad(yesterday.getMonth() + 1)}-${pad(yesterday.getDate())}`)
  await expect(dialog.getByText('Schedule date cannot be earlier than today')).toBeVisible()
  await shot(page, 'composer-errors-light')

  // Escape closes the dialog; the draft waits for the next open.
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await page.getByRole('button', { name: 'Create Post' }).first().click()
  await expect(composer(page).getByRole('button', { name: /^Remove image/ })).toHaveCount(3)
})

test('like and repost change at once and stick; a post page takes a reply; a post is deleted', async ({ page }) => {
  await logIn(page, wren)
  const first = cardWith(page, 'First post!')
  await first.getByRole('button', { name: 'Like, 0 likes' }).click()
  await expect(first.getByRole('button', { name: 'Unlike, 1 like' })).toHaveAttribute('aria-pressed', 'true')
  // The repost button offers Repost and Quote.
  await first.getByRole('button', { name: 'Repost, 0 reposts' }).click()
  await first.getByRole('menuitem', { name: 'Repost' }).click()
  await expect(first.getByRole('button', { name: 'Undo repost, 1 repost' })).toBeVisible()
  await page.reload()
  await expect(cardWith(page, 'First post!').getByRole('button', { name: 'Unlike, 1 like' })).toBeVisible()
  await expect(cardWith(page, 'First post!').getByRole('button', { name: 'Undo repost, 1 repost' })).toBeVisible()

  // The card body opens the post page.
  await openPostPage(page, 'First post!')
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]+$/)
  await expect(page.getByRole('heading', { name: 'Post', exact: true })).toBeVisible()
  await expect(page.getByText('No replies yet. Be the first to reply!')).toBeVisible()
  await page.getByRole('button', { name: `Reply to @${wren.username}` }).click()
  const reply = page.getByRole('form', { name: `Reply to @${wren.username}` })
  await reply.getByRole('textbox', { name: 'Reply text' }).fill('Replying to myself, as one does')
  await reply.getByRole('button', { name: 'Reply', exact: true }).click()
  await expect(toastSaying(page, 'Reply posted!')).toBeVisible()
  const replies = page.getByRole('feed', { name: 'Replies' })
  await expect(replies.getByRole('article')).toContainText('Replying to myself, as one does')
  await expect(page.getByText('No replies yet. Be the first to reply!')).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Reply, 1 reply' }).first()).toBeVisible()
  await shot(page, 'post-page-light', true)

  // Back returns to Home.
  await page.getByRole('button', { name: 'Back' }).click()
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()

  // Delete, after the confirmation.
  const doomed = cardWith(page, 'Only for my followers')
  await doomed.getByRole('button', { name: 'More options' }).click()
  // Edit is a real item now (tests/e2e/post-edit.spec.ts walks it).
  await expect(page.getByRole('menuitem', { name: 'Edit' })).not.toHaveAttribute('aria-disabled', 'true')
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete post?' })
  await expect(confirm.getByText('Are you sure you want to delete this post?')).toBeVisible()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(toastSaying(page, 'Post deleted')).toBeVisible()
  await expect(page.getByText('Only for my followers')).toHaveCount(0)
  await page.reload()
  await expect(homeFeed(page)).toBeVisible()
  await expect(page.getByText('Only for my followers')).toHaveCount(0)

  // Others' posts offer Report and Block User, not Edit and Delete.
  await cardWith(page, 'Low tide at the harbour').getByRole('button', { name: 'More options' }).click()
  await expect(page.getByRole('menuitem', { name: 'Report' })).toBeVisible()
  await expect(page.getByRole('menuitem', { name: 'Block User' })).toBeEnabled()
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0)
  await page.keyboard.press('Escape')

  // A missing post.
  await page.goto('/post/0190a6b2-0000-7000-8000-00000000dead')
  await expect(page.getByText('Post not found')).toBeVisible()
  await expect(page.getByText("This post may have been deleted or you don't have permission to view it")).toBeVisible()
  await page.getByRole('link', { name: 'Go to Home' }).click()
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()
})

test('Home pages in more posts as the member scrolls, keeping the DOM small', async ({ page }) => {
  await logIn(page, wren)
  const feed = homeFeed(page)
  await expect(feed.getByRole('article').first()).toBeVisible()
  const end = page.getByText("You're all caught up")
  let mostInDom = 0
  for (let i = 0; i < 80; i += 1) {
    mostInDom = Math.max(mostInDom, await feed.getByRole('article').count())
    // The end note exists once the last page is in, but the member has to scroll down to it.
    if ((await end.count()) > 0 && (await end.evaluate((el) => el.getBoundingClientRect().top < window.innerHeight))) break
    await page.mouse.wheel(0, 1_200)
    await page.waitForTimeout(100)
  }
  await expect(end).toBeInViewport()
  // Lark's first note is on the third page; only the rows near the viewport are in the DOM.
  await expect(cardWith(page, "Lark's note number 1 #birding")).toBeInViewport()
  await shot(page, 'home-scrolled-to-end-light')
  // The rows in the DOM sit edge to edge: no gaps, no overlaps, whatever heights they measured.
  const boxes = await feed.evaluate((el) => [...el.children].map((row) => row.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom })))
  expect(boxes.length).toBeGreaterThan(3)
  for (let i = 1; i < boxes.length; i += 1) expect(Math.abs(boxes[i]!.top - boxes[i - 1]!.bottom)).toBeLessThan(1)
  expect(await feed.getAttribute('aria-busy')).toBe('false')
  expect(mostInDom).toBeLessThanOrEqual(30)
  const total = await feed.getByRole('article').first().getAttribute('aria-setsize')
  expect(Number(total)).toBeGreaterThanOrEqual(49)
})

test('screenshots: Home, the composer and a post page, light and dark, desktop and phone', async ({ page }) => {
  await logIn(page, wren)
  for (const theme of ['light', 'dark'] as const) {
    for (const [device, size] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(size)
      await page.goto('/')
      await setTheme(page, theme)
      await expect(cardWith(page, 'Two photos from the estuary')).toBeVisible()
      await page.waitForTimeout(300)
      await shot(page, `home-${theme}-${device}`)

      await (device === 'phone'
        ? page.getByRole('button', { name: 'Create Post' }).click()
        : page.getByRole('button', { name: "What's happening?" }).click())
      const dialog = composer(page)
      await dialog.getByRole('textbox', { name: 'Post text' }).fill('Drafting something for the screenshots #wren')
      await dialog.locator('input[type=file]').setInputFiles([photo('a.png', [255, 120, 80], [80, 60, 200])])
      await expect(dialog.getByRole('img', { name: 'Image 1' })).toBeVisible()
      await shot(page, `composer-${theme}-${device}`)
      await dialog.getByRole('button', { name: 'Remove image 1' }).click()
      await dialog.getByRole('textbox', { name: 'Post text' }).fill('')
      await page.keyboard.press('Escape')

      await openPostPage(page, 'First post!')
      await expect(page.getByRole('feed', { name: 'Replies' })).toBeVisible()
      await shot(page, `post-page-${theme}-${device}`)
    }
  }
})
