import { test, expect, type WebSocket } from '@playwright/test'
import { Effect } from 'effect'
import { deriveSecrets, freshKdf, passwordWrapper, rewrapPrivateKey } from '../../src/crypto'
import { logIn, logInThroughForm, register, signIn } from './support/members'

// The realtime socket, seen from a real browser (docs/product.md, "Realtime"): it opens once a member is signed in,
// says who the member is, and closes on logout; a signed-out visitor opens none; a password change elsewhere (which
// revokes this session) drops it and the next call signs the member out.

function socketsOf(page: import('@playwright/test').Page) {
  const sockets: WebSocket[] = []
  page.on('websocket', (ws) => {
    if (ws.url().includes('/socket.io/')) sockets.push(ws)
  })
  return sockets
}

test('a signed-in member gets one socket, authenticated as them; logout closes it', async ({ page, request }) => {
  const member = await register(request, 'rt', 'Realtime Robin')
  const sockets = socketsOf(page)
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible()
  expect(sockets, 'no socket before signing in').toHaveLength(0)

  // socket.io starts on HTTP long-polling and upgrades to a websocket: the hello may travel either way.
  const sent: string[] = []
  page.on('request', (req) => {
    if (req.url().includes('/socket.io/') && req.method() === 'POST') sent.push(req.postData() ?? '')
  })
  page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(String(frame.payload))))
  await logIn(page, member)
  await expect.poll(() => sent.some((payload) => payload.includes('"authenticate"') && payload.includes(member.id))).toBe(true)
  await expect.poll(() => sockets.length).toBe(1)

  const closed = sockets[0]!.waitForEvent('close')
  await page.getByRole('button', { name: /log ?out/i }).first().click()
  await expect(page).toHaveURL(/\/login$/)
  await closed
  expect(sockets[0]!.isClosed()).toBe(true)
})

test('revoking the session elsewhere drops the socket, and its refused reconnect signs the member out here', async ({ page, request }) => {
  const member = await register(request, 'rv', 'Revoked Robin')
  const opened = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/socket.io/') })
  // Through the form: that sign-in makes the account's message key, which the other device re-wraps below.
  await logInThroughForm(page, member)
  const socket = await opened
  const closed = socket.waitForEvent('close')
  // Another device changes the password: every other session (this one too) is revoked and its sockets dropped.
  // Signing in here gave the account its message key, so that device re-wraps it for the new password, as the app does.
  const other = await signIn(request, member.username)
  const { token, privateKey } = other.body
  expect(privateKey, 'the browser sign-in made the message key').not.toBeNull()
  const next = await Effect.runPromise(deriveSecrets('Nightingale2027', freshKdf()))
  const rewrapped = await Effect.runPromise(
    Effect.flatMap(Effect.all([passwordWrapper(other.secrets!), passwordWrapper(next)]), ([from, to]) =>
      rewrapPrivateKey(privateKey!, from, to),
    ),
  )
  const changed = await request.post('/api/auth/change-password', {
    headers: { Authorization: `Bearer ${token}` },
    data: { currentAuthSecret: other.secrets!.authSecret, newAuthSecret: next.authSecret, kdf: next.kdf, privateKey: rewrapped },
  })
  expect(changed.ok()).toBe(true)
  await closed
  // The socket asks again, is refused with the session's 401 text, and that ends the session here too.
  await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 })
})
