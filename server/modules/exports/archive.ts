import { once } from 'node:events'
import { createWriteStream, type WriteStream } from 'node:fs'
import type { Readable } from 'node:stream'
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'

const encoder = new TextEncoder()

/**
 * A zip written to a file as it is made (fflate's streaming Zip), holding at most what one `push` produced plus what
 * the file stream has not flushed yet: callers await `flush()` between pages so the writes never pile up in memory.
 * Entries are written one after the other (fflate queues a second open entry until the first ends, which would hold
 * it all in memory): finish each before starting the next.
 */
export class ZipFileWriter {
  private readonly zip: Zip
  private readonly out: WriteStream
  private failure: Error | undefined
  private readonly closed: Promise<void>
  private written = 0

  constructor(file: string) {
    this.out = createWriteStream(file)
    this.closed = new Promise((resolve, reject) => {
      this.out.on('close', resolve)
      this.out.on('error', (err) => {
        this.failure = err
        reject(err)
      })
    })
    // A rejection nobody awaited yet (the error surfaces at the next flush or at close).
    this.closed.catch(() => undefined)
    this.zip = new Zip((err, chunk, final) => {
      if (err) {
        this.failure = err
        return
      }
      this.written += chunk.length
      this.out.write(chunk)
      if (final) this.out.end()
    })
  }

  /** Bytes of zip produced so far. */
  get size(): number {
    return this.written
  }

  /** A compressed text entry written in parts. */
  text(name: string): TextEntry {
    const entry = new ZipDeflate(name, { level: 6 })
    this.zip.add(entry)
    return {
      write: (text) => entry.push(encoder.encode(text)),
      end: (text = '') => entry.push(encoder.encode(text), true),
    }
  }

  /** A stored entry (media are compressed already) copied from a stream, flushed chunk by chunk. */
  async file(name: string, data: Readable): Promise<void> {
    const entry = new ZipPassThrough(name)
    this.zip.add(entry)
    for await (const chunk of data) {
      entry.push(chunk as Uint8Array)
      await this.flush()
    }
    entry.push(new Uint8Array(0), true)
  }

  /** Waits until the file stream has taken what was written (backpressure); throws what went wrong so far. */
  async flush(): Promise<void> {
    if (this.failure) throw this.failure
    if (this.out.writableNeedDrain) await Promise.race([once(this.out, 'drain'), this.closed])
    if (this.failure) throw this.failure
  }

  /** Writes the central directory and closes the file. */
  async end(): Promise<void> {
    this.zip.end()
    await this.closed
    if (this.failure) throw this.failure
  }

  /** Gives up: the file is closed as it is (the caller deletes it). */
  abort(): void {
    this.zip.terminate()
    this.out.destroy()
  }
}

export interface TextEntry {
  write(text: string): void
  end(text?: string): void
}
