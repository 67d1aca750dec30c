import type { FastifySchemaValidationError } from 'fastify'
import type { SchemaErrorFormatter } from 'fastify/types/schema'
import { HttpError } from './errors'

type Part = 'body' | 'headers' | 'params' | 'querystring'

/**
 * Sentences for the patterns the contract uses, keyed by the pattern text itself: JSON Schema cannot carry a message,
 * and "must match pattern ^[A-Za-z0-9_]+$" means nothing to a member. Unknown patterns get a generic sentence.
 */
const patternMeanings: Record<string, string> = {
  '^[A-Za-z0-9_]+$': 'may only contain letters, numbers, and underscores',
  '^[^\\s@]+@[^\\s@]+$': 'must be a valid email address',
  '\\S': 'must not be blank',
  '^(?:[a-z0-9]+(?:-+[a-z0-9]+)*\\.)+[a-z]{2,}$': 'must be a lowercase domain name like spam.example',
  // Message keys and ciphertext envelopes (openapi.yaml PublicKey, WrappedPrivateKey, MessageContentRequest); their
  // exact formats (src/api/contract/encryption.ts) are the services' to check.
  '^[A-Za-z0-9_.-]*$': 'must be base64url parts separated by dots (letters, digits, - _ and . only)',
  // The Idempotency-Key header (openapi.yaml, components/parameters/IdempotencyKey).
  '^[\\x21-\\x7E]+$': 'may only contain visible ASCII characters (no spaces)',
}

const typeNames: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
}

const wholeLabels: Record<Part, string> = {
  body: 'Request body',
  headers: 'Headers',
  params: 'Path',
  querystring: 'Query',
}

/** Fastify lowercases header names; a member reads them as they are written (`Idempotency-Key`). */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())

/** `/media/0/alt` -> `media[0].alt`; the empty path names the whole part. */
function fieldName(instancePath: string, part: Part, child?: unknown): string {
  const segments = instancePath.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
  if (typeof child === 'string') segments.push(child)
  if (segments.length === 0) return wholeLabels[part]
  if (part === 'headers') return segments.map(headerName).join('.')
  return segments.reduce((name, s) => (/^\d+$/.test(s) ? `${name}[${s}]` : name ? `${name}.${s}` : s), '')
}

function plural(n: unknown, word: string): string {
  return `${String(n)} ${word}${n === 1 ? '' : 's'}`
}

function listOf(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(', ') : String(value)
}

/** One ajv error as a sentence a member can act on, e.g. "username must be at least 3 characters". */
export function describe(error: FastifySchemaValidationError, part: Part): string {
  const { params } = error
  const field = fieldName(error.instancePath, part)
  switch (error.keyword) {
    case 'required':
      return `${fieldName(error.instancePath, part, params.missingProperty)} is required`
    case 'additionalProperties':
      return `Unknown field: ${fieldName(error.instancePath, part, params.additionalProperty)}`
    case 'minLength':
      return params.limit === 1 ? `${field} must not be empty` : `${field} must be at least ${plural(params.limit, 'character')}`
    case 'maxLength':
      return `${field} must be at most ${plural(params.limit, 'character')}`
    case 'pattern':
      return `${field} ${patternMeanings[String(params.pattern)] ?? 'has an invalid format'}`
    case 'format':
      return `${field} must be a valid ${String(params.format)}`
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : String(params.type).split(',')
      return `${field} must be ${types.map((t) => typeNames[String(t)] ?? String(t)).join(' or ')}`
    }
    case 'enum':
      return `${field} must be one of: ${listOf(params.allowedValues)}`
    case 'const':
      return `${field} must be ${String(params.allowedValue)}`
    case 'minimum':
    case 'exclusiveMinimum':
      return `${field} must be ${error.keyword === 'minimum' ? 'at least' : 'greater than'} ${String(params.limit)}`
    case 'maximum':
    case 'exclusiveMaximum':
      return `${field} must be ${error.keyword === 'maximum' ? 'at most' : 'less than'} ${String(params.limit)}`
    case 'minItems':
      return `${field} must have at least ${plural(params.limit, 'item')}`
    case 'maxItems':
      return `${field} must have at most ${plural(params.limit, 'item')}`
    case 'uniqueItems':
      return `${field} must not contain duplicates`
    default:
      return `${field} ${error.message ?? 'is invalid'}`
  }
}

/**
 * Fastify's `schemaErrorFormatter`: every problem becomes a sentence in `details`, the first one is the headline
 * `error`. Branch errors of anyOf/oneOf repeat each other, so duplicates are dropped.
 */
export function validationError(errors: FastifySchemaValidationError[], part: Part): HttpError {
  const details = [...new Set(errors.map((e) => describe(e, part)))]
  return new HttpError(400, details[0] ?? 'The request is invalid', details)
}

/**
 * Messages the product words itself for one operation's body fields: field -> validation keyword -> message, e.g.
 * `{ keyword: { pattern: 'Keyword is required' } }`, used instead of the generic sentence.
 */
export type FieldMessages = Record<string, Record<string, string>>

/** A route's `schemaErrorFormatter` that says the body's problems in the product's words where it has them. */
export function withSpecMessages(messages: FieldMessages): SchemaErrorFormatter {
  const word = (error: FastifySchemaValidationError) => {
    const fieldName = error.instancePath.split('/')[1] ?? ''
    return messages[fieldName]?.[error.keyword] ?? describe(error, 'body')
  }
  return (errors, dataVar) => {
    if (dataVar !== 'body') return validationError(errors, dataVar)
    const details = [...new Set(errors.map(word))]
    return new HttpError(400, details[0] ?? 'The request is invalid', details)
  }
}
