import { test, expect, type Page } from '@playwright/test'
import { findAdmin, type Member, PASSWORD, register, setTheme, shot } from './support/members'

// The instance pages, /terms and /privacy, walked in a real browser against the real server (docs/product.md,
// "Instance pages"):
// - a visitor without an account opens the Terms of Service from the registration form and reads the default text;
// - the instance's admin writes new Terms in the admin panel (a blank text is refused with a message), with hostile
//   HTML and a javascript: link in it, previews it and saves it: a toast, and the audit log says so;
// - a visitor opens /terms from the registration form again and reads the new text, the hostile parts as inert text,
//   under the strict CSP with no violation; the back link returns to the form;
// - a member reads the Privacy Policy inside the app.
// Screenshots (light and dark) of /terms and of the editor go to test-results/screens/.

let member: Member
let admin: Member
let adminPassword = ''
/** The first look after a navigation waits for the screen's chunk and the session check (slow on a busy machine). */
const ARRIVE = { timeout: 30_000 }

const NEW_TERMS = [
  '## Our community rules',
  '',
  'Be **kind**. No spam. Questions: [write to us](mailto:ops@example.test) or read the [privacy policy](/privacy).',
  '',
  '<img src=x onerror="window.__pwned = 1">',
  '',
  '<script>window.__pwned = 2</script>',
  '',
  '[click me](javascript:window.__pwned=3)',
].join('\n')

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  // On a fresh instance (this file alone, without the foundation suite) this first account is the admin; after the
  // foundation suite, findAdmin finds that suite's admin instead.
  await register(request, 'wren', 'Robin Wren')
  member = await register(request, 'pgs', 'Page Reader')
  const found = await findAdmin(request, member)
  admin = found.admin
  adminPassword = found.password
})

/** Collects what the browser reports about the page: CSP violations and uncaught errors. */
function watch(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  return problems
}

/** Signs in through the form; the browser's argon2id takes seconds on a busy machine, so Home may take a while. */
async function signInAs(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/, ARRIVE)
}

/** Opens a page of the registration form's terms checkbox (it opens in a new tab). */
async function openFromRegistration(page: Page, name: 'Terms of Service' | 'Privacy Policy'): Promise<Page> {
  await page.goto('/register')
  const [opened] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name }).click()])
  await opened.waitForLoadState()
  return opened
}

test('a visitor without an account opens the default Terms of Service from the registration form', async ({ page }) => {
  const terms = await openFromRegistration(page, 'Terms of Service')
  await expect(terms).toHaveURL(/\/terms$/)
  await expect(terms.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible(ARRIVE)
  await expect(terms.getByText("This instance's administrators have not written their own text yet")).toBeVisible()
  await expect(terms.getByRole('heading', { name: 'Direct messages' })).toBeVisible()
  await expect(terms.getByText(/end-to-end encrypted/).first()).toBeVisible()
  await shot(terms, 'terms-default-light')
})

test('the admin writes new Terms in the admin panel, previews and saves them; the audit log says so', async ({ page }) => {
  await signInAs(page, admin.username, adminPassword)
  await page.goto('/admin')
  const section = page.getByRole('region', { name: 'Instance pages' })
  await expect(section.getByRole('tab', { name: 'Terms of Service' })).toHaveAttribute('aria-selected', 'true', ARRIVE)
  await expect(section.getByText('Showing the default text: nothing saved yet')).toBeVisible()
  const editor = section.getByLabel('Terms of Service (markdown)')
  await expect(editor).toHaveValue(/Note to the operator/)
  const save = section.getByRole('button', { name: 'Save Terms of Service' })
  await expect(save).toBeDisabled()

  // A blank text cannot be saved, and the editor says why.
  await editor.fill('   ')
  await expect(section.getByRole('alert')).toHaveText('Write the page text before saving')
  await expect(save).toBeDisabled()

  await editor.fill(NEW_TERMS)
  await expect(section.getByRole('alert')).toHaveCount(0)
  await expect(section.getByText(`${NEW_TERMS.length}/50,000`)).toBeVisible()
  await expect(save).toBeEnabled()

  // The other tab keeps its own text; back on Terms, the draft is still there.
  await section.getByRole('tab', { name: 'Privacy Policy' }).click()
  await expect(section.getByLabel('Privacy Policy (markdown)')).toHaveValue(/What this instance stores/)
  await section.getByRole('tab', { name: 'Terms of Service' }).click()
  await expect(editor).toHaveValue(NEW_TERMS)

  await section.getByRole('button', { name: 'Preview' }).click()
  const preview = section.getByRole('region', { name: 'Preview of the Terms of Service' })
  await expect(preview.getByRole('heading', { name: 'Our community rules' })).toBeVisible()
  await expect(preview.getByText('<img src=x onerror="window.__pwned = 1">')).toBeVisible()
  await expect(preview.locator('img, script')).toHaveCount(0)
  await expect(preview.getByRole('link', { name: 'click me' })).toHaveCount(0)
  await shot(page, 'admin-instance-pages-light')
  await setTheme(page, 'dark')
  await page.evaluate(() => document.documentElement.classList.add('dark'))
  await shot(page, 'admin-instance-pages-dark')
  await section.getByRole('button', { name: 'Write' }).click()
  await page.evaluate(() => document.documentElement.classList.remove('dark'))
  await setTheme(page, 'light')

  await save.click()
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText('Terms of Service saved').last()).toBeVisible()
  await expect(section.getByRole('status')).toHaveText('Terms of Service saved')
  await expect(section.getByText(/^Last saved/)).toBeVisible()
  await expect(save).toBeDisabled()
  const log = page.getByRole('list', { name: 'Audit log entries' })
  await expect(log.getByText('Edited the Terms of Service').first()).toBeVisible()
})

test('a visitor opens /terms from the registration form and reads the new text, the hostile parts inert', async ({ page }) => {
  const opened = await openFromRegistration(page, 'Terms of Service')
  const problems = watch(opened)
  await opened.reload()
  await expect(opened.getByRole('heading', { name: 'Our community rules' })).toBeVisible(ARRIVE)
  await expect(opened.getByText(/^Last updated/)).toBeVisible()
  const article = opened.getByRole('article')
  await expect(article.getByRole('link', { name: 'write to us' })).toHaveAttribute('href', 'mailto:ops@example.test')
  await expect(article.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy')
  // The HTML shows as the text it is; the javascript: link is no link; nothing ran.
  await expect(article.getByText('<script>window.__pwned = 2</script>')).toBeVisible()
  await expect(article.getByText('[click me](javascript:window.__pwned=3)')).toBeVisible()
  await expect(article.locator('img, script, [onerror]')).toHaveCount(0)
  await expect(article.getByRole('link', { name: 'click me' })).toHaveCount(0)
  expect(await opened.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
  expect(problems).toEqual([])
  await shot(opened, 'terms-light')
  await setTheme(opened, 'dark')
  await opened.reload()
  await expect(opened.getByRole('heading', { name: 'Our community rules' })).toBeVisible(ARRIVE)
  await shot(opened, 'terms-dark')
  await setTheme(opened, 'light')

  // The page's own links: to the privacy policy, and back to the registration form.
  await article.getByRole('link', { name: 'privacy policy' }).click()
  await expect(opened.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible(ARRIVE)
  await opened.getByRole('link', { name: '← Back to sign up' }).click()
  await expect(opened.getByRole('heading', { name: 'Join Wren' })).toBeVisible(ARRIVE)
})

test('a member reads the Privacy Policy inside the app and goes back home', async ({ page }) => {
  await signInAs(page, member.username, PASSWORD)
  await page.goto('/privacy')
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible(ARRIVE)
  await expect(page.getByRole('heading', { name: 'What this instance stores' })).toBeVisible()
  await shot(page, 'privacy-signed-in-light')
  await page.getByRole('link', { name: 'Back to Home' }).click()
  await expect(page).toHaveURL(/\/$/, ARRIVE)
})
