import http from 'node:http'
import { test, expect } from '@playwright/test'
import { gradientPng, logIn, register, shot, type Member } from './support/members'

// A member posts a link (docs/product.md, "Link previews"): the post appears at once, and its card gains the page's
// preview once the server has read the page. The page is served here, on the one loopback port the walks' server lets
// previews read (tests/e2e/support/server.ts).

const previewPort = Number(process.env.E2E_PREVIEW_PORT)
const TITLE = 'Wrens sing <b>louder</b> than their size'

let pages: http.Server
let wren: Member

test.beforeAll(async ({ request }) => {
  const image = await gradientPng(1200, 630, [36, 112, 206], [240, 168, 72])
  pages = http.createServer((req, res) => {
    if (req.url === '/story') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><html><head><title>ignored</title>
        <meta property="og:title" content="${TITLE.replace(/</g, '&lt;').replace(/>/g, '&gt;')}">
        <meta property="og:description" content="A small bird with a loud song: field notes from a spring morning by the river, where one wren out-sang the whole hedge and then some, at length, before breakfast.">
        <meta property="og:image" content="/cover.png"><meta property="og:site_name" content="Field Notes">
        </head><body></body></html>`)
    } else if (req.url === '/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.end(image)
    } else {
      res.writeHead(404)
      res.end()
    }
  })
  await new Promise<void>((resolve) => pages.listen(previewPort, '127.0.0.1', resolve))
  wren = await register(request, 'wren', 'Wren Linker')
})

test.afterAll(async () => {
  pages?.closeAllConnections()
  await new Promise((resolve) => pages?.close(resolve))
})

test('a posted link gains its preview card, a link to the page in a new tab', async ({ page }) => {
  const link = `http://127.0.0.1:${previewPort}/story`
  await logIn(page, wren)
  await page.getByRole('button', { name: 'Create Post' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Create Post' })
  const text = `Heard this one this morning ${link}`
  await dialog.getByRole('textbox', { name: 'Post text' }).fill(text)
  await dialog.getByRole('button', { name: 'Post', exact: true }).click()
  await expect(dialog).toHaveCount(0)

  const card = () => page.getByRole('feed', { name: 'Home feed' }).getByRole('article').filter({ hasText: 'Heard this one' })
  await expect(card()).toBeVisible()
  // The server reads the page after the post was created; Home shows it once it is stored.
  await expect(async () => {
    await page.reload()
    await expect(card().getByTestId('link-preview')).toBeVisible({ timeout: 1_500 })
  }).toPass({ timeout: 20_000 })

  const preview = card().getByTestId('link-preview')
  await expect(preview).toHaveAttribute('href', link)
  await expect(preview).toHaveAttribute('target', '_blank')
  await expect(preview).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc')
  // The page's markup is its text, not ours.
  await expect(preview.getByText(TITLE, { exact: true })).toBeVisible()
  await expect(preview.locator('b')).toHaveCount(0)
  await expect(preview.getByText('Field Notes', { exact: true })).toBeVisible()
  const image = preview.locator('img')
  await expect(image).toHaveAttribute('loading', 'lazy')
  await expect(image).toHaveAttribute('src', /^\/media\/previews\//)
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(800)

  await shot(page, 'link-preview-card-light')
  await page.evaluate(() => document.documentElement.classList.add('dark'))
  await shot(page, 'link-preview-card-dark')
  await page.evaluate(() => document.documentElement.classList.remove('dark'))

  // The post page shows it too.
  const res = await page.request.get('/api/posts/feed', { headers: { Authorization: `Bearer ${wren.token}` } })
  const { posts } = (await res.json()) as { posts: Array<{ id: string; content: string }> }
  const id = posts.find((p) => p.content === text)?.id
  await page.goto(`/post/${id}`)
  await expect(page.getByTestId('link-preview')).toBeVisible()
  await shot(page, 'link-preview-post-page-light')
})
