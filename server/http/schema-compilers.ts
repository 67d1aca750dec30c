import { AjvCompiler } from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

/**
 * Fastify compiles every route's request validators (ajv) and response serializers (fast-json-stringify) for each app
 * it builds. One server builds one app, but a test process builds hundreds from the same contract, and compiling the
 * contract was most of an app's build time (~450 ms of ~600). These factories keep what they compiled for the life of
 * the process, keyed by the schema's text and the compiler's options, so an app built from the same contract reuses
 * what an earlier app compiled: a compiled validator or serializer is a pure function of its schema and options.
 */
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>
interface RouteSchema {
  schema: unknown
  httpPart?: string
}
type Compile = (route: RouteSchema) => unknown
type Factory = (externalSchemas: unknown, options: unknown) => Compile

/**
 * Header names arrive lower-cased. Fastify lower-cases a headers schema's property names itself, but only for its
 * own compilers, so these do it.
 */
function lowerCaseHeaders(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema
  const { properties, required, ...rest } = schema as { properties?: Record<string, unknown>; required?: string[] }
  return {
    ...rest,
    ...(properties && { properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k.toLowerCase(), v])) }),
    ...(required && { required: required.map((name) => name.toLowerCase()) }),
  }
}

const isNullType = (option: unknown) =>
  typeof option === 'object' && option !== null && Object.keys(option).length === 1 && (option as { type?: unknown }).type === 'null'

/**
 * The contract says "X or null" as `anyOf: [X, {type: 'null'}]` (OpenAPI 3.1 has no `nullable`). fast-json-stringify
 * serializes an anyOf by validating the value against each option with ajv first: a whole nested card (a quote, a
 * poll, a link preview) validated on every response, which made a page with them cost half as much again to
 * serialize. For the serializer only, such a pair becomes X marked `nullable`, which fast-json-stringify writes as
 * one `=== null` check and then X's own serializer; the output is the same JSON (and still only X's declared
 * properties). Request validation keeps the contract as written.
 */
export function nullableForSerializer(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableForSerializer)
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) out[key] = nullableForSerializer(value)
  const anyOf = out.anyOf
  if (Array.isArray(anyOf) && anyOf.length === 2 && out.oneOf === undefined && out.allOf === undefined) {
    const nullAt = anyOf.findIndex(isNullType)
    const other = anyOf[1 - nullAt] as Record<string, unknown> | undefined
    const plain = other && other.anyOf === undefined && other.oneOf === undefined && other.allOf === undefined && !Array.isArray(other.type)
    if (nullAt !== -1 && other && plain && !isNullType(other)) {
      const { anyOf: _pair, ...siblings } = out
      return { ...siblings, ...other, nullable: true }
    }
  }
  return out
}

function processWide(pool: Factory, prepare: (schema: unknown) => unknown = (schema) => schema): Factory {
  const byOptions = new Map<string, Compile>()
  return (externalSchemas, options) => {
    const context = JSON.stringify([externalSchemas, options])
    const known = byOptions.get(context)
    if (known) return known
    const compile = pool(prepare(externalSchemas), options)
    const compiled = new Map<string, unknown>()
    const memoized: Compile = (route) => {
      const schema = route.httpPart === 'headers' ? lowerCaseHeaders(route.schema) : prepare(route.schema)
      const key = JSON.stringify(schema)
      if (!compiled.has(key)) compiled.set(key, compile({ ...route, schema }))
      return compiled.get(key)
    }
    byOptions.set(context, memoized)
    return memoized
  }
}

interface Validator {
  (data: unknown): boolean
  errors?: unknown[] | null
}

/**
 * ajv coerces text that reads as a number too large for a double ("1e309") to Infinity, then skips the range keywords,
 * which it checks only for finite numbers: `?limit=1e309` passed `maximum: 100` and reached the SQL. The validators
 * refuse a field that coercion made infinite (in a query, a path or a form; JSON cannot carry Infinity, and ajv's own
 * type check refuses it there).
 */
function finiteOnly(validate: Validator): Validator {
  const checked: Validator = (data) => {
    const valid = validate(data)
    checked.errors = validate.errors
    if (!valid || typeof data !== 'object' || data === null) return valid
    const infinite = Object.entries(data).filter(([, value]) => typeof value === 'number' && !Number.isFinite(value))
    if (infinite.length === 0) return true
    checked.errors = infinite.map(([name]) => ({
      keyword: 'type',
      instancePath: `/${name}`,
      schemaPath: '',
      params: { type: 'number' },
      message: 'must be a finite number',
    }))
    return false
  }
  return checked
}

function withFiniteNumbers(factory: Factory): Factory {
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options)
    return (route) => finiteOnly(compile(route) as Validator)
  }
}

export const processWideCompilers = {
  buildValidator: processWide(withFiniteNumbers(AjvCompiler() as unknown as Factory)),
  buildSerializer: processWide(SerializerSelector() as unknown as Factory, nullableForSerializer),
} as unknown as CompilersFactory
