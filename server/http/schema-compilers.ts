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

function processWide(pool: Factory): Factory {
  const byOptions = new Map<string, Compile>()
  return (externalSchemas, options) => {
    const context = JSON.stringify([externalSchemas, options])
    const known = byOptions.get(context)
    if (known) return known
    const compile = pool(externalSchemas, options)
    const compiled = new Map<string, unknown>()
    const memoized: Compile = (route) => {
      const schema = route.httpPart === 'headers' ? lowerCaseHeaders(route.schema) : route.schema
      const key = JSON.stringify(schema)
      if (!compiled.has(key)) compiled.set(key, compile({ ...route, schema }))
      return compiled.get(key)
    }
    byOptions.set(context, memoized)
    return memoized
  }
}

export const processWideCompilers = {
  buildValidator: processWide(AjvCompiler() as unknown as Factory),
  buildSerializer: processWide(SerializerSelector() as unknown as Factory),
} as unknown as CompilersFactory
