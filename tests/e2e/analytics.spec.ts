import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { follow, like, logIn, type Member, publish, register, setTheme, shot } from './support/members'

// Analytics, walked in a real browser against the real server (docs/product.md, "Analytics"):
// - Ann has two followers (Bob, Cid) and two posts: a long one (over 100 characters) liked by both and viewed three
//   times, a short one liked by Bob and viewed once; Bob has a post of his own on Ann's Home;
// - Settings?tab=analytics opens the Analytics Dashboard at once: the four numbers, the engagement rate, the chart of
//   the last 7 days (and its table), top posts with their text cut at 100; the range switch reads again;
// - a top post opens its own analytics, Back returns; an own post's card menu opens the same view (others' posts have
//   no Analytics item).
// Screenshots (light and dark, desktop and phone) go to test-results/screens/.

let ann: Member
let bob: Member
let cid: Member
const longPost =
  'Counting waders at the estuary this morning: redshank, curlew, a dozen dunlin and one very late whimbrel, all feeding on the ebb tide'
const shortPost = 'Tide tables for the week are up'
const bobPost = 'Bob here, on the sea wall'
let longId = ''

test.describe.configure({ mode: 'serial' })

const auth = (who: Member) => ({ Authorization: `Bearer ${who.token}` })

async function view(request: APIRequestContext, who: Member, id: string) {
  const res = await request.get(`/api/posts/${id}`, { headers: auth(who) })
  expect(res.status()).toBe(200)
}

test.beforeAll(async ({ request }) => {
  ann = await register(request, 'ann', 'Ann Estuary')
  bob = await register(request, 'bob', 'Bob Seawall')
  cid = await register(request, 'cid', 'Cid Marsh')
  await follow(request, bob, ann)
  await follow(request, cid, ann)
  await follow(request, ann, bob)
  longId = (await publish(request, ann, { content: longPost })).id
  const shortId = (await publish(request, ann, { content: shortPost })).id
  await publish(request, bob, { content: bobPost })
  await like(request, bob, longId)
  await like(request, cid, longId)
  await like(request, bob, shortId)
  await view(request, bob, longId)
  await view(request, bob, longId)
  await view(request, cid, longId)
  await view(request, cid, shortId)
  // Views are written in batches every 10 s (server/modules/posts/views.ts): wait until they are in.
  await expect
    .poll(async () => {
      const res = await request.get('/api/analytics/user?timeRange=7d', { headers: auth(ann) })
      return ((await res.json()) as { userStats: { totalViews: number } }).userStats.totalViews
    }, { timeout: 15_000 })
    .toBe(4)
})

const dashboard = (page: Page) => page.getByRole('dialog', { name: 'Analytics Dashboard' })
const postDialog = (page: Page) => page.getByRole('dialog', { name: 'Post Analytics' })
const stat = (scope: ReturnType<Page['getByRole']>, label: string) => scope.getByTestId(`stat-${label}`)
const cardWith = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text }).first()

test('Settings?tab=analytics opens the dashboard: numbers, engagement, the chart and top posts; the range switch', async ({ page }) => {
  await logIn(page, ann)
  await page.goto('/settings?tab=analytics')
  const dialog = dashboard(page)
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true')
  await expect(stat(dialog, 'Posts')).toHaveText('2')
  await expect(stat(dialog, 'Followers')).toHaveText('2')
  await expect(stat(dialog, 'Views')).toHaveText('4')
  await expect(stat(dialog, 'Likes')).toHaveText('3')
  // (3 likes + 0 replies + 0 reposts) / 4 views.
  await expect(stat(dialog, 'Engagement')).toHaveText('75.0%')

  // The chart: the last 7 days, one keyboard stop per day, today's values on focus; the same figures in a table.
  const days = dialog.getByTestId('chart-day')
  await expect(days).toHaveCount(7)
  await expect(days.last()).toHaveAccessibleName(/4 views, 3 likes, 2 posts$/)
  await days.last().focus()
  await expect(days.last().locator('text.value').first()).toHaveCSS('opacity', '1')
  await expect(days.first().locator('text.value').first()).toHaveCSS('opacity', '0')
  const table = dialog.getByRole('table', { name: 'Last 7 days' })
  await expect(table.getByRole('row')).toHaveCount(8)
  await expect(table.getByRole('row').last()).toContainText('4')

  // Top posts: most likes first, text cut at 100 characters.
  const top = dialog.getByRole('region', { name: 'Top posts' })
  const rows = top.getByRole('listitem')
  await expect(rows).toHaveCount(2)
  await expect(rows.first()).toContainText(`${longPost.slice(0, 100).trimEnd()}…`)
  await expect(rows.first()).not.toContainText(longPost.slice(100))
  await expect(rows.first()).toContainText('2 likes')
  await expect(rows.nth(1)).toContainText(shortPost)

  // Another range reads again (the same numbers: everything happened today).
  const asked = page.waitForRequest((req) => req.url().includes('/api/analytics/user?timeRange=7d'))
  await dialog.getByRole('button', { name: 'Last 7 days' }).click()
  await asked
  await expect(dialog.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute('aria-pressed', 'true')
  await expect(dialog.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'false')
  await expect(stat(dialog, 'Likes')).toHaveText('3')

  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await page.getByRole('button', { name: 'View Analytics' }).click()
  await expect(dashboard(page)).toBeVisible()
})

test("a top post opens its own analytics; Back returns to the dashboard", async ({ page }) => {
  await logIn(page, ann)
  await page.goto('/settings?tab=analytics')
  await dashboard(page).getByRole('region', { name: 'Top posts' }).getByRole('button').first().click()
  const dialog = postDialog(page)
  await expect(dialog).toBeVisible()
  await expect(stat(dialog, 'Views')).toHaveText('3')
  await expect(stat(dialog, 'Likes')).toHaveText('2')
  await expect(stat(dialog, 'Engagement')).toHaveText('66.7%')
  await expect(dialog.getByTestId('chart-day').last()).toHaveAccessibleName(/3 views, 2 likes, 0 replies$/)
  await dialog.getByRole('button', { name: '← Back to dashboard' }).click()
  await expect(dashboard(page)).toBeVisible()
  await expect(stat(dashboard(page), 'Likes')).toHaveText('3')
})

test("an own post's menu opens its analytics; others' posts have no Analytics item", async ({ page }) => {
  await logIn(page, ann)
  const own = cardWith(page, shortPost)
  await own.getByRole('button', { name: 'More options' }).click()
  await page.getByRole('menuitem', { name: 'Analytics' }).click()
  const dialog = postDialog(page)
  await expect(dialog).toBeVisible()
  await expect(stat(dialog, 'Views')).toHaveText('1')
  await expect(stat(dialog, 'Likes')).toHaveText('1')
  await expect(dialog.getByRole('button', { name: '← Back to dashboard' })).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  // Still on Home: the click did not open the post page.
  await expect(page).toHaveURL(/\/$/)

  await cardWith(page, bobPost).getByRole('button', { name: 'More options' }).click()
  await expect(page.getByRole('menuitem', { name: 'Block User' })).toBeVisible()
  await expect(page.getByRole('menuitem', { name: 'Analytics' })).toHaveCount(0)
})

test('screenshots: the Analytics Dashboard and a post view, light and dark, desktop and phone', async ({ page }) => {
  await logIn(page, ann)
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme)
    for (const [device, size] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(size)
      await page.goto('/settings?tab=analytics')
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/)
      const dialog = dashboard(page)
      await expect(stat(dialog, 'Likes')).toHaveText('3')
      await dialog.getByTestId('chart-day').last().hover()
      await shot(page, `analytics-dashboard-${device}-${theme}`)
      await dialog.getByRole('region', { name: 'Top posts' }).getByRole('button').first().click()
      await expect(stat(postDialog(page), 'Likes')).toHaveText('2')
      await shot(page, `analytics-post-${device}-${theme}`)
    }
  }
})
