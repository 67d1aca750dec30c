#!/usr/bin/env node
// `npm test`: every fast check in one command, in the order that fails cheapest first.
// styles -> contract freshness -> chart freshness -> typecheck -> lint -> machine tests -> contract fuzz test (once,
// on PGlite) -> API tests on PGlite -> the same with every read cache off (WREN_TEST_CACHES=off: a bug a cache hides
// cannot pass) -> the same API tests on PostgreSQL when DATABASE_URL is set.
// Prints one closing line `tests: N passed, M failed` that CI reads.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const databaseUrl = process.env.DATABASE_URL
const reports = mkdtempSync(join(tmpdir(), 'wren-test-'))
let passed = 0
let failed = 0

function run(title, command, args, env = {}) {
  console.log(`\n=== ${title}`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.status !== 0) {
    console.error(`\n✗ ${title} failed`)
    return false
  }
  return true
}

function vitest(title, project, env) {
  const out = join(reports, `${project}-${env.DATABASE_URL ? 'pg' : 'pglite'}-caches-${env.WREN_TEST_CACHES ?? 'on'}.json`)
  const ok = run(title, 'npx', ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], env)
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'))
    passed += report.numPassedTests
    failed += report.numFailedTests
  } catch {
    if (!ok) failed += 1
  }
  return ok
}

const steps = [
  () => run('generate styles (panda codegen)', 'npx', ['panda', 'codegen', '--silent']),
  () => run('contract: generated types are fresh', 'npx', ['openapi-typescript', 'openapi.yaml', '-o', 'src/api/contract/schema.d.ts', '--check']),
  () => run('charts: docs/machines is fresh', 'npx', ['tsx', 'docs/tools/charts.ts', '--check']),
  () => run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']),
  () => run('lint', 'npx', ['eslint', '-c', '.config/eslint.config.js', '.']),
  () => vitest('machine tests', 'machines', {}),
  // Once, on PGlite: hostile values from openapi.yaml for every operation (nothing 5xx, no 4xx changes a row).
  () => vitest('contract fuzz test on PGlite', 'fuzz', { DATABASE_URL: '', WREN_TEST_CACHES: 'on' }),
  () => vitest('API tests on PGlite (embedded)', 'api', { DATABASE_URL: '', WREN_TEST_CACHES: 'on' }),
  () => vitest('API tests on PGlite, every cache off', 'api', { DATABASE_URL: '', WREN_TEST_CACHES: 'off' }),
  ...(databaseUrl
    ? [() => vitest(`API tests on PostgreSQL`, 'api', { DATABASE_URL: databaseUrl, WREN_TEST_CACHES: 'on' })]
    : []),
]

let ok = true
for (const step of steps) {
  if (!step()) {
    ok = false
    break
  }
}
if (!databaseUrl) console.log('\n(DATABASE_URL not set: the PostgreSQL run of the API tests was skipped)')
console.log(`\ntests: ${passed} passed, ${failed} failed`)
process.exit(ok && failed === 0 ? 0 : 1)
