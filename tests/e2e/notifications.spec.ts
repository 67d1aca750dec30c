import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { like, logIn, type Member, publish, register, setTheme, shot } from './support/members'

// Notifications from a real browser (docs/product.md, "Notifications"): another member likes and follows, and the
// badge on Notifications rises without a reload (the server's `notification` push); the screen lists the items, the
// Mentions tab filters, opening an item marks it read, Mark all as read clears the badge with its toast; and a kind
// turned off in Settings -> Notifications makes no notification.

const badgeLink = (page: Page) => page.getByRole('complementary').getByRole('link', { name: /^Notifications/ })

async function unreadOf(request: APIRequestContext, member: Member) {
  const res = await request.get('/api/notifications?filter=all', { headers: { Authorization: `Bearer ${member.token}` } })
  expect(res.ok()).toBe(true)
  return (await res.json()) as { unreadCount: number; notifications: Array<{ type: string; from: { id: string } }> }
}

test('likes and follows raise the badge live; the screen reads, filters and marks; Likes off stops likes', async ({ browser, request }) => {
  test.setTimeout(90_000)
  const ana = await register(request, 'ana', 'Ana Albatross')
  const ben = await register(request, 'ben', 'Ben Bittern')
  const cy = await register(request, 'cy', 'Cy Cormorant')
  const post = await publish(request, ana, { content: 'Spring tide tables are up for the whole estuary. Low water at 06:12, high at 12:30, and the causeway closes an hour either side.' })
  await publish(request, cy, { content: `@${ana.username} are you walking the causeway on Saturday?` })

  const a = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const b = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const pageA = await a.newPage()
  const pageB = await b.newPage()
  await logIn(pageA, ana)
  // Cy's mention is already there: the first read of the count shows it.
  await expect(badgeLink(pageA)).toHaveAccessibleName(/Notifications\s*,\s*1 unread/)

  // Ben likes Ana's post and follows her, in his own browser.
  await logIn(pageB, ben)
  await pageB.goto(`/post/${post.id}`)
  await pageB.getByRole('button', { name: /^Like,/ }).first().click()
  await expect(pageB.getByRole('button', { name: /^Unlike,/ }).first()).toBeVisible()
  await pageB.goto(`/profile/${ana.username}`)
  await pageB.getByRole('button', { name: `Follow @${ana.username}`, exact: true }).click()
  await expect(pageB.getByRole('button', { name: `Unfollow @${ana.username}` })).toBeVisible()

  // Ana's badge rises without a reload, within a second or two.
  await expect(badgeLink(pageA)).toHaveAccessibleName(/Notifications\s*,\s*3 unread/, { timeout: 3_000 })

  await badgeLink(pageA).click()
  await expect(pageA).toHaveURL(/\/notifications$/)
  const items = pageA.getByRole('list', { name: 'Notifications' }).getByRole('listitem')
  const liked = items.filter({ hasText: 'liked your post' })
  await expect(liked).toContainText('Ben Bittern liked your post')
  await expect(liked.getByRole('link', { name: /Spring tide tables/ })).toHaveAttribute('href', `/post/${post.id}`)
  await expect(items.filter({ hasText: 'Ben Bittern followed you' })).toBeVisible()
  await expect(items.filter({ hasText: 'Cy Cormorant mentioned you' })).toBeVisible()
  await expect(items).toHaveCount(3)
  await expect(liked.getByRole('img', { name: 'Unread' })).toBeVisible()

  // Mentions filters.
  await pageA.getByRole('tab', { name: 'Mentions' }).click()
  await expect(items).toHaveCount(1)
  await expect(items.first()).toContainText('Cy Cormorant mentioned you')
  await pageA.getByRole('tab', { name: 'All' }).click()
  await expect(items).toHaveCount(3)

  // Screenshots, unread items and badges showing: desktop and phone, light and dark.
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(pageA, theme)
    for (const [device, size] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
      await pageA.setViewportSize(size)
      await pageA.goto('/notifications')
      await expect(pageA.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/)
      await expect(items).toHaveCount(3)
      await shot(pageA, `notifications-${device}-${theme}`)
    }
  }
  await pageA.setViewportSize({ width: 1280, height: 800 })

  // Opening an unread item marks it read: its dot goes, the badge counts one fewer.
  await liked.getByText('liked your post').click()
  await expect(liked.getByRole('img', { name: 'Unread' })).toHaveCount(0)
  await expect(badgeLink(pageA)).toHaveAccessibleName(/Notifications\s*,\s*2 unread/)

  // Mark all as read: the toast, no badge, no button.
  await pageA.getByRole('button', { name: 'Mark all as read' }).click()
  await expect(pageA.getByText('All notifications marked as read')).toBeVisible()
  await expect(badgeLink(pageA)).toHaveAccessibleName('Notifications')
  await expect(pageA.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0)
  await expect(pageA.getByRole('img', { name: 'Unread' })).toHaveCount(0)
  expect((await unreadOf(request, ana)).unreadCount).toBe(0)

  // Settings -> Notifications: Likes off, saved.
  await pageA.getByRole('link', { name: 'Notification settings' }).click()
  await expect(pageA).toHaveURL(/\/settings\?tab=notifications$/)
  const likes = pageA.getByRole('switch', { name: 'Likes' })
  await expect(likes).toBeChecked()
  await likes.click()
  await expect(likes).not.toBeChecked()
  await pageA.getByRole('button', { name: 'Save Notification Settings' }).click()
  await expect(pageA.getByText('Notification settings updated')).toBeVisible()
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(pageA, theme)
    for (const [device, size] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
      await pageA.setViewportSize(size)
      await pageA.goto('/settings?tab=notifications')
      await expect(pageA.getByRole('switch', { name: 'Likes' })).not.toBeChecked()
      await shot(pageA, `settings-notifications-${device}-${theme}`)
    }
  }
  await setTheme(pageA, 'light')
  await pageA.setViewportSize({ width: 1280, height: 800 })
  await pageA.goto('/notifications')
  await expect(items).toHaveCount(3)

  // Cy likes the post now: no notification, no badge.
  await like(request, cy, post.id)
  await pageA.waitForTimeout(1_500)
  const after = await unreadOf(request, ana)
  expect(after.unreadCount).toBe(0)
  expect(after.notifications.some((n) => n.type === 'like' && n.from.id === cy.id)).toBe(false)
  await expect(badgeLink(pageA)).toHaveAccessibleName('Notifications')
  await expect(items).toHaveCount(3)

  await a.close()
  await b.close()
})

test('a member with no notifications sees the empty state', async ({ page, request }) => {
  const dee = await register(request, 'dee', 'Dee Dunlin')
  await logIn(page, dee)
  await page.goto('/notifications')
  await expect(page.getByRole('heading', { name: 'No notifications yet' })).toBeVisible()
  await expect(page.getByText("When someone interacts with your posts, you'll see it here")).toBeVisible()
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Notification settings' })).toHaveAttribute('href', '/settings?tab=notifications')
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/notifications')
    await expect(page.getByRole('heading', { name: 'No notifications yet' })).toBeVisible()
    await shot(page, `notifications-empty-phone-${theme}`)
  }
})
