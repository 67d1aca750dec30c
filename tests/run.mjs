#!/usr/bin/env node
// `npm test`: every fast check in one command, the cheapest first.
// styles, then two lanes side by side: [typecheck -> contract fuzz test (once, on PGlite)] and [contract freshness ->
// chart freshness -> lint -> machine tests]; then the API tests on PGlite with the read caches on -> the API tests
// again with every read cache off (WREN_TEST_CACHES=off: a bug a cache hides cannot pass), on PostgreSQL when
// DATABASE_URL is set, else on PGlite.
//
// Why two API passes and not three: each pass costs about as much as everything before it. The second pass has two
// jobs that do not depend on each other: prove no answer is right only because a cache held it (caches off), and
// prove every query runs on the PostgreSQL a deployment uses (DATABASE_URL). One pass on PostgreSQL with the caches
// off does both; the first pass still runs the caches on the embedded database a fresh `npm start` uses, and the
// files about the caches themselves build their apps with caches on in every pass. A machine without PostgreSQL runs
// the caches-off pass on PGlite, so no check depends on having PostgreSQL; CI sets DATABASE_URL (.ci/run).
// Prints one closing line `tests: N passed, M failed` that CI reads.
import { spawn } from 'node:child_process'
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
// The API files: most share a process per worker, the seed's needs its own (vite.config.ts).
const API = ['api', 'api-own-process']

/**
 * Runs one step. A step that runs beside another has its output held back and printed whole when it ends, so the two
 * do not interleave their lines; a step that runs alone (`live`) prints as it goes. Resolves to whether it passed.
 */
function run(title, command, args, env = {}, live = false) {
  return new Promise((resolve) => {
    const started = Date.now()
    if (live) console.log(`\n=== ${title}`)
    const child = spawn(command, args, {
      env: { ...process.env, FORCE_COLOR: '1', ...env },
      stdio: live ? 'inherit' : 'pipe',
    })
    const output = []
    child.stdout?.on('data', (chunk) => output.push(chunk))
    child.stderr?.on('data', (chunk) => output.push(chunk))
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0)
      if (live) console.log(`(${title}: ${seconds} s)`)
      else process.stdout.write(`\n=== ${title} (${seconds} s)\n${Buffer.concat(output).toString()}`)
      if (code !== 0) console.error(`\n✗ ${title} failed`)
      resolve(code === 0)
    })
  })
}

async function vitest(title, projects, env, extra = [], live = false) {
  const names = [projects].flat()
  const out = join(reports, `${names[0]}-${env.DATABASE_URL ? 'pg' : 'pglite'}-caches-${env.WREN_TEST_CACHES ?? 'on'}.json`)
  const ok = await run(title, 'npx', ['vitest', 'run', ...names.flatMap((name) => ['--project', name]), '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra], env, live)
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

/** Steps one after another, stopping at the first that fails. */
async function inOrder(...steps) {
  for (const step of steps) if (!(await step())) return false
  return true
}

/**
 * Two lanes at a time where the steps use one core each (the type checker, the linter, the fuzz test, and the machine
 * tests, whose many small files keep about one core busy): on two cores this takes the time of the longer lane, not
 * of both. Each API pass uses both cores on its own, so the passes run alone.
 */
const started = Date.now()
const ok = await inOrder(
  () => run('generate styles (panda codegen)', 'npx', ['panda', 'codegen', '--silent']),
  async () =>
    (
      await Promise.all([
        inOrder(
          () => run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']),
          // Once, on PGlite: hostile values from openapi.yaml for every operation (nothing 5xx, no 4xx changes a row).
          () => vitest('contract fuzz test on PGlite', 'fuzz', { DATABASE_URL: '', WREN_TEST_CACHES: 'on' }),
        ),
        inOrder(
          () => run('contract: generated types are fresh', 'npx', ['openapi-typescript', 'openapi.yaml', '-o', 'src/api/contract/schema.d.ts', '--check']),
          () => run('charts: docs/machines is fresh', 'npx', ['tsx', 'docs/tools/charts.ts', '--check']),
          () => run('lint', 'npx', ['eslint', '-c', '.config/eslint.config.js', '.']),
          () => vitest('machine tests', 'machines', {}),
        ),
      ])
    ).every(Boolean),
  () => vitest('API tests on PGlite (embedded)', API, { DATABASE_URL: '', WREN_TEST_CACHES: 'on' }, apiArgs, true),
  databaseUrl
    ? () => vitest('API tests on PostgreSQL, every cache off', API, { DATABASE_URL: databaseUrl, WREN_TEST_CACHES: 'off' }, apiArgs, true)
    : () => vitest('API tests on PGlite, every cache off', API, { DATABASE_URL: '', WREN_TEST_CACHES: 'off' }, apiArgs, true),
)
if (!databaseUrl) console.log('\n(DATABASE_URL not set: the caches-off API pass ran on PGlite, not on PostgreSQL)')
if (!withRedis) console.log(`\n(REDIS_URL not set and nothing answers on 127.0.0.1:6379: ${REDIS_FILES} were not run)`)
console.log(`\nnpm test took ${((Date.now() - started) / 1000).toFixed(0)} s`)
console.log(`\ntests: ${passed} passed, ${failed} failed`)
process.exit(ok && failed === 0 ? 0 : 1)
