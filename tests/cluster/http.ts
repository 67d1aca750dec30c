/**
 * The JSON/multipart calls the cluster test makes, against one base URL (HAProxy, one process, or the oracle). A
 * network failure is an answer with status 0, so callers judge every answer the same way.
 */

import type { Schemas } from '../../server/http/handler-types'

export interface Answer {
  status: number
  /** The parsed JSON (text when it was not JSON, undefined on a network failure); read it with `bodyOf`. */
  body: unknown
  ms: number
  error?: string
}

/** A successful answer's body as the contract names it (the caller has checked the status). */
export function bodyOf<K extends keyof Schemas>(answer: Answer, _schema: K): Schemas[K] {
  return answer.body as Schemas[K]
}

export interface RequestOptions {
  token?: string
  /** Sent as `Idempotency-Key`, as the SPA does once per submission of a post, a conversation or a message. */
  idempotencyKey?: string
  json?: unknown
  form?: Record<string, string>
}

export async function request(base: string, method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {}
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey
  let body: string | FormData | undefined
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.json)
  } else if (options.form) {
    const form = new FormData()
    for (const [name, value] of Object.entries(options.form)) form.append(name, value)
    body = form
  }
  const started = performance.now()
  try {
    const res = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.timeout(20_000) })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // Not JSON (an HAProxy error page): kept as text for the report.
    }
    return { status: res.status, body: parsed, ms: performance.now() - started }
  } catch (err) {
    const cause = err instanceof Error && err.cause ? ` (${String(err.cause)})` : ''
    return { status: 0, body: undefined, ms: performance.now() - started, error: `${String(err)}${cause}` }
  }
}

/** Every page of a cursor-paged list, concatenated (`key` names the array in each page). */
export async function allPages<T>(base: string, path: string, key: string, token: string): Promise<{ status: number; items: T[] }> {
  const items: T[] = []
  let cursor: string | null = null
  for (let page = 0; page < 50; page += 1) {
    const separator = path.includes('?') ? '&' : '?'
    const answer = await request(base, 'GET', `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token })
    if (answer.status !== 200) return { status: answer.status, items }
    const page = answer.body as Record<string, unknown> & { nextCursor: string | null }
    items.push(...(page[key] as T[]))
    cursor = page.nextCursor
    if (!cursor) break
  }
  return { status: 200, items }
}
