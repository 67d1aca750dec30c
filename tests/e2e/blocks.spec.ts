import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { follow, logIn, type Member, publish, register, setTheme, shot, toastSaying } from './support/members'

// Blocking, walked in a real browser against the real server (docs/product.md, "Blocks"):
// - Robin follows Ann and Cal, so both their posts are on Robin's Home;
// - Robin blocks Cal from a post card's menu (the post leaves Home at once) and Ann from her profile (back home,
//   her post gone);
// - Settings -> Blocked Accounts lists both, Unblock works; keyword and domain chips are added and removed.
// Screenshots of the section (light and dark) go to test-results/screens/.

let robin: Member
let ann: Member
let cal: Member
const annPost = 'Heron on the mudflats this morning'
const calPost = 'Selling binoculars, barely used'

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  robin = await register(request, 'robin', 'Robin Wren')
  ann = await register(request, 'ann', 'Ann Estuary')
  cal = await register(request, 'cal', 'Cal Marsh')
  await follow(request, robin, ann)
  await follow(request, robin, cal)
  await publish(request, ann, { content: annPost })
  await publish(request, cal, { content: calPost })
})

const homeFeed = (page: Page) => page.getByRole('feed', { name: 'Home feed' })
const cardWith = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text }).first()
const blockedSection = (page: Page) => page.getByRole('region', { name: 'Blocked Accounts' })

async function blockThrough(request: APIRequestContext, who: Member, path: string, data: object) {
  const res = await request.post(`/api/blocks/${path}`, { headers: { Authorization: `Bearer ${who.token}` }, data })
  expect(res.status(), await res.text()).toBe(201)
}

test("block from a post's menu: confirm, 'User blocked', the post leaves Home at once", async ({ page }) => {
  await logIn(page, robin)
  await expect(homeFeed(page).getByText(calPost)).toBeVisible()
  await expect(homeFeed(page).getByText(annPost)).toBeVisible()

  await cardWith(page, calPost).getByRole('button', { name: 'More options' }).click()
  await page.getByRole('menuitem', { name: 'Block User' }).click()
  const confirm = page.getByRole('dialog', { name: 'Block Cal Marsh?' })
  await expect(confirm).toBeVisible()
  // Cancel changes nothing.
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(homeFeed(page).getByText(calPost)).toBeVisible()

  await cardWith(page, calPost).getByRole('button', { name: 'More options' }).click()
  await page.getByRole('menuitem', { name: 'Block User' }).click()
  await page.getByRole('dialog', { name: 'Block Cal Marsh?' }).getByRole('button', { name: 'Block', exact: true }).click()
  await expect(toastSaying(page, 'User blocked')).toBeVisible()
  await expect(homeFeed(page).getByText(calPost)).toHaveCount(0)
  await expect(homeFeed(page).getByText(annPost)).toBeVisible()
  await page.reload()
  await expect(homeFeed(page).getByText(annPost)).toBeVisible()
  await expect(homeFeed(page).getByText(calPost)).toHaveCount(0)
})

test('block from a profile: lands on /, their post is gone from Home', async ({ page }) => {
  await logIn(page, robin)
  await page.goto(`/profile/${ann.username}`)
  await page.getByRole('button', { name: `Block @${ann.username}` }).click()
  await page.getByRole('dialog', { name: 'Block Ann Estuary?' }).getByRole('button', { name: 'Block', exact: true }).click()
  await expect(toastSaying(page, 'User blocked')).toBeVisible()
  await expect(page).toHaveURL(/\/$/)
  // Cal was blocked before and Ann now: nothing left on Robin's Home.
  await expect(page.getByText('No posts yet')).toBeVisible()
  await expect(page.getByText(annPost)).toHaveCount(0)
  // Her profile is now absent to Robin.
  await page.goto(`/profile/${ann.username}`)
  await expect(page.getByText('User not found')).toBeVisible()
})

test('Settings -> Blocked Accounts lists the blocked members; Unblock', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/settings?tab=blocked')
  const section = blockedSection(page)
  const users = section.getByRole('list', { name: 'Blocked users' })
  await expect(users.getByText(`@${ann.username}`)).toBeVisible()
  await expect(users.getByText(`@${cal.username}`)).toBeVisible()
  await expect(section.getByText('No blocked keywords')).toBeVisible()
  await expect(section.getByText('No blocked domains')).toBeVisible()

  await section.getByRole('button', { name: `Unblock @${ann.username}` }).click()
  await expect(toastSaying(page, 'User unblocked')).toBeVisible()
  await expect(users.getByText(`@${ann.username}`)).toHaveCount(0)
  await page.reload()
  await expect(blockedSection(page).getByText(`@${cal.username}`)).toBeVisible()
  await expect(blockedSection(page).getByText(`@${ann.username}`)).toHaveCount(0)
  await page.goto(`/profile/${ann.username}`)
  await expect(page.getByRole('region', { name: /'s profile$/ }).getByRole('heading', { name: 'Ann Estuary' })).toBeVisible()
})

test('blocked keywords and domains: add and remove chips; a bad domain is refused', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/settings?tab=blocked')
  const section = blockedSection(page)

  const keyword = section.getByRole('textbox', { name: 'Block a keyword' })
  const addKeyword = section.getByRole('form', { name: 'Block a keyword' }).getByRole('button', { name: 'Add' })
  await expect(addKeyword).toBeDisabled()
  await keyword.fill('  big spoilers ')
  await addKeyword.click()
  await expect(toastSaying(page, 'Keyword blocked')).toBeVisible()
  const keywords = section.getByRole('list', { name: 'Blocked keywords' })
  await expect(keywords.getByText('big spoilers', { exact: true })).toBeVisible()
  await expect(keyword).toHaveValue('')
  await keyword.fill('BIG spoilers')
  await addKeyword.click()
  await expect(section.getByText('This keyword is already blocked')).toBeVisible()
  await expect(keyword).toHaveValue('BIG spoilers')
  await section.getByRole('button', { name: 'Remove keyword big spoilers' }).click()
  await expect(toastSaying(page, 'Keyword unblocked')).toBeVisible()
  await expect(section.getByText('No blocked keywords')).toBeVisible()

  const domain = section.getByRole('textbox', { name: 'Block a domain' })
  const addDomain = section.getByRole('form', { name: 'Block a domain' }).getByRole('button', { name: 'Add' })
  await expect(addDomain).toBeDisabled()
  await domain.fill('bad_domain')
  await addDomain.click()
  await expect(section.getByText('Invalid domain format')).toBeVisible()
  await domain.fill(' Spam.Example ')
  await expect(section.getByText('Invalid domain format')).toHaveCount(0)
  await addDomain.click()
  await expect(toastSaying(page, 'Domain blocked')).toBeVisible()
  await expect(section.getByRole('list', { name: 'Blocked domains' }).getByText('spam.example', { exact: true })).toBeVisible()
  await expect(domain).toHaveValue('')
  await page.reload()
  await expect(blockedSection(page).getByRole('list', { name: 'Blocked domains' }).getByText('spam.example')).toBeVisible()
  await blockedSection(page).getByRole('button', { name: 'Remove domain spam.example' }).click()
  await expect(toastSaying(page, 'Domain unblocked')).toBeVisible()
  await expect(blockedSection(page).getByText('No blocked domains')).toBeVisible()
})

test('screenshots: Settings -> Blocked Accounts, light and dark', async ({ page, request }) => {
  await blockThrough(request, robin, 'keyword', { keyword: 'spoilers' })
  await blockThrough(request, robin, 'keyword', { keyword: 'crypto giveaway' })
  await blockThrough(request, robin, 'domain', { domain: 'spam.example' })
  await logIn(page, robin)
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/settings?tab=blocked')
    await expect(blockedSection(page).getByText(`@${cal.username}`)).toBeVisible()
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/)
    await blockedSection(page).getByRole('textbox', { name: 'Block a domain' }).fill('bad_domain')
    await blockedSection(page).getByRole('form', { name: 'Block a domain' }).getByRole('button', { name: 'Add' }).click()
    await expect(blockedSection(page).getByText('Invalid domain format')).toBeVisible()
    await shot(page, `settings-blocked-desktop-${theme}`)
  }
})
