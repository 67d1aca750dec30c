import type { Browser } from '@playwright/test'
import { round, type Profile } from './browser-measure'
import type { SeededMember } from './browser-seed'

/**
 * One sign-in through the login form, in a fresh context throttled per `profile` (CPU and network as the other
 * measurements): from the click on "Log in" to Home. `deriveMs` is the part before the login request leaves: the
 * prelogin round trip and argon2id of the password (src/crypto/kdf.ts), the step a slow phone feels; the rest is the
 * login request, unwrapping the message key (or making it, at a keyless account's first sign-in) and the route change.
 */
export interface SignInResult {
  totalMs: number
  deriveMs: number
}

export async function signInTime(
  browser: Browser,
  profile: Profile,
  member: SeededMember,
  password: string,
  baseUrl: string,
): Promise<SignInResult> {
  const context = await browser.newContext({
    viewport: profile.viewport,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.isMobile,
    hasTouch: profile.isMobile,
    baseURL: baseUrl,
  })
  try {
    const page = await context.newPage()
    await page.goto('/login')
    await page.getByLabel(/username or email/i).fill(member.username)
    await page.getByLabel('Password').fill(password)
    // Throttled only once the form is there: the page load is measured elsewhere (LCP).
    const cdp = await context.newCDPSession(page)
    if (profile.cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown })
    if (profile.network) {
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: profile.network.latencyMs,
        downloadThroughput: (profile.network.downloadKbps * 1024) / 8,
        uploadThroughput: (profile.network.uploadKbps * 1024) / 8,
      })
    }
    const loginSent = page.waitForRequest((r) => r.url().endsWith('/api/auth/login'), { timeout: 60_000 })
    const started = performance.now()
    await page.getByRole('button', { name: /log in/i }).click()
    await loginSent
    const deriveMs = performance.now() - started
    await page.waitForURL((url) => url.pathname === '/', { timeout: 60_000 })
    return { totalMs: round(performance.now() - started, 0), deriveMs: round(deriveMs, 0) }
  } finally {
    await context.close()
  }
}
