import fc from 'fast-check'
import type { OpenApiDocument } from '../../server/http/openapi'
import type { Pools } from './world'

/**
 * Arbitraries read from openapi.yaml: for each schema, values that follow it (so a request gets past validation and
 * reaches the services) and hostile ones (too long, wrong type, out of range, malformed ids, unicode tricks, NUL
 * bytes, deep nesting, missing and extra fields). Ids come from the seeded world by the resource a name points at.
 */

export type Node = Record<string, unknown>

export function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function resolver(spec: OpenApiDocument) {
  return function resolve(value: unknown): Node {
    let node = value
    for (let hops = 0; isNode(node) && typeof node.$ref === 'string'; hops += 1) {
      if (hops > 10) throw new Error(`$ref loop at ${node.$ref}`)
      node = node.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((at, key) => (isNode(at) ? at[key] : undefined), spec)
    }
    if (!isNode(node)) return {}
    if (Array.isArray(node.allOf)) return Object.assign({}, ...node.allOf.map(resolve), { ...node, allOf: undefined })
    return node
  }
}

// ---- hostile values ---------------------------------------------------------------------------------------------

const UNICODE_TRICKS = [
  '\u202Egnp.exe', // right-to-left override
  'שלום עולם', // RTL script
  '👩‍👩‍👧‍👦🏳️‍🌈', // emoji with joiners
  'e\u0301\u0301\u0301\u0301\u0301', // stacked combining marks
  'a\u0000b', // NUL byte
  '\u0000',
  '\uD800', // lone surrogate
  '\uFEFF\u200B', // BOM and zero-width space
  '   ',
  '',
]

function deepNested(depth: number): unknown {
  let value: unknown = 'bottom'
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value }
  return value
}

const MALFORMED_IDS = [
  'not-an-id',
  '00000000-0000-0000-0000-000000000000',
  '01234567-89AB-CDEF-0123-456789ABCDEF',
  '0123456789abcdef0123456789abcdef',
  '01234567-89ab-cdef-0123-456789abcdeg',
  '99999999999999999999',
  '-1',
  '0',
  '1e309',
  '../../etc/passwd',
  '%00',
  'x'.repeat(65),
  "' or 1=1 --",
]

/** Values that break any schema's type, whatever it is. */
const wrongType = fc.constantFrom<unknown>(
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53 + 1,
  1e308,
  'x',
  [],
  ['a', 1],
  {},
  { $ref: '#/x' },
  { __proto__: { polluted: true } },
  deepNested(64),
  deepNested(2000),
)

const hostileString = fc.oneof(
  fc.constantFrom(...UNICODE_TRICKS, ...MALFORMED_IDS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
)

export function hostile(schema: Node): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [wrongType, hostileString]
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined
  if (maxLength !== undefined) {
    options.push(
      fc.constantFrom(
        'x'.repeat(maxLength + 1),
        '😀'.repeat(maxLength + 1),
        'é'.repeat(maxLength * 2),
        'x'.repeat(maxLength * 40),
      ),
    )
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    options.push(fc.constant('x'.repeat(schema.minLength - 1)))
  if (schema.type === 'integer' || schema.type === 'number') {
    const bounds = [schema.minimum, schema.maximum].filter((b): b is number => typeof b === 'number')
    options.push(
      fc.constantFrom(-1, -(2 ** 31), 2 ** 31, 2 ** 63, 1e20, 0.5, ...bounds.flatMap((b) => [b - 1, b + 1])),
      fc.integer(),
      fc.double(),
    )
  }
  if (Array.isArray(schema.enum)) options.push(fc.constantFrom(...schema.enum.map((v) => `${String(v)}x`), 'ALL'))
  if (schema.type === 'array') {
    const items = typeof schema.maxItems === 'number' ? schema.maxItems + 1 : 1001
    options.push(fc.constant(Array.from({ length: items }, () => 'x')))
  }
  return fc.oneof(...options)
}

// ---- values that follow the schema --------------------------------------------------------------------------------

/** The pool a field or parameter name points at: `postId` and `replyTo` name posts, `recipientId` a user, ... */
export function poolFor(name: string, pools: Pools, pathSegment?: string): string[] | undefined {
  const word = (name === 'id' && pathSegment ? pathSegment : name).replace(/Id$/, '').replace(/s$/, '').toLowerCase()
  const aliases: Record<string, string> = {
    recipient: 'user',
    member: 'user',
    'follow-request': 'user',
    replyto: 'post',
    currentpassword: 'password',
    newpassword: 'password',
    q: 'username',
  }
  return pools[aliases[word] ?? word]
}

/** An opaque cursor in the server's shape (base64url JSON `[time, id]`) with any time, or something else. */
const cursorTime = fc.oneof(
  fc.bigInt({ min: -(10n ** 21n), max: 10n ** 21n }).map(String),
  fc.constantFrom(
    '99999999999999999999',
    '9223372036854775807',
    '-9223372036854775808',
    '253402300800000000',
    '0',
    '-1',
    '1.5',
    '',
  ),
  fc.constant(String(BigInt(Date.now()) * 1000n)),
)
const cursor = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.tuple(cursorTime, fc.uuid()).map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url')),
  },
  { weight: 1, arbitrary: fc.json().map((json) => Buffer.from(json).toString('base64url')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
)

function patterned(pattern: string, maxLength: number | undefined): fc.Arbitrary<string> | undefined {
  try {
    const arbitrary = fc.stringMatching(new RegExp(pattern))
    return maxLength === undefined ? arbitrary : arbitrary.filter((s) => s.length <= maxLength)
  } catch {
    return undefined
  }
}

export function valid(
  schema: Node,
  name: string,
  pools: Pools,
  resolve: (n: unknown) => Node,
  depth = 0,
): fc.Arbitrary<unknown> {
  const pool = poolFor(name, pools)
  if (pool?.length) return fc.constantFrom(...pool)
  if (name === 'cursor') return cursor
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...(schema.enum as unknown[]))
  const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined
  if (Array.isArray(alternatives))
    return fc.oneof(...alternatives.map((s) => valid(resolve(s), name, pools, resolve, depth + 1)))
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type]
  const type = types.find((t) => t !== 'null')
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0
  switch (type) {
    case 'string': {
      if (typeof schema.pattern === 'string') {
        const matching = patterned(schema.pattern, maxLength)
        if (matching) return matching
      }
      if (schema.format === 'email') return fc.emailAddress().filter((e) => e.length <= (maxLength ?? 254))
      return fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength ?? 40, 40) })
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1000
      const max = typeof schema.maximum === 'number' ? schema.maximum : 1000
      return fc.integer({ min, max })
    }
    case 'boolean':
      return fc.boolean()
    case 'array': {
      if (depth > 4) return fc.constant([])
      const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : 3
      return fc.array(valid(resolve(schema.items), name, pools, resolve, depth + 1), {
        minLength: typeof schema.minItems === 'number' ? schema.minItems : 0,
        maxLength: Math.min(maxItems, 4),
      })
    }
    case 'object':
      return objectOf(schema, pools, resolve, depth + 1)
    default:
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean())
  }
}

/** Either a value that follows the schema (three times in four) or a hostile one. */
export function field(schema: Node, name: string, pools: Pools, resolve: (n: unknown) => Node, depth = 0) {
  return fc.oneof(
    { weight: 3, arbitrary: valid(schema, name, pools, resolve, depth) },
    { weight: 1, arbitrary: hostile(schema) },
  )
}

/** The value one time in six, otherwise null. */
export function rarely<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary })
}

/** An object for a schema: each property valid or hostile, optional ones sometimes left out, required ones sometimes
 * missing, and now and then a field the schema does not have. */
export function objectOf(
  schema: Node,
  pools: Pools,
  resolve: (n: unknown) => Node,
  depth = 0,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = isNode(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [key, value] of Object.entries(properties)) model[key] = field(resolve(value), key, pools, resolve, depth)
  const keys = Object.keys(model)
  return fc
    .tuple(
      fc.record(model, { requiredKeys: keys.filter((k) => required.has(k)) }),
      rarely(fc.constantFrom(...(keys.length ? keys : ['none']))),
      rarely(fc.tuple(fc.constantFrom('isAdmin', 'id', 'userId', 'extra', '__proto__', 'constructor'), wrongType)),
    )
    .map(([record, drop, extra]) => {
      const out: Record<string, unknown> = { ...record }
      if (drop !== null) delete out[drop]
      if (extra !== null) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true, writable: true })
      return out
    })
}
