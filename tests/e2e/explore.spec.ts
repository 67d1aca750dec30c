import { test, expect } from '@playwright/test'
import { follow, logIn, publish, register, type Member, bothThemes, toastSaying } from './support/members'

// Explore, the empty Home and Share, walked in a real browser against the real server (docs/product.md, "Explore",
// "Home feed", "Post card"). Wren follows only Perch, who has posted nothing, so Wren's Home is empty; Perch follows
// Ann, so Ann is the first of Wren's suggestions. Ann posts in public and replies; Hidden is a private account that
// posts too. Explore shows Ann's top-level post and nothing of Hidden's or Ann's reply; Wren follows Ann from the
// empty Home and, after a refresh, Home shows her post. Share copies the post's link (no share sheet here), or hands
// it to the share sheet where the browser has one.

let wren: Member
let perch: Member
let ann: Member
let hidden: Member
const stamp = Date.now().toString(36)
const annPost = `Heron on the mudflats at low tide ${stamp}`
const annReply = `Replying to myself about herons ${stamp}`
const hiddenPost = `Only my followers may read this ${stamp}`
let annPostId = ''

test.beforeAll(async ({ request }) => {
  ;[wren, perch, ann, hidden] = await Promise.all([
    register(request, 'wren', 'Wren Newcomer'),
    register(request, 'perch', 'Perch Quiet'),
    register(request, 'ann', 'Ann Estuary'),
    register(request, 'hidden', 'Hidden Heron'),
  ])
  await follow(request, wren, perch)
  await follow(request, perch, ann)
  annPostId = (await publish(request, ann, { content: annPost })).id
  await publish(request, ann, { content: annReply, replyTo: annPostId })
  const res = await request.patch('/api/users/profile', {
    headers: { Authorization: `Bearer ${hidden.token}` },
    data: { privateAccount: true },
  })
  expect(res.status(), await res.text()).toBe(200)
  await publish(request, hidden, { content: hiddenPost })
})


test('an empty Home suggests people to follow and leads to Explore; following fills it', async ({ page }) => {
  await logIn(page, wren)
  await expect(page.getByRole('heading', { name: 'No posts yet' })).toBeVisible()
  const suggestions = page.getByRole('list', { name: 'Who to Follow' })
  const annRow = suggestions.getByRole('listitem').filter({ hasText: `@${ann.username}` })
  await expect(annRow).toBeVisible()
  await expect(page.getByRole('link', { name: 'Explore posts' })).toBeVisible()
  await bothThemes(page, 'home-empty')

  // Follow works in place; the refresh reads Home again and her post is there.
  await annRow.getByRole('button', { name: /^Follow/ }).click()
  await expect(toastSaying(page, 'Following user')).toBeVisible()
  await expect(annRow.getByRole('button', { name: /Following|Unfollow/ })).toBeVisible()
  await page.getByRole('button', { name: 'Refresh Home' }).click()
  await expect(page.getByRole('feed', { name: 'Home feed' }).getByText(annPost)).toBeVisible()
  await page.goto('/')
  await expect(page.getByRole('feed', { name: 'Home feed' }).getByText(annPost)).toBeVisible()
})

test('Explore lists public top-level posts, with trends and suggestions beside them', async ({ page }) => {
  await logIn(page, perch)
  await page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Explore' }).click()
  await expect(page).toHaveURL(/\/explore$/)
  await expect(page.getByRole('heading', { name: 'Explore', exact: true })).toBeVisible()
  const timeline = page.getByRole('feed', { name: 'Explore' })
  await expect(timeline.getByText(annPost)).toBeVisible()
  // No replies, and nothing of a private account's.
  await expect(timeline.getByText(annReply)).toHaveCount(0)
  await expect(timeline.getByText(hiddenPost)).toHaveCount(0)
  const rail = page.getByRole('complementary', { name: 'Sidebar' })
  await expect(rail.getByRole('heading', { name: 'Trending Now' })).toBeVisible()
  await expect(rail.getByRole('heading', { name: 'Who to Follow' })).toBeVisible()
  await bothThemes(page, 'explore')
})

test('Share copies the post link, or hands it to the share sheet', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  // This browser has no share sheet (as on most desktops): Share copies.
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true })
  })
  await logIn(page, perch)
  await page.goto('/explore')
  const card = page.getByRole('feed', { name: 'Explore' }).getByRole('article').filter({ hasText: annPost })
  await card.getByRole('button', { name: 'Share' }).click()
  await expect(toastSaying(page, 'Link copied')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/post/${annPostId}`)
  await expect(page.getByText('Sharing is coming soon')).toHaveCount(0)
  await bothThemes(page, 'share-copied')
})

test('Share uses the share sheet where there is one; closing it does nothing', async ({ page }) => {
  await page.addInitScript(() => {
    const shared: string[] = []
    Object.assign(window, { shared })
    Object.defineProperty(Navigator.prototype, 'share', {
      configurable: true,
      value: async (data: { url: string }) => {
        shared.push(data.url)
        // The second time, the member closes the sheet.
        if (shared.length === 2) throw new DOMException('Share canceled', 'AbortError')
      },
    })
  })
  await logIn(page, perch)
  await page.goto('/explore')
  const card = page.getByRole('feed', { name: 'Explore' }).getByRole('article').filter({ hasText: annPost })
  await card.getByRole('button', { name: 'Share' }).click()
  await expect.poll(() => page.evaluate(() => (window as unknown as { shared: string[] }).shared.length)).toBe(1)
  await card.getByRole('button', { name: 'Share' }).click()
  await expect.poll(() => page.evaluate(() => (window as unknown as { shared: string[] }).shared.length)).toBe(2)
  const shared = await page.evaluate(() => (window as unknown as { shared: string[] }).shared)
  expect(shared.every((url) => url.endsWith(`/post/${annPostId}`))).toBe(true)
  // Neither the sheet nor its closing says anything.
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText(/Link copied|copy/)).toHaveCount(0)
})
