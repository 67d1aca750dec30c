import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { follow, logIn, type Member, publish, register, setTheme, shot, toastSaying } from './support/members'

// Mutes, walked in a real browser against the real server (docs/product.md, "Mutes"):
// - Robin follows Ann and Cal, so their posts are on Robin's Home;
// - Settings?tab=mutes opens the Mute Management dialog at once; Escape closes it;
// - a keyword muted in the dialog takes Ann's matching post off Home; opened directly, the post page shows it behind
//   'Muted: {keyword}' with Show anyway; unmuting brings it back;
// - Cal muted from a post's menu (with a reason): his post leaves Home at once, his profile and the post page still
//   show it; the dialog lists him with the reason; Unmute restores Home.
// Screenshots of the dialog (light and dark) go to test-results/screens/.

let robin: Member
let ann: Member
let cal: Member
const heronPost = 'Heron on the mudflats this morning'
const binocularsPost = 'Selling binoculars, barely used'
const calPost = 'Cal here: the tide tables are out'
let binocularsId = ''
let calPostId = ''

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  robin = await register(request, 'robin', 'Robin Wren')
  ann = await register(request, 'ann', 'Ann Estuary')
  cal = await register(request, 'cal', 'Cal Marsh')
  await follow(request, robin, ann)
  await follow(request, robin, cal)
  await publish(request, ann, { content: heronPost })
  binocularsId = (await publish(request, ann, { content: binocularsPost })).id
  calPostId = (await publish(request, cal, { content: calPost })).id
})

const homeFeed = (page: Page) => page.getByRole('feed', { name: 'Home feed' })
const cardWith = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text }).first()
const muteDialog = (page: Page) => page.getByRole('dialog', { name: 'Mute Management' })

async function muteThrough(request: APIRequestContext, who: Member, path: string, data: object) {
  const res = await request.post(`/api/mutes/${path}`, { headers: { Authorization: `Bearer ${who.token}` }, data })
  expect(res.status(), await res.text()).toBe(201)
}

test('Settings?tab=mutes opens Mute Management at once; Escape closes it; Manage Mutes opens it again', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/settings?tab=mutes')
  const dialog = muteDialog(page)
  await expect(dialog).toBeVisible()
  for (const tab of ['Users', 'Keywords', 'Domains']) await expect(dialog.getByRole('tab', { name: tab })).toBeVisible()
  await expect(dialog.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true')
  await expect(dialog.getByText('No muted users', { exact: false })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await page.getByRole('button', { name: 'Manage Mutes' }).click()
  await expect(muteDialog(page)).toBeVisible()
})

test('a keyword muted in the dialog takes the matching post off Home; the post page shows it behind a notice', async ({ page }) => {
  await logIn(page, robin)
  await expect(homeFeed(page).getByText(binocularsPost)).toBeVisible()

  await page.goto('/settings?tab=mutes')
  const dialog = muteDialog(page)
  await dialog.getByRole('tab', { name: 'Keywords' }).click()
  await expect(dialog.getByText('No muted keywords')).toBeVisible()
  const keyword = dialog.getByRole('textbox', { name: 'Mute a keyword' })
  const add = dialog.getByRole('form', { name: 'Mute a keyword' }).getByRole('button', { name: 'Add' })
  await expect(add).toBeDisabled()
  await keyword.fill('  binoculars ')
  await add.click()
  await expect(toastSaying(page, 'Keyword muted successfully')).toBeVisible()
  await expect(dialog.getByRole('list', { name: 'Muted keywords' }).getByText('binoculars', { exact: true })).toBeVisible()
  await expect(keyword).toHaveValue('')

  await page.keyboard.press('Escape')
  await page.getByRole('link', { name: 'Home' }).first().click()
  await expect(homeFeed(page).getByText(heronPost)).toBeVisible()
  await expect(homeFeed(page).getByText(binocularsPost)).toHaveCount(0)

  // Opened directly, the post is still there, behind the notice.
  await page.goto(`/post/${binocularsId}`)
  await expect(page.getByText('Muted: binoculars')).toBeVisible()
  await expect(page.getByText(binocularsPost)).toHaveCount(0)
  await page.getByRole('button', { name: 'Show anyway' }).click()
  await expect(page.getByText(binocularsPost)).toBeVisible()

  // Unmuting brings it back to Home.
  await page.goto('/settings?tab=mutes')
  await muteDialog(page).getByRole('tab', { name: 'Keywords' }).click()
  await muteDialog(page).getByRole('button', { name: 'Remove keyword binoculars' }).click()
  await expect(toastSaying(page, 'Keyword unmuted successfully')).toBeVisible()
  await expect(muteDialog(page).getByText('No muted keywords')).toBeVisible()
  await page.goto('/')
  await expect(homeFeed(page).getByText(binocularsPost)).toBeVisible()
})

test('domains: a bad one is refused under the form, a good one is muted and removed', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/settings?tab=mutes')
  const dialog = muteDialog(page)
  await dialog.getByRole('tab', { name: 'Domains' }).click()
  const domain = dialog.getByRole('textbox', { name: 'Mute a domain' })
  const add = dialog.getByRole('form', { name: 'Mute a domain' }).getByRole('button', { name: 'Add' })
  await domain.fill('bad_domain')
  await add.click()
  await expect(dialog.getByText('Invalid domain format')).toBeVisible()
  await domain.fill(' Spam.Example ')
  await add.click()
  await expect(toastSaying(page, 'Domain muted successfully')).toBeVisible()
  await expect(dialog.getByRole('list', { name: 'Muted domains' }).getByText('spam.example', { exact: true })).toBeVisible()
  await dialog.getByRole('button', { name: 'Remove domain spam.example' }).click()
  await expect(toastSaying(page, 'Domain unmuted successfully')).toBeVisible()
  await expect(dialog.getByText('No muted domains')).toBeVisible()
})

test("mute from a post's menu: the post leaves Home at once; profile and post page keep it; Unmute restores", async ({ page }) => {
  await logIn(page, robin)
  await expect(homeFeed(page).getByText(calPost)).toBeVisible()

  await cardWith(page, calPost).getByRole('button', { name: 'More options' }).click()
  await page.getByRole('menuitem', { name: `Mute @${cal.username}` }).click()
  const confirm = page.getByRole('dialog', { name: `Mute @${cal.username}?` })
  await expect(confirm).toBeVisible()
  // Cancel changes nothing.
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(homeFeed(page).getByText(calPost)).toBeVisible()

  await cardWith(page, calPost).getByRole('button', { name: 'More options' }).click()
  await page.getByRole('menuitem', { name: `Mute @${cal.username}` }).click()
  await confirm.getByRole('textbox', { name: 'Reason (optional)' }).fill('Too many tide tables')
  await confirm.getByRole('button', { name: 'Mute', exact: true }).click()
  await expect(toastSaying(page, 'User muted successfully')).toBeVisible()
  await expect(homeFeed(page).getByText(calPost)).toHaveCount(0)
  await expect(homeFeed(page).getByText(heronPost)).toBeVisible()
  await page.reload()
  await expect(homeFeed(page).getByText(heronPost)).toBeVisible()
  await expect(homeFeed(page).getByText(calPost)).toHaveCount(0)

  // Mute is feed-only: his profile still lists the post, and the post page shows it behind the notice.
  await page.goto(`/profile/${cal.username}`)
  await expect(page.getByText(calPost)).toBeVisible()
  await page.goto(`/post/${calPostId}`)
  await expect(page.getByText(`Muted: @${cal.username}`)).toBeVisible()
  await page.getByRole('button', { name: 'Show anyway' }).click()
  await expect(page.getByText(calPost)).toBeVisible()

  await page.goto('/settings?tab=mutes')
  const users = muteDialog(page).getByRole('list', { name: 'Muted users' })
  await expect(users.getByText(`@${cal.username}`)).toBeVisible()
  await expect(users.getByText('Too many tide tables')).toBeVisible()
  await muteDialog(page).getByRole('button', { name: `Unmute @${cal.username}` }).click()
  await expect(toastSaying(page, 'User unmuted successfully')).toBeVisible()
  await expect(muteDialog(page).getByText('No muted users', { exact: false })).toBeVisible()
  await page.goto('/')
  await expect(homeFeed(page).getByText(calPost)).toBeVisible()
})

test('mute from a profile: the button opens the same dialog; the toast says so; the profile then offers Unmute', async ({ page }) => {
  await logIn(page, robin)
  await page.goto(`/profile/${ann.username}`)
  await page.getByRole('button', { name: `Mute @${ann.username}` }).click()
  await page.getByRole('dialog', { name: `Mute @${ann.username}?` }).getByRole('button', { name: 'Mute', exact: true }).click()
  await expect(toastSaying(page, 'User muted successfully')).toBeVisible()
  // The profile stays, posts and all; its button now unmutes, and still does after a reload.
  await expect(page.getByText(heronPost)).toBeVisible()
  await expect(page.getByRole('button', { name: `Unmute @${ann.username}` })).toBeVisible()
  await page.goto('/')
  await expect(homeFeed(page).getByText(heronPost)).toHaveCount(0)
  await page.goto(`/profile/${ann.username}`)
  await page.getByRole('button', { name: `Unmute @${ann.username}` }).click()
  await expect(toastSaying(page, 'User unmuted successfully')).toBeVisible()
  await expect(page.getByRole('button', { name: `Mute @${ann.username}` })).toBeVisible()
  await page.goto('/')
  await expect(homeFeed(page).getByText(heronPost)).toBeVisible()
})

test('screenshots: the Mute Management dialog, light and dark', async ({ page, request }) => {
  await muteThrough(request, robin, 'user', { userId: cal.id, reason: 'Too many tide tables' })
  await muteThrough(request, robin, 'keyword', { keyword: 'spoilers' })
  await muteThrough(request, robin, 'keyword', { keyword: 'crypto giveaway' })
  await muteThrough(request, robin, 'domain', { domain: 'spam.example' })
  await logIn(page, robin)
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/settings?tab=mutes')
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/)
    const dialog = muteDialog(page)
    await expect(dialog.getByRole('list', { name: 'Muted users' }).getByText(`@${cal.username}`)).toBeVisible()
    await shot(page, `settings-mutes-users-desktop-${theme}`)
    await dialog.getByRole('tab', { name: 'Keywords' }).click()
    await expect(dialog.getByRole('list', { name: 'Muted keywords' }).getByText('spoilers', { exact: true })).toBeVisible()
    await shot(page, `settings-mutes-keywords-desktop-${theme}`)
    // The post page of a muted member's post, behind its notice.
    await page.goto(`/post/${calPostId}`)
    await expect(page.getByText(`Muted: @${cal.username}`)).toBeVisible()
    await shot(page, `post-muted-notice-desktop-${theme}`)
    // The confirm of Mute @user, with a reason over 200 characters (Mute disabled, the message under it).
    await page.goto(`/profile/${ann.username}`)
    await page.getByRole('button', { name: `Mute @${ann.username}` }).click()
    const confirm = page.getByRole('dialog', { name: `Mute @${ann.username}?` })
    await confirm.getByRole('textbox', { name: 'Reason (optional)' }).fill('x'.repeat(201))
    await expect(confirm.getByText('Reason must be at most 200 characters')).toBeVisible()
    await expect(confirm.getByRole('button', { name: 'Mute', exact: true })).toBeDisabled()
    await shot(page, `mute-user-dialog-desktop-${theme}`)
  }
})
