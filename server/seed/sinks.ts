import { sql, type SQL } from 'drizzle-orm'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import type { TableSpec } from './tables'

/**
 * Where generated rows go. Two ways in, chosen by measurement (bench/README.md has the numbers):
 * - PostgreSQL: `COPY ... FROM STDIN` through pg-copy-streams, rows streamed as text while the next ones are made;
 * - PGlite (and PostgreSQL with `--loader unnest`): `INSERT ... SELECT * FROM unnest($1::type[], ...)`, one
 *   statement per batch, each column sent as one array literal parameter.
 */

export type Cell = string | number | boolean | null

export interface RowSink {
  /** Queues a row; returns a promise only when the caller must wait (a full buffer or a batch being sent). */
  add(row: readonly Cell[]): Promise<void> | undefined
  /** Sends what is left and resolves once the database has every row. */
  end(): Promise<void>
}

export interface BulkWriter {
  open(table: TableSpec): Promise<RowSink>
}

/** Runs a drizzle SQL object and returns its rows: `db.execute` for PGlite, the dialect's text + params for pg. */
export type Execute = (query: SQL) => Promise<unknown[]>

// ---- COPY ----------------------------------------------------------------------------------------------------------

const COPY_SPECIAL = /[\\\t\n\r]/
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' }

/** One line of COPY's text format. */
export function copyLine(row: readonly Cell[]): string {
  let line = ''
  for (let i = 0; i < row.length; i += 1) {
    const cell = row[i] ?? null
    if (i > 0) line += '\t'
    if (cell === null) line += '\\N'
    else if (typeof cell === 'boolean') line += cell ? 't' : 'f'
    else if (typeof cell === 'number') line += String(cell)
    else line += COPY_SPECIAL.test(cell) ? cell.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] ?? c) : cell
  }
  return `${line}\n`
}

// Lines joined per socket write: big enough to amortise the call, small enough to keep memory flat.
const COPY_LINES_PER_WRITE = 1_000

class CopySink implements RowSink {
  private lines: string[] = []
  private readonly done: Promise<void>

  constructor(private readonly stream: ReturnType<typeof copyFrom>) {
    this.done = new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve)
      stream.on('error', reject)
    })
    // Reported by add()/end(); this only keeps an early failure from being an unhandled rejection meanwhile.
    this.done.catch(() => undefined)
  }

  add(row: readonly Cell[]): Promise<void> | undefined {
    this.lines.push(copyLine(row))
    if (this.lines.length < COPY_LINES_PER_WRITE) return undefined
    const chunk = this.lines.join('')
    this.lines = []
    if (this.stream.write(chunk)) return undefined
    // Wait for the socket to drain, or for the COPY to fail (then `done` rejects and the caller stops).
    return Promise.race([new Promise<void>((resolve) => this.stream.once('drain', resolve)), this.done])
  }

  async end(): Promise<void> {
    this.stream.end(this.lines.join(''))
    this.lines = []
    await this.done
  }
}

export class CopyWriter implements BulkWriter {
  constructor(
    private readonly client: pg.Client,
    /** COPY FREEZE: only allowed when the table was truncated in the same transaction (bulk-load.ts does that). */
    private readonly freeze: boolean,
  ) {}

  async open(table: TableSpec): Promise<RowSink> {
    const columns = table.columns.map(([name]) => `"${name}"`).join(', ')
    const options = this.freeze ? ' with (freeze true)' : ''
    return new CopySink(this.client.query(copyFrom(`copy "${table.name}" (${columns}) from stdin${options}`)))
  }
}

// ---- unnest --------------------------------------------------------------------------------------------------------

/** A PostgreSQL array literal of text elements (the server casts it to the column's array type). */
export function arrayLiteral(values: readonly Cell[]): string {
  const parts = values.map((v) => {
    if (v === null) return 'NULL'
    if (typeof v === 'boolean') return v ? 't' : 'f'
    if (typeof v === 'number') return String(v)
    return `"${v.replace(/["\\]/g, '\\$&')}"`
  })
  return `{${parts.join(',')}}`
}

class UnnestSink implements RowSink {
  private columns: Cell[][]

  constructor(
    private readonly table: TableSpec,
    private readonly execute: Execute,
    private readonly batchSize: number,
  ) {
    this.columns = table.columns.map(() => [])
  }

  add(row: readonly Cell[]): Promise<void> | undefined {
    for (let i = 0; i < this.columns.length; i += 1) this.columns[i]?.push(row[i] ?? null)
    return (this.columns[0]?.length ?? 0) >= this.batchSize ? this.flush() : undefined
  }

  private async flush(): Promise<void> {
    const batch = this.columns
    this.columns = this.table.columns.map(() => [])
    if ((batch[0]?.length ?? 0) === 0) return
    const names = sql.raw(this.table.columns.map(([name]) => `"${name}"`).join(', '))
    // Sent as text and cast on the server: both drivers pass a string parameter through untouched.
    const arrays = sql.join(
      this.table.columns.map(([, type], i) => sql`(${arrayLiteral(batch[i] ?? [])}::text)::${sql.raw(type)}[]`),
      sql`, `,
    )
    await this.execute(sql`insert into ${sql.identifier(this.table.name)} (${names}) select * from unnest(${arrays})`)
  }

  end(): Promise<void> {
    return this.flush()
  }
}

export class UnnestWriter implements BulkWriter {
  constructor(
    private readonly execute: Execute,
    private readonly batchSize: number,
  ) {}

  async open(table: TableSpec): Promise<RowSink> {
    return new UnnestSink(table, this.execute, this.batchSize)
  }
}
