/**
 * The name of the unique constraint an insert/update broke, or undefined for any other error. Drizzle wraps driver
 * errors (DrizzleQueryError with `cause`), and pg and PGlite both carry PostgreSQL's `code` and `constraint`.
 */
export function violatedUniqueConstraint(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth += 1) {
    const { code, constraint, cause } = e as { code?: unknown; constraint?: unknown; cause?: unknown }
    if (code === '23505') return typeof constraint === 'string' ? constraint : ''
    e = cause
  }
  return undefined
}
