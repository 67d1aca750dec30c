import { test, expect } from '@playwright/test'
import { logIn, register, shot, type Member, toastSaying } from './support/members'

// A post whose answer is lost on the way back (docs/product.md, "Writing a post"): the first request reaches the
// server and is published, but the browser sees a network error. Post again sends the same Idempotency-Key, so the
// server answers with the post it already made and Home shows it once.

let kite: Member

test.beforeAll(async ({ request }) => {
  kite = await register(request, 'kite', 'Kite Retry')
})


test('a post retried after a lost answer appears once', async ({ page }) => {
  await logIn(page, kite)
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()
  const feed = page.getByRole('feed', { name: 'Home feed' })

  // The first POST /api/posts reaches the server; its answer is dropped, as a connection lost on the way back would.
  const keys: Array<string | undefined> = []
  await page.route('**/api/posts', async (route) => {
    if (route.request().method() !== 'POST') return route.continue()
    keys.push(await route.request().headerValue('idempotency-key') ?? undefined)
    if (keys.length === 1) {
      const answer = await route.fetch()
      expect(answer.status()).toBe(201)
      return route.abort('connectionreset')
    }
    return route.continue()
  })

  await page.getByRole('button', { name: 'Create Post' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Create Post' })
  const text = `Said once, even if the network says otherwise ${Date.now().toString(36)}`
  await dialog.getByRole('textbox', { name: 'Post text' }).fill(text)
  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(toastSaying(page, /Unable to reach the server/)).toBeVisible()
  // The draft waits in the dialog; Post again.
  await expect(dialog.getByRole('textbox', { name: 'Post text' })).toHaveValue(text)
  // The dark theme is one class on <html> over the same screen (src/machines/theme), so both are looked at here.
  await shot(page, 'composer-lost-answer-light')
  await page.evaluate(() => document.documentElement.classList.add('dark'))
  await shot(page, 'composer-lost-answer-dark')
  await page.evaluate(() => document.documentElement.classList.remove('dark'))
  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(toastSaying(page, 'Post created!')).toBeVisible()
  await expect(dialog).toHaveCount(0)

  expect(keys).toHaveLength(2)
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
  expect(keys[1]).toBe(keys[0])

  // Once in Home, and once on the server.
  await expect(feed.getByRole('article').filter({ hasText: text })).toHaveCount(1)
  await page.reload()
  await expect(page.getByRole('feed', { name: 'Home feed' }).getByRole('article').filter({ hasText: text })).toHaveCount(1)
  const res = await page.request.get('/api/posts/feed', { headers: { Authorization: `Bearer ${kite.token}` } })
  expect(res.status()).toBe(200)
  const { posts } = (await res.json()) as { posts: Array<{ content: string }> }
  expect(posts.filter((p) => p.content === text)).toHaveLength(1)

  // The next post is a new submission with a key of its own.
  await page.getByRole('button', { name: 'Create Post' }).first().click()
  await dialog.getByRole('textbox', { name: 'Post text' }).fill(`${text} (and a second thought)`)
  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(toastSaying(page, 'Post created!')).toBeVisible()
  expect(keys).toHaveLength(3)
  expect(keys[2]).not.toBe(keys[0])
})
