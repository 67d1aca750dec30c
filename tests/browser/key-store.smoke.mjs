#!/usr/bin/env node
// Smoke test of the IndexedDB key store (src/crypto/key-store.ts) in a real browser, without Playwright: bundles
// key-store.smoke-page.ts with esbuild, serves it on 127.0.0.1 (a secure context, so WebCrypto is there), and runs
// Debian's Chromium headless twice on one profile directory: the first run saves two members' keys, the second (a
// new browser process) loads one, checks it is still non-extractable, decrypts a message saved by the first run,
// then forget and forgetAll. Exits 0 on success. Run: node tests/browser/key-store.smoke.mjs
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'

const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium'
const bundle = await build({
  entryPoints: [new URL('./key-store.smoke-page.ts', import.meta.url).pathname],
  bundle: true,
  format: 'esm',
  write: false,
})
const script = bundle.outputFiles[0].text
const profile = mkdtempSync(join(tmpdir(), 'wren-keystore-smoke-'))

let deliver
const server = createServer((request, response) => {
  if (request.method === 'POST' && request.url === '/result') {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      response.end('ok')
      deliver(JSON.parse(body))
    })
    return
  }
  if (request.url === '/page.js') {
    response.writeHead(200, { 'Content-Type': 'text/javascript' })
    return response.end(script)
  }
  response.writeHead(200, { 'Content-Type': 'text/html' })
  response.end('<!doctype html><title>key store smoke</title><script type="module" src="/page.js"></script>')
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const { port } = server.address()

async function visit(phase) {
  const result = new Promise((resolve) => (deliver = resolve))
  const browser = spawn(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      `http://127.0.0.1:${port}/?phase=${phase}`,
    ],
    { stdio: 'ignore' },
  )
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`${phase}: no result in 30 s`)), 30_000))
  try {
    return await Promise.race([result, timeout])
  } finally {
    browser.kill('SIGTERM')
    await new Promise((resolve) => (browser.exitCode !== null ? resolve() : browser.once('exit', resolve)))
  }
}

const expected = [
  'extractable=false',
  'export refused',
  'survives a restart',
  'ann after forget=undefined',
  'bob before forgetAll=kept',
  'after forgetAll keeping bob: bob kept, carol=undefined',
  'bob after forgetAll=undefined',
]
let ok = false
try {
  const first = await visit('first')
  const second = await visit('second')
  console.log('first run: ', first.join(' | '))
  console.log('second run:', second.join(' | '))
  ok = first.join() === 'saved' && second.join() === expected.join()
} finally {
  server.close()
  rmSync(profile, { recursive: true, force: true })
}
console.log(ok ? 'key store smoke: passed' : 'key store smoke: FAILED')
process.exit(ok ? 0 : 1)
