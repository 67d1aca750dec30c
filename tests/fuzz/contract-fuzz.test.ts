import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { listOperations, loadSpecification, type OperationInfo } from '../../server/http/openapi'
import { multipart, type FormPart } from '../api/content-helpers'
import { buildTestApp, openTestDatabase, type TestDatabase } from '../api/harness'
import { field, hostile, isNode, type Node, objectOf, poolFor, rarely, resolver, valid } from './schema-arbitraries'
import { type Role, seedWorld, tinyPng, type World } from './world'

/**
 * Every operation of openapi.yaml, called as the owner of the resources it names, as a stranger and as a member the
 * owner blocked, with values read from its schema (path, query and header parameters, JSON and multipart bodies), half of
 * them hostile. Nothing may answer 5xx, and nothing that answers 4xx may change a row. A new operation is fuzzed
 * without touching this file. Runs once per `npm test`, on PGlite (tests/run.mjs, vitest project `fuzz`).
 *
 * Replay a failure with the seed it prints: FUZZ_SEED=<seed> npx vitest run --project fuzz (the earlier operations
 * shape the world the failing one met, so replay the whole file first). FUZZ_RUNS sets the runs per operation and
 * role; FUZZ_STATS=1 prints each call's answer, to see how deep the values reach.
 */

const RUNS_PER_ROLE = Number(process.env.FUZZ_RUNS ?? 6)
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() ^ (Math.random() * 2 ** 31)

const spec = loadSpecification()
const resolve = resolver(spec)
const roles: Role[] = ['owner', 'stranger', 'blocked']

// Data-changing calls first: a DELETE that succeeds takes its row away from every later operation.
const operations = listOperations(spec).sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))

let database: TestDatabase
let app: FastifyInstance
let world: World
let png: Buffer
let fingerprintSql: ReturnType<typeof sql.raw>

beforeAll(async () => {
  database = await openTestDatabase()
  app = await buildTestApp(database)
  world = await seedWorld(app)
  png = await tinyPng()
  fingerprintSql = await fingerprintStatement()
})
afterAll(async () => {
  await app?.close()
  await database?.close()
})

// ---- the database's fingerprint --------------------------------------------------------------------------------

/**
 * Sessions are left out: a call with a valid token refreshes its session's last use, whatever it answers.
 */
const UNFINGERPRINTED = new Set(['sessions', '__drizzle_migrations'])

/**
 * One statement: each app table's row count and the newest transaction id among its row versions (`xmin`). Any
 * committed write moves one of the two: an insert or an update makes a row version stamped with a transaction id
 * newer than every earlier one, and a delete alone lowers the count. It is stricter than comparing the rows' text
 * (an update that writes the same values still counts as a change) and half the cost of hashing every row after
 * every call.
 */
async function fingerprintStatement() {
  const tables = await app.services.db.execute(
    sql`select table_name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  )
  const names = rowsOf<{ table_name: string }>(tables)
    .map((r) => r.table_name)
    .filter((name) => !UNFINGERPRINTED.has(name))
  if (names.length < 10) throw new Error(`fingerprint: only ${names.length} tables found`)
  return sql.raw(
    names
      .map(
        (name) =>
          `select '${name}' as t, count(*)::int as n, coalesce(max(xmin::text::bigint), 0)::text as h from "${name}" r`,
      )
      .join(' union all '),
  )
}

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[]
  return (result as { rows: T[] }).rows
}

async function fingerprint(): Promise<Map<string, string>> {
  // View counts are written a moment after the answer that counted them: write them now, not during the next call.
  await app.services.views.flush()
  // Background jobs (mail, deletions, exports) a successful call queued run now, not during the next call.
  await app.services.jobs.drain()
  const rows = rowsOf<{ t: string; n: number; h: string }>(await app.services.db.execute(fingerprintSql))
  return new Map(rows.map((r) => [r.t, `${r.n}:${r.h}`]))
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([table, value]) => before.get(table) !== value).map(([table]) => table)
}

// ---- requests from the schema ----------------------------------------------------------------------------------

interface FuzzRequest {
  role: Role
  method: string
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
  /** What the body was, for the failure report (a multipart payload is bytes). */
  shown?: unknown
}

const operationNode = (op: OperationInfo): Node => resolve((spec.paths ?? {})[op.path]?.[op.method.toLowerCase()])
/** The operation's parameters and its path item's (an operation's own win on the same name and place). */
const parametersOf = (op: OperationInfo): Node[] => {
  const list = (value: unknown) => (Array.isArray(value) ? value : []).map(resolve)
  const own = list(operationNode(op).parameters)
  const shared = list(resolve((spec.paths ?? {})[op.path]).parameters)
  return [...own, ...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in))]
}

/** Percent-encoding that also takes lone surrogates (as their UTF-8 replacement), where encodeURIComponent throws. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')
  }
}

/** Text for a URL: strings as they are, anything else as JSON, and one time in nine a broken escape or a NUL. */
function urlText(value: unknown): fc.Arbitrary<string> {
  const text = encode(typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined')
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(text) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', `${text}%00`) },
  )
}

function pathArbitrary(op: OperationInfo): fc.Arbitrary<string> {
  const segments = op.path.split('/').slice(1)
  return fc
    .tuple(
      ...segments.map((segment, i) => {
        const param = /^{(\w+)}$/.exec(segment)?.[1]
        if (!param) return fc.constant(segment)
        const schema = resolve(parametersOf(op).find((p) => p.name === param && p.in === 'path')?.schema)
        const pool = poolFor(param, world.pools, segments[i - 1]?.replace(/^user$/, 'users'))
        const good = pool?.length ? fc.constantFrom(...pool) : valid(schema, param, world.pools, resolve)
        return fc
          .oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: hostile(schema) })
          .chain((value) => (typeof value === 'string' && pool?.includes(value) ? fc.constant(value) : urlText(value)))
      }),
    )
    .map((parts) => `/api/${parts.join('/')}`)
}

function queryArbitrary(op: OperationInfo): fc.Arbitrary<string> {
  const query = parametersOf(op).filter((p) => p.in === 'query')
  if (!query.length) return fc.constantFrom('', '', '?unknown=1')
  return fc
    .tuple(
      ...query.map((p) => {
        const name = String(p.name)
        return fc.option(
          field(resolve(p.schema), name, world.pools, resolve).chain((value) =>
            Array.isArray(value) && value.length < 5
              ? fc.constant(value.map((v) => `${name}=${encode(String(v))}`).join('&'))
              : urlText(value).map((text) => `${name}=${text}`),
          ),
          { freq: 2 },
        )
      }),
    )
    .map((pairs) => {
      const present = pairs.filter((p): p is string => p !== null)
      return present.length ? `?${present.join('&')}` : ''
    })
}

/**
 * Header parameters (the Idempotency-Key): absent, a value from the schema that HTTP can carry (hostile ones
 * included: blank, spaces, too long), or one key shared by every call, so retries and reuses of a key meet.
 */
function headersArbitrary(op: OperationInfo): fc.Arbitrary<Record<string, string>> {
  const headers = parametersOf(op).filter((p) => p.in === 'header')
  if (!headers.length) return fc.constant({})
  return fc
    .tuple(
      ...headers.map((p) => {
        const name = String(p.name).toLowerCase()
        const fromSchema = field(resolve(p.schema), name, world.pools, resolve)
          .map((value) => (typeof value === 'string' ? value : JSON.stringify(value) ?? ''))
          .filter((value) => /^[\x20-\x7e]*$/.test(value))
        return fc.option(fc.oneof(fromSchema, fc.constant('fuzz-shared-key')), { freq: 2 }).map((value) => (value === null ? null : ([name, value] as const)))
      }),
    )
    .map((pairs) => Object.fromEntries(pairs.filter((pair) => pair !== null)))
}

const hostileJsonBodies = fc.constantFrom<{ payload: string; contentType: string }>(
  { payload: '{"a":', contentType: 'application/json' },
  { payload: '{"a":1}garbage', contentType: 'application/json' },
  { payload: '', contentType: 'application/json' },
  { payload: 'null', contentType: 'application/json' },
  { payload: '[1,2,3]', contentType: 'application/json' },
  { payload: '"just a string"', contentType: 'application/json' },
  { payload: '\u0000', contentType: 'application/json' },
  { payload: '{"__proto__":{"isAdmin":true}}', contentType: 'application/json' },
  { payload: JSON.stringify({ a: '😀'.repeat(300_000) }), contentType: 'application/json' },
  { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
  { payload: 'plain words', contentType: 'text/plain' },
  {
    payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n',
    contentType: 'multipart/form-data; boundary=x',
  },
  { payload: 'not multipart at all', contentType: 'multipart/form-data' },
)

type Body = { payload?: string | Buffer; contentType?: string; shown?: unknown }

function jsonBodyArbitrary(schema: Node): fc.Arbitrary<Body> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: objectOf(schema, world.pools, resolve).map((body) => ({
        payload: JSON.stringify(body),
        contentType: 'application/json',
        shown: body,
      })),
    },
    {
      weight: 1,
      arbitrary: hostile(schema).map((body) => ({
        payload: JSON.stringify(body) ?? '',
        contentType: 'application/json',
        shown: body,
      })),
    },
    { weight: 1, arbitrary: hostileJsonBodies.map((b) => ({ ...b, shown: b.payload.slice(0, 200) })) },
    { weight: 1, arbitrary: fc.constant<Body>({}) },
  )
}

/** A multipart form for the schema: text fields as text, `format: binary` fields as files (a real image or junk). */
function multipartArbitrary(schema: Node): fc.Arbitrary<Body> {
  const properties = isNode(schema.properties) ? schema.properties : {}
  const file = (field: string) =>
    fc
      .record({
        filename: fc.constantFrom(
          'dot.png',
          'dot.png',
          'dot.png',
          '',
          '\u202Egnp.exe',
          '../../x.png',
          'a\u0000b.png',
          'x'.repeat(300),
        ),
        contentType: fc.constantFrom(
          'image/png',
          'image/png',
          'image/jpeg',
          'video/mp4',
          'text/html',
          'application/octet-stream',
        ),
        data: fc.oneof(
          { weight: 4, arbitrary: fc.constant(png) },
          { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) },
          { weight: 1, arbitrary: fc.constantFrom(Buffer.alloc(0), png.subarray(0, 20)) },
        ),
      })
      .map((f): FormPart => ({ field, ...f }))
  const parts = Object.entries(properties).map(([name, value]) => {
    const node = resolve(value)
    const item = resolve(node.items)
    if (node.format === 'binary') return fc.option(file(name), { freq: 5 }).map((p) => (p ? [p] : []))
    if (node.type === 'array' && item.format === 'binary')
      return fc.array(file(name), { maxLength: typeof node.maxItems === 'number' ? node.maxItems + 1 : 3 })
    const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '')
    if (node.type === 'array') {
      return fc
        .array(field(item, name, world.pools, resolve), { maxLength: 6 })
        .map((values) => values.map((v): FormPart => ({ field: name, value: text(v) })))
    }
    return fc
      .option(field(node, name, world.pools, resolve), { freq: 4 })
      .map((v) => (v === null ? [] : [{ field: name, value: text(v) }]))
  })
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(...parts, rarely(fc.constant<FormPart>({ field: 'extra', value: 'x' }))).map((all) => {
        const form = all.flat().filter((p): p is FormPart => p !== null)
        const { payload, headers } = multipart(form)
        return {
          payload,
          contentType: headers['content-type'],
          shown: form.map((p) => ('value' in p ? p : { ...p, data: `${p.data.length} bytes` })),
        }
      }),
    },
    { weight: 1, arbitrary: hostileJsonBodies.map((b) => ({ ...b, shown: b.payload.slice(0, 200) })) },
    { weight: 1, arbitrary: fc.constant<Body>({}) },
  )
}

/** Raw bytes (an encrypted attachment): random bytes, none, or a JSON body the operation does not take. */
function bytesArbitrary(schema: Node): fc.Arbitrary<Body> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.uint8Array({ minLength: 0, maxLength: 4096 }).map((bytes) => ({
        payload: Buffer.from(bytes),
        contentType: 'application/octet-stream',
        shown: `${bytes.length} bytes`,
      })),
    },
    { weight: 1, arbitrary: jsonBodyArbitrary(schema) },
  )
}

function bodyArbitrary(op: OperationInfo): fc.Arbitrary<Body> {
  const requestBody = resolve(operationNode(op).requestBody)
  const content = isNode(requestBody.content) ? requestBody.content : undefined
  if (!content) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant<Body>({}) },
      { weight: 1, arbitrary: hostileJsonBodies.map((b) => ({ ...b, shown: b.payload.slice(0, 200) })) },
    )
  }
  const [mediaType, media] = Object.entries(content)[0] ?? []
  const schema = resolve(resolve(media).schema)
  if (mediaType === 'application/octet-stream') return bytesArbitrary(schema)
  return mediaType === 'multipart/form-data' ? multipartArbitrary(schema) : jsonBodyArbitrary(schema)
}

function requestArbitrary(op: OperationInfo, role: Role): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      pathArbitrary(op),
      queryArbitrary(op),
      bodyArbitrary(op),
      fc.constantFrom(...Array<string>(8).fill('valid'), 'none', 'garbage'),
      headersArbitrary(op),
    )
    .map(([path, query, body, auth, declaredHeaders]) => ({
      role,
      method: op.method,
      url: path + query,
      headers: {
        ...declaredHeaders,
        ...(body.contentType ? { 'content-type': body.contentType } : {}),
        ...(auth === 'garbage' ? { authorization: `Bearer ${randomBytes(16).toString('hex')}` } : {}),
        ...(auth === 'none' ? {} : { 'x-fuzz-auth': auth }),
      },
      ...(body.payload === undefined ? {} : { payload: body.payload }),
      shown: body.shown,
    }))
}

// ---- the property --------------------------------------------------------------------------------------------------

/** A fresh session for each call: a call may sign its caller out (logout, password change). */
async function tokenOf(role: Role): Promise<string> {
  return app.services.sessions.create(world.people[role].id, { userAgent: 'fuzz' })
}

async function call(request: FuzzRequest) {
  const { 'x-fuzz-auth': auth, ...headers } = request.headers
  if (auth === 'valid') headers.authorization = `Bearer ${await tokenOf(request.role)}`
  const options: InjectOptions = {
    method: request.method as InjectOptions['method'],
    url: request.url,
    headers,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  }
  return app.inject(options)
}

/** The owner keeps their admin role and their block of `blocked`, whatever an earlier operation did. */
async function restoreWorld() {
  await app.services.db.execute(sql`update users set is_admin = true where id = ${world.people.owner.id}`)
  const token = await tokenOf('owner')
  await app.inject({
    method: 'POST',
    url: `/api/blocks/user/${world.people.blocked.id}`,
    headers: { authorization: `Bearer ${token}` },
  })
}

describe('the contract under hostile input', () => {
  it.each(operations.map((op) => [`${op.method} ${op.path} (${op.operationId})`, op] as const))(
    '%s',
    async (_name, op) => {
      await restoreWorld()
      let before = await fingerprint()
      for (const role of roles) {
        const property = fc.asyncProperty(requestArbitrary(op, role), async (request) => {
          const res = await call(request)
          const status = res.statusCode
          const described = `${status} ${res.body.slice(0, 300)}`
          if (process.env.FUZZ_STATS)
            console.log(`STAT ${op.operationId} ${role} ${request.url.slice(0, 120)} ${described}`)
          if (status >= 500) throw new Error(`answered ${described}`)
          const after = await fingerprint()
          if (status >= 400) {
            const changed = changedTables(before, after)
            if (changed.length) throw new Error(`answered ${described} but changed ${changed.join(', ')}`)
          }
          before = after
        })
        try {
          await fc.assert(property, { seed: seed + roles.indexOf(role), numRuns: RUNS_PER_ROLE })
        } catch (error) {
          // fast-check keeps what the property threw as the cause: show it beside the counterexample.
          const cause = error instanceof Error && error.cause instanceof Error ? `\n${error.cause.message}` : ''
          throw new Error(
            `${op.operationId} as ${role}: ${String(error instanceof Error ? error.message : error)}${cause}\n` +
              `Replay: FUZZ_SEED=${seed} npx vitest run --project fuzz (add -t '${op.operationId}' for this operation alone)`,
          )
        }
      }
    },
  )
})
