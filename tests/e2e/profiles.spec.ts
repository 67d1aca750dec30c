import { test, expect, type Page } from '@playwright/test'
import {
  follow,
  gradientPng,
  like,
  logIn,
  type Member,
  publish,
  register,
  setTheme,
  shot,
} from './support/members'

// Profiles, following and the profile settings, walked in a real browser against the real server:
// - Robin (registered here) opens their own profile, edits it in Settings, uploads an avatar and a banner;
// - Ann has an original post, a reply, a photo post and a like, so each profile tab shows something different, and
//   22 fans who follow her and whom she follows, so both lists need Load more;
// - Robin follows Ann (count +1), sees her posts in Home, and follows a fan from her followers list.
// Screenshots (light and dark, desktop and phone) go to test-results/screens/.

const FANS = 22

let robin: Member
let ann: Member
let fans: Member[]
const annPosts = {
  original: 'Morning walk along the estuary, the wrens were loud today',
  reply: 'Agreed, the light was perfect',
  photo: 'Low tide colours',
  liked: 'A fan post that Ann liked',
}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  // 24 registrations (argon2 on the server) and 44 follows: more than one test's budget on a busy machine.
  test.setTimeout(120_000)
  robin = await register(request, 'robin', 'Robin Wren')
  ann = await register(request, 'ann', 'Ann Estuary')
  fans = []
  for (let i = 0; i < FANS; i += 1) fans.push(await register(request, 'fan', `Fan ${String(i + 1).padStart(2, '0')}`))
  for (const fan of fans) {
    await follow(request, fan, ann)
    await follow(request, ann, fan)
  }
  const first = fans[0] as Member
  const fanPost = await publish(request, first, { content: 'A question for the birders: wrens or robins?' })
  const likedPost = await publish(request, first, { content: annPosts.liked })
  await publish(request, ann, { content: annPosts.original })
  await publish(request, ann, { content: annPosts.reply, replyTo: fanPost.id })
  await publish(request, ann, { content: annPosts.photo, image: await gradientPng(480, 320, [32, 139, 254], [255, 176, 72]) })
  await like(request, ann, likedPost.id)
})

/** The sticky page header's title (the profile's display name). */
const pageTitle = (page: Page) => page.getByRole('main').getByRole('heading', { level: 1 })
const profileSection = (page: Page) => page.getByRole('region', { name: /'s profile$/ })
const tab = (page: Page, name: string) => page.getByRole('tab', { name })
const feed = (page: Page) => page.getByRole('feed')

test('own profile: name, @username, joined date, counts, owner buttons', async ({ page }) => {
  await logIn(page, robin)
  await page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Profile' }).click()
  await expect(page).toHaveURL(new RegExp(`/profile/${robin.username}$`))
  const header = profileSection(page)
  await expect(header.getByRole('heading', { name: 'Robin Wren' })).toBeVisible()
  await expect(header.getByText(`@${robin.username}`)).toBeVisible()
  const joined = new Date().toLocaleString('en-US', { month: 'long', year: 'numeric' })
  await expect(header.getByText(`Joined ${joined}`)).toBeVisible()
  await expect(header.getByRole('link', { name: '0 Following' })).toBeVisible()
  await expect(header.getByRole('link', { name: '0 Followers' })).toBeVisible()
  await expect(header.getByRole('link', { name: 'Edit Profile' })).toBeVisible()
  await expect(header.getByRole('button', { name: 'Change profile photo' })).toBeVisible()
  await expect(header.getByRole('button', { name: 'Change banner' })).toBeVisible()
  await expect(header.getByRole('button', { name: /^Follow/ })).toHaveCount(0)
  await expect(page.getByText("You haven't posted yet")).toBeVisible()
})

test('edit profile in Settings: rules, Profile updated, the new name on the profile and in the shell', async ({ page }) => {
  await logIn(page, robin)
  await page.goto(`/profile/${robin.username}`)
  await profileSection(page).getByRole('link', { name: 'Edit Profile' }).click()
  await expect(page).toHaveURL(/\/settings\?tab=profile$/)

  const form = page.getByRole('form', { name: 'Profile settings' })
  const displayName = form.getByLabel('Display Name')
  await expect(displayName).toHaveValue('Robin Wren')
  await displayName.fill('x'.repeat(51))
  await form.getByRole('button', { name: 'Save Changes' }).click()
  await expect(form.getByText('Maximum 50 characters', { exact: true })).toBeVisible()
  await displayName.fill('   ')
  await form.getByRole('button', { name: 'Save Changes' }).click()
  await expect(form.getByText('Display name is required', { exact: true })).toBeVisible()

  await displayName.fill('Robin of the Reeds')
  const bio = form.getByLabel('Bio')
  await bio.fill('Counting birds and bikes.\nEstuary regular.')
  await expect(form.getByText('42/500')).toBeVisible()
  await form.getByLabel(/Private account/).check()
  await form.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Profile updated')).toBeVisible()
  // The shell's user card reads the session, which now holds the saved member.
  await expect(page.locator('aside').getByText('Robin of the Reeds')).toBeVisible()

  await page.reload()
  await expect(form.getByLabel('Display Name')).toHaveValue('Robin of the Reeds')
  await expect(form.getByLabel(/Private account/)).toBeChecked()
  await shot(page, 'settings-profile-desktop-light')

  await page.goto(`/profile/${robin.username}`)
  const header = profileSection(page)
  await expect(header.getByRole('heading', { name: 'Robin of the Reeds' })).toBeVisible()
  await expect(header.getByText('Counting birds and bikes.')).toBeVisible()
  await expect(header.getByText('Private', { exact: true })).toBeVisible()
  robin.displayName = 'Robin of the Reeds'
})

test('privacy settings save with their toast and stay after a reload; Appearance switches the theme', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/settings?tab=privacy')
  const form = page.getByRole('form', { name: 'Privacy settings' })
  await form.getByLabel(/Show sensitive content/).check()
  await form.getByLabel('Direct Messages').selectOption({ label: 'People I follow' })
  await form.getByLabel('Mentions').selectOption({ label: 'No one' })
  await form.getByRole('button', { name: 'Save Privacy Settings' }).click()
  await expect(page.getByText('Privacy settings updated')).toBeVisible()
  await page.reload()
  await expect(form.getByLabel(/Show sensitive content/)).toBeChecked()
  await expect(form.getByLabel('Direct Messages')).toHaveValue('following')
  await expect(form.getByLabel('Mentions')).toHaveValue('none')

  // Appearance: Light or Dark, for the whole page at once.
  await page.goto('/settings?tab=appearance')
  await page.getByRole('radio', { name: 'Dark' }).check({ force: true })
  await expect(page.locator('html')).toHaveClass(/dark/)
  await page.getByRole('radio', { name: 'Light' }).check({ force: true })
  await expect(page.locator('html')).not.toHaveClass(/dark/)
})

test('upload an avatar and a banner from the camera buttons', async ({ page }) => {
  await logIn(page, robin)
  await page.goto(`/profile/${robin.username}`)
  const header = profileSection(page)
  await expect(header.getByRole('heading', { name: robin.displayName })).toBeVisible()

  const avatar = await gradientPng(256, 256, [255, 120, 80], [120, 60, 200])
  await header.locator('input[type=file][name=avatar]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: avatar })
  await expect(page.getByText('Profile photo updated')).toBeVisible()
  await expect(header.locator('img[src^="/media/"]')).toHaveCount(1)
  // The session heard about it: the shell's own avatar is the new picture too.
  await expect(page.locator('nav, aside').locator('img[src^="/media/"]').first()).toBeVisible()

  const banner = await gradientPng(900, 300, [20, 90, 160], [120, 210, 190])
  await header.locator('input[type=file][name=banner]').setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: banner })
  await expect(page.getByText('Banner updated')).toBeVisible()
  await expect(header.locator('img[src^="/media/"]')).toHaveCount(2)

  // Not an image: the server's own words come back as an error toast.
  await header
    .locator('input[type=file][name=avatar]')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') })
  await expect(page.getByText(/Unsupported file type/)).toBeVisible()

  await page.reload()
  await expect(header.locator('img[src^="/media/"]')).toHaveCount(2)
  await shot(page, 'profile-own-desktop-light')
})

test('a missing member reads User not found with a link home', async ({ page }) => {
  await logIn(page, robin)
  await page.goto('/profile/nobody_by_this_name')
  await expect(page.getByRole('heading', { name: 'User not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Go to Home' }).click()
  await expect(page).toHaveURL(/\/$/)
})

test("follow another member: 'Following', the count moves by one and stays after a reload", async ({ page }) => {
  await logIn(page, robin)
  await page.goto(`/profile/${ann.username}`)
  const header = profileSection(page)
  await expect(header.getByRole('heading', { name: 'Ann Estuary' })).toBeVisible()
  await expect(pageTitle(page)).toHaveText('Ann Estuary')
  await expect(header.getByRole('link', { name: `${FANS} Following` })).toBeVisible()
  await expect(header.getByRole('link', { name: `${FANS} Followers` })).toBeVisible()
  // Message starts the conversation (tests/e2e/messages.spec.ts walks it).
  await expect(header.getByRole('button', { name: `Message @${ann.username}` })).toBeEnabled()
  await expect(header.getByRole('button', { name: `Block @${ann.username}` })).toBeEnabled()
  await expect(header.getByRole('link', { name: 'Edit Profile' })).toHaveCount(0)

  await header.getByRole('button', { name: `Follow @${ann.username}` }).click()
  await expect(page.getByText('Following', { exact: true })).toBeVisible()
  await expect(header.getByRole('link', { name: `${FANS + 1} Followers` })).toBeVisible()
  await expect(header.getByRole('button', { name: `Unfollow @${ann.username}` })).toBeVisible()
  await shot(page, 'profile-other-desktop-light')

  await page.reload()
  await expect(header.getByRole('link', { name: `${FANS + 1} Followers` })).toBeVisible()
  await expect(header.getByRole('button', { name: `Unfollow @${ann.username}` })).toBeVisible()

  // Unfollow and follow again: 'Unfollowed', then back to following for the rest of the walk.
  await header.getByRole('button', { name: `Unfollow @${ann.username}` }).click()
  await expect(page.getByText('Unfollowed', { exact: true })).toBeVisible()
  await expect(header.getByRole('link', { name: `${FANS} Followers` })).toBeVisible()
  await header.getByRole('button', { name: `Follow @${ann.username}` }).click()
  await expect(header.getByRole('link', { name: `${FANS + 1} Followers` })).toBeVisible()
})

test("the followed member's posts appear in Home", async ({ page }) => {
  await logIn(page, robin)
  await expect(feed(page).getByText(annPosts.original)).toBeVisible()
  await expect(feed(page).getByText(annPosts.photo)).toBeVisible()
})

test('profile tabs each show what their name says', async ({ page }) => {
  await logIn(page, robin)
  await page.goto(`/profile/${ann.username}`)
  await expect(tab(page, 'Posts')).toHaveAttribute('aria-selected', 'true')
  await expect(feed(page).getByText(annPosts.original)).toBeVisible()
  await expect(feed(page).getByText(annPosts.photo)).toBeVisible()
  await expect(feed(page).getByText(annPosts.reply)).toHaveCount(0)

  await tab(page, 'Replies').click()
  await expect(feed(page).getByText(annPosts.reply)).toBeVisible()
  await expect(feed(page).getByText(annPosts.original)).toHaveCount(0)

  await tab(page, 'Media').click()
  await expect(feed(page).getByText(annPosts.photo)).toBeVisible()
  await expect(feed(page).getByText(annPosts.original)).toHaveCount(0)
  await expect(feed(page).locator('img').first()).toBeVisible()

  await tab(page, 'Likes').click()
  await expect(feed(page).getByText(annPosts.liked)).toBeVisible()
  await expect(feed(page).getByText(annPosts.photo)).toHaveCount(0)

  // The keyboard moves between tabs too.
  await tab(page, 'Likes').press('ArrowLeft')
  await expect(tab(page, 'Media')).toHaveAttribute('aria-selected', 'true')
  await expect(feed(page).getByText(annPosts.photo)).toBeVisible()

  // Robin's own likes tab is empty, with its own words.
  await page.goto(`/profile/${robin.username}`)
  await tab(page, 'Likes').click()
  await expect(page.getByText('No likes yet')).toBeVisible()
})

test('followers and following lists with Load more; follow from a row', async ({ page }) => {
  test.slow()
  await logIn(page, robin)
  await page.goto(`/profile/${ann.username}`)
  await profileSection(page).getByRole('link', { name: `${FANS + 1} Followers` }).click()
  await expect(page).toHaveURL(new RegExp(`/profile/${ann.username}/followers$`))
  await expect(pageTitle(page)).toHaveText('Followers')
  await expect(page.getByRole('main').locator('header').getByText(`@${ann.username}`)).toBeVisible()

  const list = page.getByRole('list', { name: `Followers of @${ann.username}` })
  const rows = list.getByRole('listitem')
  await expect(rows).toHaveCount(20)
  // Most recent first: Robin followed last, and their own row has no button.
  const robinRow = rows.filter({ hasText: `@${robin.username}` })
  await expect(robinRow).toHaveCount(1)
  await expect(robinRow.getByRole('button')).toHaveCount(0)
  await shot(page, 'followers-desktop-light')

  await page.getByRole('button', { name: 'Load more' }).click()
  await expect(rows).toHaveCount(FANS + 1)
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0)

  const fan = fans[5] as Member
  const fanRow = rows.filter({ hasText: `@${fan.username}` })
  await fanRow.getByRole('button', { name: `Follow @${fan.username}` }).click()
  await expect(page.getByText('Following user')).toBeVisible()
  await expect(fanRow.getByRole('button', { name: `Unfollow @${fan.username}` })).toBeVisible()
  await fanRow.getByRole('button', { name: `Unfollow @${fan.username}` }).click()
  await expect(page.getByText('Unfollowed user')).toBeVisible()

  await fanRow.getByRole('link', { name: fan.displayName }).click()
  await expect(page).toHaveURL(new RegExp(`/profile/${fan.username}$`))
  await expect(profileSection(page).getByRole('heading', { name: fan.displayName })).toBeVisible()

  await page.goto(`/profile/${ann.username}/following`)
  await expect(pageTitle(page)).toHaveText('Following')
  const following = page.getByRole('list', { name: `Followed by @${ann.username}` }).getByRole('listitem')
  await expect(following).toHaveCount(20)
  await page.getByRole('button', { name: 'Load more' }).click()
  await expect(following).toHaveCount(FANS)
  await page.getByRole('link', { name: `Back to @${ann.username}` }).click()
  await expect(page).toHaveURL(new RegExp(`/profile/${ann.username}$`))

  // Robin follows nobody but Ann; nobody follows Robin.
  await page.goto(`/profile/${robin.username}/followers`)
  await expect(page.getByText('No followers yet')).toBeVisible()
})

test('screenshots: profile, followers and settings, light and dark, desktop and phone', async ({ page }) => {
  // Sixteen full-page screenshots.
  test.slow()
  await logIn(page, robin)
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme)
    for (const device of ['desktop', 'phone'] as const) {
      await page.setViewportSize(device === 'phone' ? { width: 390, height: 844 } : { width: 1280, height: 800 })
      await page.goto(`/profile/${ann.username}`)
      await expect(feed(page).getByText(annPosts.original)).toBeVisible()
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/)
      await shot(page, `profile-${device}-${theme}`)

      await page.goto(`/profile/${robin.username}`)
      await expect(profileSection(page).getByRole('heading', { name: robin.displayName })).toBeVisible()
      await shot(page, `profile-own-${device}-${theme}`)

      await page.goto(`/profile/${ann.username}/followers`)
      await expect(page.getByRole('listitem').first()).toBeVisible()
      await shot(page, `followers-${device}-${theme}`)

      await page.goto('/settings?tab=profile')
      await expect(page.getByLabel('Display Name')).toHaveValue(robin.displayName)
      await shot(page, `settings-profile-${device}-${theme}`)
    }
  }
})
