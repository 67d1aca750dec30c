import { test, expect, type Browser, type Page } from '@playwright/test'
import { follow, logIn, type Member, publish, register, setTheme, shot, toastSaying } from './support/members'

// Private accounts (docs/product.md, "Private accounts and follow requests"), in a real browser against the real
// server: Kit makes their account private (API) and has a post; Lou sees "This account is private", clicks Follow
// and the button says Requested; Kit opens Notifications -> Follow requests (Settings -> Privacy & Safety) and
// approves; Lou now sees Kit's posts and Following. Nell's request (API) is declined there: her button goes back to
// Follow and nothing tells her. Screenshots (light and dark) go to test-results/screens/.

let kit: Member
let lou: Member
let nell: Member
const kitPost = 'Quiet notes from a private garden'

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  kit = await register(request, 'kit', 'Kit Hedge')
  lou = await register(request, 'lou', 'Lou Finch')
  nell = await register(request, 'nell', 'Nell Marsh')
  await publish(request, kit, { content: kitPost })
  const res = await request.patch('/api/users/profile', {
    headers: { Authorization: `Bearer ${kit.token}` },
    data: { privateAccount: true },
  })
  expect(res.status(), await res.text()).toBe(200)
})

const profileSection = (page: Page) => page.getByRole('region', { name: /'s profile$/ })
const requestsList = (page: Page) => page.getByRole('list', { name: 'Follow requests' })

/** Kit, signed in in a browser of their own (the test's page stays the requester's). */
async function kitsPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage()
  await logIn(page, kit)
  return page
}

test('a stranger sees the header only, asks to follow, and sees the posts once the owner approves', async ({ page, request, browser }) => {
  await logIn(page, lou)
  await page.goto(`/profile/${kit.username}`)
  const header = profileSection(page)
  await expect(header.getByRole('heading', { name: 'Kit Hedge' })).toBeVisible()
  await expect(header.getByText('Private', { exact: true })).toBeVisible()
  await expect(page.getByText('This account is private')).toBeVisible()
  await expect(page.getByText('Follow to see their posts')).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Posts' })).toHaveCount(0)
  await expect(page.getByText(kitPost)).toHaveCount(0)
  await shot(page, 'private-profile-light')
  await setTheme(page, 'dark')
  await page.reload()
  await expect(page.getByText('This account is private')).toBeVisible()
  await shot(page, 'private-profile-dark')
  await setTheme(page, 'light')
  await page.reload()

  await header.getByRole('button', { name: `Follow @${kit.username}` }).click()
  const requested = header.getByRole('button', { name: /^Requested/ })
  await expect(requested).toHaveText('Requested')
  await expect(page.getByText('Follow request sent')).toBeVisible()
  await expect(header.getByRole('link', { name: '0 Followers' })).toBeVisible()
  await shot(page, 'private-profile-requested')

  // Still Requested after a reload: the server keeps the request.
  await page.reload()
  await expect(profileSection(page).getByRole('button', { name: /^Requested/ })).toHaveText('Requested')

  // Nell asks too (API), so Kit's list has two rows; her request is declined in the last test.
  await follow(request, nell, kit)

  // Kit: Notifications shows the entry with the count, and it opens the list in Settings -> Privacy & Safety.
  const owner = await kitsPage(browser)
  await owner.goto('/notifications')
  // Each request is a notification too.
  await expect(owner.getByText('requested to follow you').first()).toBeVisible()
  const entry = owner.getByRole('link', { name: 'Follow requests: Approve or decline who can follow you, 2 pending' })
  await expect(entry).toBeVisible()
  await shot(owner, 'follow-requests-entry-light')
  await entry.click()
  await expect(owner).toHaveURL(/\/settings\?tab=privacy$/)
  const rows = requestsList(owner).getByRole('listitem')
  await expect(rows).toHaveCount(2)
  // Most recent first: Nell, then Lou; each with the name and @username linking to the profile.
  await expect(rows.nth(0)).toContainText('Nell Marsh')
  await expect(rows.nth(1)).toContainText('Lou Finch')
  await expect(rows.nth(1).getByRole('link', { name: `@${lou.username}` })).toHaveAttribute('href', `/profile/${lou.username}`)
  await shot(owner, 'follow-requests-light')
  await setTheme(owner, 'dark')
  await owner.reload()
  await expect(requestsList(owner).getByRole('listitem')).toHaveCount(2)
  await shot(owner, 'follow-requests-dark')
  await owner.goto('/notifications')
  await expect(owner.getByRole('link', { name: 'Follow requests: Approve or decline who can follow you, 2 pending' })).toBeVisible()
  await shot(owner, 'follow-requests-entry-dark')
  await setTheme(owner, 'light')
  await owner.goto('/settings?tab=privacy')

  await requestsList(owner).getByRole('button', { name: `Approve @${lou.username}` }).click()
  await expect(toastSaying(owner, 'Follow request approved')).toBeVisible()
  await expect(requestsList(owner).getByRole('listitem')).toHaveCount(1)
  await expect(requestsList(owner).getByText('Lou Finch')).toHaveCount(0)
  // Approving made the follow: Kit's profile counts Lou.
  await owner.goto(`/profile/${kit.username}`)
  await expect(profileSection(owner).getByRole('link', { name: '1 Follower' })).toBeVisible()
  await owner.close()

  await page.reload()
  await expect(profileSection(page).getByRole('button', { name: `Unfollow @${kit.username}` })).toBeVisible()
  await expect(page.getByText('This account is private')).toHaveCount(0)
  await expect(page.getByRole('tab', { name: 'Posts' })).toBeVisible()
  await expect(page.getByText(kitPost)).toBeVisible()
  await expect(profileSection(page).getByRole('link', { name: '1 Follower' })).toBeVisible()
})

test('cancelling a request: Requested goes back to Follow', async ({ page, request }) => {
  const moss = await register(request, 'moss', 'Moss Wren')
  await logIn(page, moss)
  await page.goto(`/profile/${kit.username}`)
  const header = profileSection(page)
  await header.getByRole('button', { name: `Follow @${kit.username}` }).click()
  await expect(header.getByRole('button', { name: /^Requested/ })).toBeVisible()
  await header.getByRole('button', { name: /^Requested/ }).click()
  await expect(page.getByText('Follow request cancelled')).toBeVisible()
  await expect(header.getByRole('button', { name: `Follow @${kit.username}` })).toBeVisible()
  await expect(page.getByText('Unfollowed')).toHaveCount(0)
  const pending = await request.get('/api/follow-requests', { headers: { Authorization: `Bearer ${kit.token}` } })
  const body = (await pending.json()) as { requests: Array<{ id: string }> }
  expect(body.requests.map((r) => r.id)).not.toContain(moss.id)
})

test('declining a request: the requester is back to Follow and nothing tells them', async ({ page, browser }) => {
  await logIn(page, nell)
  await page.goto(`/profile/${kit.username}`)
  await expect(profileSection(page).getByRole('button', { name: /^Requested/ })).toHaveText('Requested')

  const owner = await kitsPage(browser)
  await owner.goto('/settings?tab=privacy')
  await expect(requestsList(owner).getByRole('listitem')).toHaveCount(1)
  // On a phone the row keeps both buttons; the names give way.
  await owner.setViewportSize({ width: 390, height: 844 })
  const decline = requestsList(owner).getByRole('button', { name: `Decline @${nell.username}` })
  // Centred: "if needed" counts a row behind the fixed bottom bar as in view.
  await decline.evaluate((element) => element.scrollIntoView({ block: 'center' }))
  const box = await decline.boundingBox()
  expect(box && box.x + box.width).toBeLessThanOrEqual(390 - 16)
  // The viewport, not the full page: the phone's bottom bar is fixed.
  await owner.screenshot({ path: 'test-results/screens/follow-requests-phone.png' })
  await owner.setViewportSize({ width: 1280, height: 800 })
  await requestsList(owner).getByRole('button', { name: `Decline @${nell.username}` }).click()
  await expect(toastSaying(owner, 'Follow request declined')).toBeVisible()
  await expect(owner.getByText('No pending follow requests')).toBeVisible()
  await expect(requestsList(owner)).toHaveCount(0)
  await shot(owner, 'follow-requests-empty-light')
  // Kit is private, so the entry stays on Notifications, without a count.
  await owner.goto('/notifications')
  await expect(owner.getByRole('link', { name: 'Follow requests: Approve or decline who can follow you', exact: true })).toBeVisible()
  await owner.close()

  // Nell: Follow again, still private to her, and no word of a decline anywhere.
  await page.reload()
  const header = profileSection(page)
  await expect(header.getByRole('button', { name: `Follow @${kit.username}` })).toBeVisible()
  await expect(header.getByRole('button', { name: /^Requested/ })).toHaveCount(0)
  await expect(page.getByText('This account is private')).toBeVisible()
  await expect(page.getByText(/declin/i)).toHaveCount(0)
  await page.goto('/notifications')
  await expect(page.getByRole('heading', { name: 'Notifications', exact: true })).toBeVisible()
  await expect(page.getByRole('link', { name: /^Follow requests/ })).toHaveCount(0)
  await expect(page.getByText(/declin/i)).toHaveCount(0)
})
