import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { appendFileSync, mkdirSync } from 'node:fs'

// An automated WCAG 2.1 A/AA audit (axe-core) of what the page shows right now, run at each screenshot of the walks,
// light and dark. The dark theme changes colours only (one class on <html>, the same DOM), so a dark screen whose
// light twin was audited in the same walk is checked by the rules that read colours; every other rule already ran on
// the twin. That halves a dark audit's cost without leaving any screen unchecked. A serious or critical finding fails the test (softly, so one run lists every screen's findings);
// minor and moderate ones are only recorded. A11Y_AUDIT=report records without failing (to count findings), and
// every run appends its findings to test-results/a11y/findings.jsonl (label, rule, impact, targets) and the time
// of each audit to timings.jsonl.

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']
/** The rules of TAGS whose outcome depends on colours. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block']

/** Screens (label without its theme, and URL) audited in the light theme by this test process. */
const auditedLight = new Set<string>()

/** The label's screen and theme: `home-phone-dark` is `home-phone` in dark. */
function screenOf(label: string, url: string): { key: string; theme: 'light' | 'dark' | null } {
  const match = /^(.*)-(light|dark)$/.exec(label)
  return match ? { key: `${match[1]} ${url}`, theme: match[2] as 'light' | 'dark' } : { key: label, theme: null }
}
const FINDINGS_DIR = 'test-results/a11y'

/** Time one audit may add to the walk it runs in (about 0.5-1.5 s each on a busy 2-core machine). */
const AUDIT_BUDGET_MS = 3_000

export async function audit(page: Page, label: string): Promise<void> {
  // The audit's time is added to the test's budget, so a walk with many screenshots keeps its own timeout for itself.
  test.info().setTimeout(test.info().timeout + AUDIT_BUDGET_MS)
  // Legacy mode runs axe inside the page only: the default mode opens a helper page in the page's context, which
  // fails for pages made with browser.newPage() (several walks use one per member). Wren has no cross-origin frames,
  // the one thing legacy mode does not audit.
  const started = performance.now()
  const { key, theme } = screenOf(label, page.url())
  const isDark = await page.evaluate(() => document.documentElement.classList.contains('dark'))
  const builder = new AxeBuilder({ page }).setLegacyMode(true)
  if (theme === 'dark' && isDark && auditedLight.has(key)) builder.withRules(COLOUR_RULES)
  else builder.withTags(TAGS)
  const { violations } = await builder.analyze()
  if (theme === 'light' && !isDark) auditedLight.add(key)
  mkdirSync(FINDINGS_DIR, { recursive: true })
  appendFileSync(`${FINDINGS_DIR}/timings.jsonl`, `${JSON.stringify({ label, ms: Math.round(performance.now() - started) })}\n`)
  if (violations.length > 0) {
    const lines = violations.map((v) =>
      JSON.stringify({ label, id: v.id, impact: v.impact, nodes: v.nodes.length, targets: v.nodes.map((n) => n.target.join(' ')) }),
    )
    appendFileSync(`${FINDINGS_DIR}/findings.jsonl`, `${lines.join('\n')}\n`)
  }
  if (process.env.A11Y_AUDIT === 'report') return
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`)
  expect.soft(serious, `accessibility audit of "${label}" (${page.url()})`).toEqual([])
}
