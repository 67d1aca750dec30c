import { test, expect, type Page } from '@playwright/test'
import { logIn, type Member, publish, register, setTheme, shot } from './support/members'

// Private accounts (docs/product.md, "Private accounts and follow requests"), in a real browser against the real
// server: Kit makes their account private (API) and has a post; Lou sees "This account is private", clicks Follow
// and the button says Requested; Kit approves through the API; Lou now sees Kit's posts.
// Screenshots (light and dark) go to test-results/screens/.

let kit: Member
let lou: Member
const kitPost = 'Quiet notes from a private garden'

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  kit = await register(request, 'kit', 'Kit Hedge')
  lou = await register(request, 'lou', 'Lou Finch')
  await publish(request, kit, { content: kitPost })
  const res = await request.patch('/api/users/profile', {
    headers: { Authorization: `Bearer ${kit.token}` },
    data: { privateAccount: true },
  })
  expect(res.status(), await res.text()).toBe(200)
})

const profileSection = (page: Page) => page.getByRole('region', { name: /'s profile$/ })

test('a stranger sees the header only, asks to follow, and sees the posts once approved', async ({ page, request }) => {
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

  const approve = await request.post(`/api/follow-requests/${lou.id}/approve`, {
    headers: { Authorization: `Bearer ${kit.token}` },
  })
  expect(approve.status(), await approve.text()).toBe(200)

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
