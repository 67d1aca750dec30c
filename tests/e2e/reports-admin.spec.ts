import { test, expect, type Browser, type Page } from '@playwright/test'
import { findAdmin, logIn, type Member, PASSWORD, publish, register, setTheme, shot, uniqueUsername, toastSaying } from './support/members'

// Reports and the admin panel, walked in a real browser against the real server (docs/product.md, "Reports" and
// "Admin panel"):
// - Gus reports Tom's post from its menu (the dialog refuses a missing reason first) and sees it Pending Review in his
//   own, read-only Reports Management;
// - the instance's admin (the account the foundation suite registered first) marks it Under Review, then resolves it
//   with a note, deleting the post (after a confirm);
// - Gus is told (Notifications) and reads the outcome and the note in his reports;
// - the admin promotes and demotes Tom from the admin panel, recalculates and fixes all stats, migrates keys, and
//   sees it all in the audit log;
// - Fay reports a message Eve sent her (its decrypted text goes with the report; Eve has no Report on her own
//   message) and Eve from her profile;
// - a member sees Access Denied.
// Screenshots (light and dark) go to test-results/screens/.

let gus: Member
let tom: Member
let admin: Member
const rudePost = 'You are all idiots and I will find where you live'
let rudePostId = ''
let adminPassword = PASSWORD

async function logInAdmin(page: Page): Promise<void> {
  await page.goto('/login')
  await page.getByLabel(/username or email/i).fill(admin.username)
  await page.getByLabel('Password').fill(adminPassword)
  await page.getByRole('button', { name: /log in|sign in/i }).click()
  await expect(page).toHaveURL(/\/$/)
}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ request }) => {
  gus = await register(request, 'gus', 'Gus Reporter')
  tom = await register(request, 'tom', 'Tom Troll')
  rudePostId = (await publish(request, tom, { content: rudePost })).id
  const found = await findAdmin(request, gus)
  admin = found.admin
  adminPassword = found.password
})

const reportsDialog = (page: Page) => page.getByRole('dialog', { name: 'Reports Management' })

test('a member reports a post from its menu and sees it pending in their reports', async ({ page }) => {
  await logIn(page, gus)
  await page.goto(`/post/${rudePostId}`)
  const card = page.getByRole('article').filter({ hasText: rudePost }).first()
  await card.getByRole('button', { name: 'More options' }).click()
  await page.getByRole('menuitem', { name: 'Report' }).click()
  const dialog = page.getByRole('dialog', { name: 'Report post' })
  await expect(dialog).toBeVisible()
  // Nothing is sent without a reason.
  await dialog.getByRole('button', { name: 'Report' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Please choose a reason')
  await dialog.getByRole('radio', { name: 'Harassment' }).check()
  await dialog.getByLabel('Description (optional)').fill('Threatening everyone in the replies')
  await expect(dialog.getByText('35/1,000')).toBeVisible()
  await shot(page, 'report-dialog-light')
  await dialog.getByRole('button', { name: 'Report' }).click()
  await expect(toastSaying(page, 'Report submitted. Thank you for helping keep Wren safe.')).toBeVisible()
  await expect(dialog).toHaveCount(0)

  // Reporting it again while it is open: the server's words.
  await card.getByRole('button', { name: 'More options' }).click()
  await page.getByRole('menuitem', { name: 'Report' }).click()
  await page.getByRole('dialog', { name: 'Report post' }).getByRole('radio', { name: 'Spam' }).check()
  await page.getByRole('dialog', { name: 'Report post' }).getByRole('button', { name: 'Report' }).click()
  await expect(toastSaying(page, 'You already reported this; it is awaiting review')).toBeVisible()
  await page.keyboard.press('Escape')

  await page.goto('/settings?tab=reports')
  const reports = reportsDialog(page)
  await expect(reports).toBeVisible()
  const row = reports.getByRole('button', { name: /Post by @tom_/ })
  await expect(row).toContainText('Pending Review')
  await row.click()
  const details = reports.getByRole('region', { name: 'Report details' })
  await expect(details).toContainText(rudePost)
  await expect(details).toContainText('Threatening everyone in the replies')
  // A member only reads: no moves, no note.
  await expect(details.getByRole('button', { name: 'Mark Under Review' })).toHaveCount(0)
  await expect(details.getByLabel(/Review note/)).toHaveCount(0)
})

test('an admin marks the report under review, then resolves it with a note and deletes the post', async ({ page }) => {
  await logInAdmin(page)
  await page.goto('/settings?tab=reports')
  const reports = reportsDialog(page)
  await reports.getByRole('button', { name: /Post by @tom_/ }).click()
  const details = reports.getByRole('region', { name: 'Report details' })
  // Only the moves the workflow allows from pending.
  await expect(details.getByRole('button', { name: 'Mark Under Review' })).toBeVisible()
  await expect(details.getByRole('button', { name: 'Dismiss' })).toBeVisible()
  await expect(details.getByRole('button', { name: 'Resolve' })).toHaveCount(0)
  await details.getByLabel(/Review note/).fill('Looking into it')
  await details.getByRole('button', { name: 'Mark Under Review' }).click()
  await expect(toastSaying(page, 'Report updated successfully')).toBeVisible()
  await expect(reports.getByRole('button', { name: /Post by @tom_/ })).toHaveCount(0)

  await reports.getByRole('tab', { name: 'Reviewed' }).click()
  await reports.getByRole('button', { name: /Post by @tom_/ }).click()
  await expect(details).toContainText('Under Review')
  await details.getByLabel(/Review note/).fill('Removed the post: threats are not allowed here')
  await details.getByRole('checkbox', { name: 'Also delete the reported post when resolving' }).check()
  await setTheme(page, 'dark')
  await page.evaluate(() => document.documentElement.classList.add('dark'))
  await shot(page, 'reports-review-dark')
  await details.getByRole('button', { name: 'Resolve' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete the reported post?' })
  await expect(confirm).toBeVisible()
  await confirm.getByRole('button', { name: 'Resolve and delete' }).click()
  await expect(toastSaying(page, 'Report updated successfully')).toBeVisible()

  await reportsDialog(page).getByRole('tab', { name: 'Resolved' }).click()
  const resolved = reportsDialog(page).getByRole('button', { name: /Post by @tom_/ })
  await expect(resolved).toContainText('Resolved')
  await resolved.click()
  await expect(reportsDialog(page).getByRole('region', { name: 'Report details' })).toContainText('This post has been deleted')
  await expect(reportsDialog(page).getByText('Resolved is final: no further action.')).toBeVisible()
  await shot(page, 'reports-resolved-dark')
  await setTheme(page, 'light')
})

test('the member is told and reads the outcome and the note', async ({ page }) => {
  await logIn(page, gus)
  await page.goto('/notifications')
  const item = page.getByText(/reviewed your report: Resolved/).first()
  await expect(item).toBeVisible()
  await item.click()
  await expect(page).toHaveURL(/\/settings\?tab=reports$/)
  const reports = reportsDialog(page)
  await reports.getByRole('tab', { name: 'Resolved' }).click()
  await reports.getByRole('button', { name: /Post by @tom_/ }).click()
  const details = reports.getByRole('region', { name: 'Report details' })
  await expect(details).toContainText('Removed the post: threats are not allowed here')
  await expect(details).toContainText('Reviewed')
  await shot(page, 'reports-member-light')
  // The post is gone for everyone.
  await page.goto(`/post/${rudePostId}`)
  await expect(page.getByText(rudePost)).toHaveCount(0)
})

test('the admin panel promotes and demotes by username, fixes stats, and logs every action', async ({ page }) => {
  await logInAdmin(page)
  await page.goto('/admin')
  await expect(page.getByRole('heading', { name: 'Admin Panel' })).toBeVisible()
  await expect(page.getByText('Manage users and system statistics')).toBeVisible()
  await expect(page.getByText(`@${admin.username}`).last()).toBeVisible()

  const users = page.getByRole('region', { name: 'User Management' })
  await users.getByRole('button', { name: 'Promote' }).click()
  await expect(toastSaying(page, 'Please enter a username')).toBeVisible()
  const field = users.getByLabel('Username')
  await field.fill(tom.username)
  await users.getByRole('button', { name: 'Promote' }).click()
  await expect(toastSaying(page, `User ${tom.username} promoted to admin!`)).toBeVisible()
  await expect(field).toHaveValue('')
  const log = page.getByRole('list', { name: 'Audit log entries' })
  await expect(log.getByRole('listitem').first()).toContainText(`Promoted @${tom.username} to admin`)

  await field.fill(tom.username)
  await users.getByRole('button', { name: 'Demote' }).click()
  await expect(toastSaying(page, `User ${tom.username} demoted from admin!`)).toBeVisible()
  await expect(field).toHaveValue('')
  await expect(log.getByRole('listitem').first()).toContainText(`Demoted @${tom.username} from admin`)

  const stats = page.getByRole('region', { name: 'Stats Management' })
  await stats.getByRole('button', { name: 'Recalculate' }).click()
  await expect(toastSaying(page, 'Please enter a user ID')).toBeVisible()
  await stats.getByLabel('User ID').fill(tom.id)
  await stats.getByRole('button', { name: 'Recalculate' }).click()
  await expect(toastSaying(page, 'User stats recalculated!')).toBeVisible()
  // Tom's only post was deleted with the report.
  await expect(stats.getByRole('status')).toHaveText(`@${tom.username}: 0 followers, 0 following, 0 posts.`)
  await expect(stats.getByLabel('User ID')).toHaveValue('')

  await stats.getByRole('button', { name: 'Fix All Stats' }).click()
  const confirm = page.getByRole('dialog', { name: 'Are you sure?' })
  await expect(confirm).toContainText('This will recalculate stats for ALL users. Continue?')
  await confirm.getByRole('button', { name: 'Continue' }).click()
  await expect(toastSaying(page, 'All user stats have been fixed!')).toBeVisible()
  await expect(stats.getByRole('status').filter({ hasText: 'Recounted' })).toHaveText(/^Recounted \d+ members?; fixed \d+ wrong counters?\.$/)
  await expect(log.getByRole('listitem').first()).toContainText('Recounted')

  const encryption = page.getByRole('region', { name: 'Encryption Management' })
  await encryption.getByRole('button', { name: 'Migrate Keys' }).click()
  await expect(page.getByRole('dialog', { name: 'Are you sure?' })).toContainText('This is required for E2E messaging to work.')
  await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Continue' }).click()
  await expect(toastSaying(page, 'Encryption keys migration completed!')).toBeVisible()
  await expect(encryption.getByRole('status')).toContainText(/Marked \d+ accounts?/)
  // A full-page shot of a scrolled page draws the sticky header and the sidebar mid-page: shoot from the top.
  await page.evaluate(() => window.scrollTo(0, 0))
  await shot(page, 'admin-light')
  await setTheme(page, 'dark')
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Admin Panel' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Audit log entries' })).toBeVisible()
  await shot(page, 'admin-dark')
  await setTheme(page, 'light')
})

/** Registered in the browser, so the account has message keys (made there). */
async function registerInBrowser(browser: Browser, username: string, name: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await page.goto('/register')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Email').fill(`${username}@example.test`)
  await page.getByLabel('Display name').fill(name)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('Confirm password').fill(PASSWORD)
  await page.getByRole('checkbox', { name: /terms/i }).check()
  await page.getByRole('button', { name: /create account|sign up/i }).click()
  await expect(page).toHaveURL(/\/$/)
  return { context, page }
}

test('a member reports a message they received (its decrypted text goes with it) and the sender from their profile', async ({ browser }) => {
  test.setTimeout(90_000)
  const eve = uniqueUsername('eve')
  const fay = uniqueUsername('fay')
  const text = 'Send me your password or else'
  const a = await registerInBrowser(browser, eve, 'Eve Sender')
  const b = await registerInBrowser(browser, fay, 'Fay Receiver')
  await a.page.goto(`/profile/${fay}`)
  await a.page.getByRole('button', { name: `Message @${fay}` }).click()
  await expect(a.page).toHaveURL(/\/messages\/[\w-]+$/)
  const conversationUrl = a.page.url()
  await a.page.getByRole('textbox', { name: 'Message' }).fill(text)
  await a.page.getByRole('textbox', { name: 'Message' }).press('Enter')
  const history = (page: Page) => page.getByRole('list', { name: 'Messages' })
  // The sender cannot report her own message.
  await expect(history(a.page).getByRole('listitem').filter({ hasText: text })).toBeVisible()
  await expect(history(a.page).getByRole('button', { name: 'Report message' })).toHaveCount(0)

  await b.page.goto(conversationUrl)
  const received = history(b.page).getByRole('listitem').filter({ hasText: text })
  await expect(received).toBeVisible()
  await received.hover()
  await received.getByRole('button', { name: 'Report message' }).click()
  const dialog = b.page.getByRole('dialog', { name: 'Report message' })
  await expect(dialog.getByText(text)).toBeVisible()
  await dialog.getByRole('radio', { name: 'Harassment' }).check()
  await dialog.getByRole('button', { name: 'Report' }).click()
  await expect(toastSaying(b.page, 'Report submitted. Thank you for helping keep Wren safe.')).toBeVisible()

  await b.page.goto(`/profile/${eve}`)
  await b.page.getByRole('button', { name: `Report @${eve}` }).click()
  const userDialog = b.page.getByRole('dialog', { name: 'Report user' })
  await userDialog.getByRole('radio', { name: 'Impersonation' }).check()
  await userDialog.getByRole('button', { name: 'Report' }).click()
  await expect(toastSaying(b.page, 'Report submitted. Thank you for helping keep Wren safe.')).toBeVisible()

  await b.page.goto('/settings?tab=reports')
  const reports = reportsDialog(b.page)
  await reports.getByRole('button', { name: new RegExp(`Message from @${eve}`) }).click()
  await expect(reports.getByRole('region', { name: 'Report details' })).toContainText(text)
  await expect(reports.getByRole('button', { name: new RegExp(`Member @${eve} · Impersonation`) })).toContainText('Pending Review')
  await a.context.close()
  await b.context.close()
})

test('a member sees Access Denied on /admin', async ({ page }) => {
  await logIn(page, gus)
  await page.goto('/admin')
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible()
  await expect(page.getByText('You need admin privileges to access this page.')).toBeVisible()
})
