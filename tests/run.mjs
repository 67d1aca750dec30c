#!/usr/bin/env node
// `npm test`: every fast check in one command, in the order that fails cheapest first.
// styles -> contract freshness -> chart freshness -> typecheck -> lint -> machine tests -> contract fuzz test (once,
// on PGlite) -> API tests on PGlite -> the same with every read cache off (WREN_TEST_CACHES=off: a bug a cache hides
// cannot pass) -> the same API tests on PostgreSQL when DATABASE_URL is set.
// Prints one closing line `tests: N passed, M failed` that CI reads.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { connect } from 'node:net'
import { join } from 'node:path'

const databaseUrl = process.env.DATABASE_URL
const reports = mkdtempSync(join(tmpdir(), 'wren-test-'))
let passed = 0
let failed = 0

/**
 * The files that need a Redis (tests/api/*-redis.test.ts: several processes sharing events and limits) run when
 * REDIS_URL is set or something answers on Redis's port; a newcomer's machine without Redis runs everything else
 * and is told which files were left out, instead of failing after a minute of connection timeouts.
 */
const REDIS_FILES = 'tests/api/*-redis.test.ts'
function redisAnswers() {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: 6379 })
    const done = (answer) => {
      socket.destroy()
      resolve(answer)
    }
    socket.setTimeout(1_000, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}
const withRedis = Boolean(process.env.REDIS_URL) || (await redisAnswers())
const apiArgs = withRedis ? [] : ['--exclude', REDIS_FILES]

function run(title, command, args, env = {}) {
  console.log(`\n=== ${title}`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.status !== 0) {
    console.error(`\n✗ ${title} failed`)
    return false
  }
  return true
}

function vitest(title, project, env, extra = []) {
  const out = join(reports, `${project}-${env.DATABASE_URL ? 'pg' : 'pglite'}-caches-${env.WREN_TEST_CACHES ?? 'on'}.json`)
  const ok = run(title, 'npx', ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra], env)
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'))
    passed += report.numPassedTests
    // A file that fails before its tests run (an import error, a hook that throws) counts as one failure too.
    const brokenFiles = report.testResults.filter(
      (file) => file.status === 'failed' && file.assertionResults.every((test) => test.status !== 'failed'),
    )
    failed += report.numFailedTests + brokenFiles.length
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
  () => vitest('API tests on PGlite (embedded)', 'api', { DATABASE_URL: '', WREN_TEST_CACHES: 'on' }, apiArgs),
  () => vitest('API tests on PGlite, every cache off', 'api', { DATABASE_URL: '', WREN_TEST_CACHES: 'off' }, apiArgs),
  ...(databaseUrl
    ? [() => vitest(`API tests on PostgreSQL`, 'api', { DATABASE_URL: databaseUrl, WREN_TEST_CACHES: 'on' }, apiArgs)]
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
if (!withRedis) console.log(`\n(REDIS_URL not set and nothing answers on 127.0.0.1:6379: ${REDIS_FILES} were not run)`)
console.log(`\ntests: ${passed} passed, ${failed} failed`)
process.exit(ok && failed === 0 ? 0 : 1)
