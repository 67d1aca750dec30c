import { expect, test, type Page } from '@playwright/test'
import { follow, like, PASSWORD, publish, register, setTheme, shot, type Member } from './support/members'

// Deleting an account (docs/product.md, "Deleting an account"): Bob follows Ann and likes her post, Ann likes Bob's;
// Ann deletes her account from Settings -> Account (screenshots of the dialog, light and dark) and lands on the
// sign-in screen with a toast. Bob's feed no longer shows her post, and the counts he sees are exact again.

let ann: Member
let bob: Member

// The browser derives argon2id at sign-in and at the deletion: on a busy machine that takes seconds.
const SLOW = { timeout: 30_000 }

async function logIn(page: Page, member: Member): Promise<void> {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(member.username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/, SLOW)
}

test.beforeAll(async ({ request }) => {
  // On a fresh instance the first account is its admin, and the last admin cannot leave: someone else comes first.
  await register(request, 'first', 'First Member')
  ann = await register(request, 'ann', 'Ann Leaving')
  bob = await register(request, 'bob', 'Bob Staying')
  await follow(request, bob, ann)
})

test('delete an account and see its posts gone from another member\'s feed and counts exact', async ({ page, browser, request }) => {
  test.setTimeout(240_000)
  const annPost = await publish(request, ann, { content: `Goodbye from Ann ${ann.username}` })
  const bobPost = await publish(request, bob, { content: `Bob is here ${bob.username}` })
  await like(request, bob, annPost.id)
  await like(request, ann, bobPost.id)

  // Bob, before: Ann's post in his feed, his own post liked once.
  const bobPage = await browser.newPage()
  await logIn(bobPage, bob)
  const annCard = bobPage.getByRole('article').filter({ hasText: `Goodbye from Ann ${ann.username}` })
  const bobCard = bobPage.getByRole('article').filter({ hasText: `Bob is here ${bob.username}` })
  await expect(annCard).toBeVisible(SLOW)
  await expect(bobCard.getByRole('button', { name: 'Like, 1 like' })).toBeVisible()

  // Ann opens the dialog, in both themes.
  await logIn(page, ann)
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme)
    await page.goto('/settings?tab=account')
    await page.getByRole('button', { name: 'Delete account' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete account' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('Your posts and replies, with their photos and videos')
    await expect(dialog).toContainText('Reports you filed stay with the moderators')
    await shot(page, `account-delete-dialog-${theme}`)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toHaveCount(0)
  }

  // A mistyped username is refused in the dialog; nothing is sent.
  await page.getByRole('button', { name: 'Delete account' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete account' })
  await dialog.getByLabel('Password').fill(PASSWORD)
  await dialog.getByLabel(/Type your username/).fill(`${ann.username}x`)
  await dialog.getByRole('button', { name: 'Delete my account' }).click()
  await expect(dialog).toContainText('Type your username to confirm')
  await expect(page).toHaveURL(/\/settings/)

  // The real thing: signed out to the sign-in screen, with a toast.
  await dialog.getByLabel(/Type your username/).fill(ann.username)
  // A success toast shows for 2 s: watched for from before the click.
  const toast = page.getByText('Your account is being deleted').waitFor({ state: 'visible', timeout: 60_000 })
  await dialog.getByRole('button', { name: 'Delete my account' }).click()
  await toast
  await expect(page).toHaveURL(/\/login/, SLOW)

  // Her token is refused at once.
  const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${ann.token}` } })
  expect(me.status()).toBe(401)

  // Bob: Ann's post is gone from his feed, his post's like count is exact, he follows nobody.
  await expect
    .poll(async () => {
      const res = await request.get(`/api/users/${bob.username}`, { headers: { Authorization: `Bearer ${bob.token}` } })
      return ((await res.json()) as { user: { stats: { following: number } } }).user.stats.following
    })
    .toBe(0)
  await bobPage.reload()
  await expect(bobCard).toBeVisible(SLOW)
  await expect(annCard).toHaveCount(0)
  await expect(bobCard.getByRole('button', { name: 'Like, 0 likes' })).toBeVisible()
  await bobPage.close()
})
