import { defineConfig, type TraceMode } from '@playwright/test'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Browsers cannot be downloaded here: drive Debian's Chromium. Every run gets a fresh data directory,
// so the first account registered by the suite is the instance's first (admin) account.
const port = Number(process.env.E2E_PORT ?? 3210)
// Where the link-preview walk serves its page; the walks' server lets previews read loopback at this port only.
const previewPort = Number(process.env.E2E_PREVIEW_PORT ?? port + 9)
process.env.E2E_PREVIEW_PORT = String(previewPort)
// Debian's headless build of Chromium (package chromium-headless-shell, the same source as chromium) when installed:
// the walks never need a window, and it spends about a quarter less CPU per walk than the full browser in headless
// mode (foundation + lists: 89 against 116 CPU-seconds). The full browser otherwise, or E2E_CHROMIUM.
const chromium =
  process.env.E2E_CHROMIUM ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium')
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'wren-e2e-'))
process.env.E2E_DATA_DIR = dataDir

export default defineConfig({
  testDir: '.',
  outputDir: '../../test-results',
  // Two files at a time, tests within a file in order (every file makes its own members). A walk mostly waits (for
  // the server, a socket, a debounce): one file at a time kept the 2-core machine about half busy, and two took the
  // suite from 560 s to 339 s (measured 2026-11-27 with the headless shell and no trace; with the full browser and
  // a trace, two browsers starved each other instead). E2E_WORKERS sets the number.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // A walk signs members in with argon2id in the browser (each ~1-3 s on this 2-core machine, two workers at once):
  // the longer walks of several members need more than 30 s on a busy run.
  timeout: 90_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['json', { outputFile: '../../test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // No trace by default: recording one (its screencast above all) cost 40% of a walk's CPU (foundation + lists:
    // 106 against 64 CPU-seconds), and a failure keeps its screenshot and error anyway. E2E_TRACE=retain-on-failure
    // (or any trace mode) records them to replay a failure with `npx playwright show-trace`.
    trace: (process.env.E2E_TRACE ?? 'off') as TraceMode,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
  // The foundation suite registers the fresh instance's first account (its admin), so it runs before every other
  // suite, whatever their file names.
  projects: [
    { name: 'foundation', testMatch: /foundation\.spec\.ts$/, use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'desktop',
      testIgnore: /foundation\.spec\.ts$/,
      dependencies: ['foundation'],
      use: { viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    // Always build, so the suite never tests a stale bundle. server/main.ts plus the walks' one test-only allowance
    // (tests/e2e/support/server.ts).
    command: 'npx panda codegen --silent && npx vite build --logLevel warn && npx tsx tests/e2e/support/server.ts',
    cwd: '../..',
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, RATE_LIMITS: 'off', DATABASE_URL: '', REDIS_URL: '', E2E_PREVIEW_PORT: String(previewPort) },
  },
})
