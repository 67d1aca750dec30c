import { once } from 'node:events'
import type { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { extract, pack } from 'tar-stream'

/**
 * The backup archive's tar, written and read as a stream through tar-stream, which writes pax headers for long or
 * non-ASCII names and base-256 sizes past ustar's 8 GB. Tar rather than zip because fflate's zip has no Zip64, so a
 * media folder past 4 GB could not be archived, and because `tar tvf` lets an operator look inside a backup with
 * nothing but the system's tools. This module adds what tar-stream leaves to its caller: refusing a body of the
 * wrong size, and telling a damaged or truncated archive (ArchiveFormatError) from a failing disk.
 */

export class ArchiveFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ArchiveFormatError'
  }
}

const asBuffer = (chunk: Buffer | Uint8Array) =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)

/** Writes entries one after another to `out`, waiting for it to drain, so memory stays flat whatever the sizes. */
export class TarWriter {
  private readonly pack = pack()
  /** Settles when the whole archive is in `out` and `out` has ended, or on the first error of either. */
  private readonly written: Promise<void>

  constructor(out: Writable) {
    this.written = pipeline(this.pack, out)
    // Awaited by finish(), and by add() once `out` has failed (which also ends the entry being written).
    this.written.catch(() => undefined)
  }

  /** Adds one file; `body` must yield exactly `size` bytes (a file that changed size meanwhile is an error). */
  async add(
    name: string,
    size: number,
    body: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>,
    mtime = Date.now()): Promise<void> {
    if (this.pack.destroying) await this.written
    let entry!: ReturnType<typeof this.pack.entry>
    const stored = new Promise<void>((resolve, reject) => {
      entry = this.pack.entry({ name, size, mtime: new Date(mtime) }, (err) => (err ? reject(err) : resolve()))
    })
    // An entry's error also reaches the callback above, so `stored`; when the body fails first, that one is thrown.
    entry.on('error', () => undefined)
    stored.catch(() => undefined)
    try {
      let written = 0
      for await (const chunk of body) {
        written += chunk.length
        // Checked before writing: tar-stream only notices a wrong size at the entry's end, after the bytes went out.
        if (written > size) throw new Error(`${name} grew while it was being archived`)
        if (!entry.write(asBuffer(chunk))) await Promise.race([once(entry, 'drain'), stored])
      }
      if (written !== size) throw new Error(`${name} shrank while it was being archived (${written} of ${size} bytes)`)
      entry.end(null) // streamx's typings want an argument; null writes nothing
      await stored
    } catch (err) {
      entry.destroy(err as Error)
      throw err
    }
  }

  /** Ends the archive (its two zero blocks) and resolves once all of it is written and `out` has ended. */
  async finish(): Promise<void> {
    this.pack.finalize()
    await this.written
  }
}

export interface TarEntry {
  name: string
  size: number
  /** The entry's bytes; must be read to the end (or not at all: then they are skipped) before the next entry. */
  body: AsyncIterable<Buffer>
}

/**
 * tar-stream's own errors are plain Errors; it says "Unexpected end of data" for input that stops inside an entry
 * or a header, and throws on a header whose checksum or magic is wrong.
 */
function formatError(err: unknown, inputError: unknown): unknown {
  if (err === inputError || err instanceof ArchiveFormatError) return err
  return err instanceof Error && err.message === 'Unexpected end of data'
    ? new ArchiveFormatError('The archive ends in the middle of a file: it is truncated')
    : new ArchiveFormatError('The archive has a damaged header: it is not a Wren backup or it is corrupt')
}

/**
 * Yields each regular file of a tar stream. Throws ArchiveFormatError on a damaged archive or one that ends inside
 * an entry. An archive cut exactly between two entries reads as a shorter whole one: the caller's check that its
 * last entry is there (the manifest) is what catches that.
 */
export async function* readTar(input: Readable): AsyncGenerator<TarEntry> {
  const extractor = extract()
  let inputError: unknown
  input.once('error', (err) => {
    inputError = err
  })
  const fed = pipeline(input, extractor)
  fed.catch(() => undefined)
  /**
   * Whatever ended the extraction settles `fed` with its cause; a body read after that only says "Stream was
   * destroyed", so the cause is taken from there.
   */
  const failure = async (err: unknown) => formatError(await fed.then(() => err, (cause: unknown) => cause), inputError)
  try {
    for await (const stream of extractor) {
      const { name, size, type } = stream.header
      if (type !== 'file' && type !== 'contiguous-file') {
        for await (const _ of stream) void _
        continue
      }
      let started = false
      const body = (async function* () {
        started = true
        try {
          for await (const chunk of stream) yield chunk as Buffer
        } catch (err) {
          throw await failure(err)
        }
      })()
      yield { name, size, body }
      if (!started) for await (const _ of stream) void _
    }
    await fed
  } catch (err) {
    throw await failure(err)
  }
}
