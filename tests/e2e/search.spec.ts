import { test, expect, type Page } from '@playwright/test'
import { logIn, type Member, publish, register, setTheme, shot } from './support/members'

// Search, walked in a real browser against the real server (docs/product.md, "Search and hashtags"):
// - an empty box shows Trending Now (Ann and Cal both used #estuarywalk, so it trends) and Who to Follow;
// - typing searches after a pause and writes ?q= to the address; the tabs switch between posts, users and hashtags;
// - Follow works from the Users tab; a 1-character users query makes no call;
// - a trending hashtag, a hashtag chosen on the Hashtags tab and a hashtag link in a post all search `#tag` on Posts;
// - the empty texts. Screenshots (light and dark, phone and desktop) go to test-results/screens/.

let robin: Member
let ann: Member
let cal: Member
let dee: Member
const deeBio = 'Counting waders on the estuary every weekend. Tide tables, field notes and the odd blurry photo.'
const heronPost = 'Heron fishing by the sluice gate #estuarywalk'
const curlewPost = 'Curlews calling over the saltmarsh #estuarywalk'
let heronId = ''

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  robin = await register(request, 'robin', 'Robin Wren')
  ann = await register(request, 'ann', 'Ann Estuary')
  cal = await register(request, 'cal', 'Cal Marsh')
  heronId = (await publish(request, ann, { content: heronPost })).id
  await publish(request, cal, { content: curlewPost })
  dee = await register(request, 'dee', 'Dee Sandpiper')
  const res = await request.patch('/api/users/profile', {
    headers: { Authorization: `Bearer ${dee.token}` },
    data: { privateAccount: true, bio: deeBio },
  })
  expect(res.status(), await res.text()).toBe(200)
})

const box = (page: Page) => page.getByRole('searchbox', { name: 'Search' })
const tab = (page: Page, name: string) => page.getByRole('tab', { name })
const results = (page: Page) => page.getByRole('tabpanel')

test('an empty box shows Trending Now and Who to Follow; typing searches and writes ?q=', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/search')
  await expect(box(page)).toBeFocused()
  await expect(box(page)).toHaveAttribute('placeholder', 'Search posts, users, or hashtags')
  await expect(page.getByRole('heading', { name: 'Trending Now' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Who to Follow' })).toBeVisible()
  await expect(page.getByRole('tab')).toHaveCount(0)

  await box(page).pressSequentially('heron', { delay: 40 })
  await expect(page).toHaveURL(/\/search\?q=heron$/)
  await expect(tab(page, 'Posts')).toHaveAttribute('aria-selected', 'true')
  await expect(results(page).getByText(heronPost.replace(' #estuarywalk', ''), { exact: false })).toBeVisible()
  await expect(results(page).getByText('Curlews calling', { exact: false })).toHaveCount(0)

  // A word nobody and no hashtag has (other specs make members named Heron): each tab says so.
  await box(page).fill('zzqnomatch')
  await expect(page).toHaveURL(/\/search\?q=zzqnomatch$/)
  await expect(results(page).getByText('No posts found for "zzqnomatch"')).toBeVisible()
  await tab(page, 'Users').click()
  await expect(results(page).getByText('No users found for "zzqnomatch"')).toBeVisible()
  await tab(page, 'Hashtags').click()
  await expect(results(page).getByText('No hashtags found for "zzqnomatch"')).toBeVisible()

  // Opened with ?q=, the box holds it and the search runs.
  await page.goto('/search?q=saltmarsh')
  await expect(box(page)).toHaveValue('saltmarsh')
  await expect(results(page).getByText('Curlews calling', { exact: false })).toBeVisible()

  await box(page).fill('zzqxv')
  await expect(results(page).getByText('No posts found for "zzqxv"')).toBeVisible()
  await expect(page).toHaveURL(/q=zzqxv$/)

  await box(page).fill('')
  await expect(page.getByRole('heading', { name: 'Trending Now' })).toBeVisible()
  await expect(page).toHaveURL(/\/search$/)
})

test('the Users tab finds members by name; Follow works from a row; one character makes no call', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/search')
  const usersCalls: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/api/users/search?q=')) usersCalls.push(request.url())
  })
  await box(page).fill('a')
  await tab(page, 'Users').click()
  await page.waitForTimeout(900)
  expect(usersCalls).toEqual([])
  await expect(results(page).getByRole('listitem')).toHaveCount(0)

  await box(page).fill(`@${ann.username}`)
  const row = results(page).getByRole('listitem').filter({ hasText: `@${ann.username}` })
  await expect(row.getByRole('link', { name: ann.displayName })).toHaveAttribute('href', `/profile/${ann.username}`)
  await row.getByRole('button', { name: `Follow @${ann.username}` }).click()
  await expect(row.getByRole('button', { name: `Unfollow @${ann.username}` })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText('Following user')).toBeVisible()
  await row.getByRole('link', { name: ann.displayName }).click()
  await expect(page).toHaveURL(new RegExp(`/profile/${ann.username}$`))
})

test("following a private account from the Users tab makes a request: 'Requested'", async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/search')
  await box(page).fill('Sandpiper')
  await tab(page, 'Users').click()
  const row = results(page).getByRole('listitem').filter({ hasText: `@${dee.username}` })
  await expect(row.getByText(deeBio)).toBeVisible()
  await row.getByRole('button', { name: `Follow @${dee.username}` }).click()
  await expect(row.getByRole('button', { name: `Requested: cancel the follow request to @${dee.username}` })).toHaveText('Requested')
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText('Follow request sent')).toBeVisible()
})

test('a trending hashtag searches #tag on the Posts tab', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/search')
  const trending = page.getByRole('region', { name: 'Trending Now' })
  await trending.getByRole('link', { name: /#estuarywalk/ }).click()
  await expect(box(page)).toHaveValue('#estuarywalk')
  await expect(page).toHaveURL(/\/search\?q=%23estuarywalk$/)
  await expect(tab(page, 'Posts')).toHaveAttribute('aria-selected', 'true')
  await expect(results(page).getByRole('article')).toHaveCount(2)
})

test('the Hashtags tab lists tags with their counts; choosing one shows its posts', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/search')
  await box(page).fill('estuary')
  await tab(page, 'Hashtags').click()
  const hashtag = results(page).getByRole('button', { name: /#estuarywalk/ })
  await expect(hashtag).toContainText('2 posts')
  await hashtag.click()
  await expect(box(page)).toHaveValue('#estuarywalk')
  await expect(tab(page, 'Posts')).toHaveAttribute('aria-selected', 'true')
  await expect(results(page).getByRole('article')).toHaveCount(2)
  // Back returns to the query before the choice.
  await page.goBack()
  await expect(box(page)).toHaveValue('estuary')
})

test('a hashtag in a post leads to its search', async ({ page }) => {
  await logIn(page, robin)
  await page.goto(`/post/${heronId}`)
  await page.getByRole('link', { name: '#estuarywalk' }).first().click()
  await expect(page).toHaveURL(/\/search\?q=%23estuarywalk$/)
  await expect(box(page)).toHaveValue('#estuarywalk')
  await expect(results(page).getByRole('article')).toHaveCount(2)
})

test('screenshots: Search, light and dark, desktop and phone', async ({ page }) => {
  test.slow()
  await logIn(page, robin)
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme)
    for (const device of ['desktop', 'phone'] as const) {
      await page.setViewportSize(device === 'phone' ? { width: 390, height: 844 } : { width: 1280, height: 800 })
      await page.goto('/search')
      await expect(page.getByRole('region', { name: 'Trending Now' }).getByRole('link').first()).toBeVisible()
      await expect(page.getByRole('heading', { name: 'Who to Follow' })).toBeVisible()
      await shot(page, `search-panels-${device}-${theme}`)

      await page.goto('/search?q=%23estuarywalk')
      await expect(results(page).getByRole('article')).toHaveCount(2)
      await shot(page, `search-posts-${device}-${theme}`)

      await tab(page, 'Users').click()
      await box(page).fill('Estuary')
      await expect(results(page).getByRole('listitem').first()).toBeVisible()
      await shot(page, `search-users-${device}-${theme}`)

      await tab(page, 'Hashtags').click()
      await expect(results(page).getByRole('button', { name: /#estuarywalk/ })).toBeVisible()
      await shot(page, `search-hashtags-${device}-${theme}`)
    }
  }
})
