import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { PAGE_BODY_MAX } from '../../src/api/contract/instance-pages'
import type { Schemas } from '../../server/http/handler-types'
import { DEFAULT_PAGES } from '../../server/modules/pages/defaults'
import { type Member, quickMember } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// docs/product.md, "Instance pages": /terms and /privacy, read by anyone, written by admins, in the audit log.
const t = useTestApp()

type Page = Schemas['InstancePage']
const errorOf = (res: { json: () => unknown }) => (res.json() as ErrorBody).error
const read = (slug: string, token?: string) => api(t.app, 'GET', `/api/instance/pages/${slug}`, { token })
const save = (who: Member | undefined, slug: string, body: unknown) =>
  api(t.app, 'PUT', `/api/admin/instance/pages/${slug}`, { token: who?.token, body })

let admin: Member
let member: Member
beforeAll(async () => {
  admin = await quickMember(t.app, 'padm')
  await t.app.services.db.execute(sql`update users set is_admin = true where id = ${admin.id}`)
  member = await quickMember(t.app, 'pmem')
})

describe('reading a page', () => {
  it.each(['terms', 'privacy'] as const)('%s: without an account, the default text until an admin saves one', async (slug) => {
    const res = await read(slug)
    expect(res.statusCode, res.body).toBe(200)
    const page = res.json<Page>()
    expect(page).toEqual({
      slug,
      title: slug === 'terms' ? 'Terms of Service' : 'Privacy Policy',
      body: DEFAULT_PAGES[slug],
      updatedAt: null,
      isDefault: true,
    })
    // The defaults tell the operator to edit them, and say what the server can and cannot read.
    expect(page.body).toContain('Edit it in the Admin Panel')
    expect(page.body).toContain('end-to-end encrypted')
    // A signed-in member reads the same page.
    expect((await read(slug, member.token)).json<Page>()).toEqual(page)
  })

  it('an unknown page is refused with the pages there are', async () => {
    const res = await read('cookies')
    expect(res.statusCode).toBe(400)
    expect(errorOf(res)).toBe('slug must be one of: terms, privacy')
  })
})

describe('saving a page', () => {
  it('is for admins only: 403 for a member, 401 without a token, and the page stays as it was', async () => {
    const asMember = await save(member, 'privacy', { body: '# Mine now' })
    expect(asMember.statusCode).toBe(403)
    expect(errorOf(asMember)).toBe('Admin privileges required')
    expect((await save(undefined, 'privacy', { body: '# Mine now' })).statusCode).toBe(401)
    expect((await read('privacy')).json<Page>().isDefault).toBe(true)
  })

  it('an admin saves markdown; everyone then reads it exactly as written, with when it changed', async () => {
    const body = '# Our rules\n\nBe kind. <script>alert(1)</script> stays text: the app renders no HTML.\n'
    const before = Date.now()
    const res = await save(admin, 'terms', { body })
    expect(res.statusCode, res.body).toBe(200)
    const saved = res.json<Page>()
    expect(saved).toMatchObject({ slug: 'terms', title: 'Terms of Service', body, isDefault: false })
    expect(Date.parse(saved.updatedAt!)).toBeGreaterThanOrEqual(before - 1_000)
    expect((await read('terms')).json<Page>()).toEqual(saved)
    // The other page is untouched.
    expect((await read('privacy')).json<Page>().isDefault).toBe(true)

    const again = await save(admin, 'terms', { body: 'Second version' })
    expect(again.json<Page>().body).toBe('Second version')
    expect((await read('terms')).json<Page>().body).toBe('Second version')
  })

  it('goes into the audit log, saying who changed which page', async () => {
    await save(admin, 'privacy', { body: 'We keep little.' })
    const log = await api(t.app, 'GET', '/api/admin/audit-log', { token: admin.token })
    const [latest] = log.json<Schemas['AuditLogPage']>().entries
    expect(latest).toMatchObject({
      action: 'edit-page',
      details: 'Edited the Privacy Policy',
      actor: { id: admin.id, username: admin.username },
    })
  })

  it.each([
    ['an empty text', { body: '' }, 'Write the page text before saving'],
    ['only spaces', { body: ' \n\t ' }, 'Write the page text before saving'],
    ['one character too many', { body: 'x'.repeat(PAGE_BODY_MAX + 1) }, 'The page text must be at most 50,000 characters'],
    ['no body', {}, 'body is required'],
    ['a field nobody may set', { body: 'x', isDefault: true }, 'Unknown field: isDefault'],
  ])('refuses %s with a clear message and keeps the page', async (_what, payload, message) => {
    const before = (await read('terms')).json<Page>()
    const res = await save(admin, 'terms', payload)
    expect(res.statusCode).toBe(400)
    expect(errorOf(res)).toBe(message)
    expect((await read('terms')).json<Page>()).toEqual(before)
  })

  it('takes exactly the longest text, counted in characters as the editor counts them (an emoji is one)', async () => {
    const body = '🙂'.repeat(PAGE_BODY_MAX)
    const res = await save(admin, 'terms', { body })
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200)
    expect((await read('terms')).json<Page>().body).toBe(body)
  })
})
