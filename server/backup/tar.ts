import type { Readable, Writable } from 'node:stream'

/**
 * A minimal POSIX tar (ustar, with pax headers for long names and large sizes), written and read as a stream.
 * Tar rather than zip because fflate's zip has no Zip64, so a media folder past 4 GB could not be archived, and
 * because `tar tvf` lets an operator look inside a backup with nothing but the system's tools.
 */

const BLOCK = 512
const USTAR_MAX_SIZE = 8 ** 11 - 1

export class ArchiveFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ArchiveFormatError'
  }
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0'
}

function header(name: string, size: number, type: '0' | 'x', mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK)
  block.write(name, 0, 100, 'utf8')
  block.write(octal(0o644, 8), 100, 'ascii')
  block.write(octal(0, 8), 108, 'ascii')
  block.write(octal(0, 8), 116, 'ascii')
  block.write(octal(size, 12), 124, 'ascii')
  block.write(octal(mtime, 12), 136, 'ascii')
  block.write('        ', 148, 'ascii')
  block.write(type, 156, 'ascii')
  block.write('ustar\u000000', 257, 'ascii')
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii')
  return block
}

/** One pax record: "<length> <key>=<value>\n", where length counts the whole record, its own digits included. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`
  let length = Buffer.byteLength(body)
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body)
  return `${length}${body}`
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK)

/** Writes entries one after another to `out`, waiting for it to drain, so memory stays flat whatever the sizes. */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private async write(chunk: Buffer): Promise<void> {
    if (!this.out.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const done = (err?: Error) => {
          this.out.off('drain', done)
          this.out.off('error', done)
          if (err) reject(err)
          else resolve()
        }
        this.out.once('drain', done)
        this.out.once('error', done)
      })
    }
  }

  /** Adds one file; `body` must yield exactly `size` bytes (a file that changed size meanwhile is an error). */
  async add(
    name: string,
    size: number,
    body: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>,
    mtime = Date.now()): Promise<void> {
    const seconds = Math.floor(mtime / 1000)
    if (Buffer.byteLength(name) > 100 || size > USTAR_MAX_SIZE) {
      const pax = Buffer.from(paxRecord('path', name) + paxRecord('size', String(size)))
      await this.write(header('pax', pax.length, 'x', seconds))
      await this.write(Buffer.concat([pax, padding(pax.length)]))
    }
    await this.write(header(name.slice(0, 100), Math.min(size, USTAR_MAX_SIZE), '0', seconds))
    let written = 0
    for await (const chunk of body) {
      written += chunk.length
      if (written > size) throw new Error(`${name} grew while it was being archived`)
      await this.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length))
    }
    if (written !== size) throw new Error(`${name} shrank while it was being archived (${written} of ${size} bytes)`)
    await this.write(padding(size))
  }

  /** The two zero blocks that end an archive; a reader that meets the end of input before them knows it is cut. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2))
  }
}

/** Reads exact byte counts from a stream; running out early means the archive was cut short. */
class ByteReader {
  private buffered: Buffer[] = []
  private length = 0
  private readonly iterator: AsyncIterator<Buffer>

  constructor(input: Readable) {
    this.iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  }

  private async fill(n: number): Promise<boolean> {
    while (this.length < n) {
      const next = await this.iterator.next()
      if (next.done) return false
      this.buffered.push(next.value)
      this.length += next.value.length
    }
    return true
  }

  private take(n: number): Buffer {
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered)
    this.buffered = n < all.length ? [all.subarray(n)] : []
    this.length = all.length - n
    return all.subarray(0, n)
  }

  async exactly(n: number): Promise<Buffer> {
    if (!(await this.fill(n))) throw new ArchiveFormatError('The archive ends in the middle of a file: it is truncated')
    return this.take(n)
  }

  /** Yields the next `n` bytes as they arrive. */
  async *chunks(n: number): AsyncGenerator<Buffer> {
    let left = n
    while (left > 0) {
      if (this.length === 0 && !(await this.fill(1))) {
        throw new ArchiveFormatError('The archive ends in the middle of a file: it is truncated')
      }
      const piece = this.take(Math.min(left, this.length))
      left -= piece.length
      yield piece
    }
  }

  async skip(n: number): Promise<void> {
    for await (const _ of this.chunks(n)) void _
  }
}

function parseOctal(block: Buffer, start: number, width: number): number {
  const text = block.toString('ascii', start, start + width).replace(/[\0 ]+$/, '').trim()
  if (!/^[0-7]*$/.test(text)) throw new ArchiveFormatError('The archive has a damaged header: it is not a Wren backup or it is corrupt')
  return text === '' ? 0 : parseInt(text, 8)
}

function checksumOk(block: Buffer): boolean {
  let sum = 0
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 32 : block[i]!
  return sum === parseOctal(block, 148, 8)
}

function parsePax(data: Buffer): Record<string, string> {
  const values: Record<string, string> = {}
  for (const line of data.toString('utf8').split('\n')) {
    const match = /^\d+ ([^=]+)=(.*)$/.exec(line)
    if (match) values[match[1]!] = match[2]!
  }
  return values
}

export interface TarEntry {
  name: string
  size: number
  /** The entry's bytes; must be consumed (or the reader skips them) before the next entry is read. */
  body: AsyncIterable<Buffer>
}

/** Yields each regular file of a tar stream. Throws ArchiveFormatError on a damaged or truncated archive. */
export async function* readTar(input: Readable): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(input)
  let pax: Record<string, string> = {}
  for (;;) {
    const block = await reader.exactly(BLOCK)
    if (block.every((byte) => byte === 0)) return
    if (!checksumOk(block)) throw new ArchiveFormatError('The archive has a damaged header: it is not a Wren backup or it is corrupt')
    const type = String.fromCharCode(block[156]!)
    const size = pax.size !== undefined ? Number(pax.size) : parseOctal(block, 124, 12)
    const name = pax.path ?? block.toString('utf8', 0, 100).replace(/\0.*$/s, '')
    pax = {}
    if (type === 'x') {
      pax = parsePax(await reader.exactly(size))
      await reader.skip(padding(size).length)
      continue
    }
    if (type === '0' || type === '\0') {
      let consumed = false
      const body = (async function* () {
        consumed = true
        yield* reader.chunks(size)
      })()
      yield { name, size, body }
      if (!consumed) await reader.skip(size)
    } else {
      await reader.skip(size)
    }
    await reader.skip(padding(size).length)
  }
}
