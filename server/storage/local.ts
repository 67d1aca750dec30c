import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { assertValidKey, isValidKey, type Storage } from './storage'

/** URL prefix the files are served under (server/http/media.ts). */
export const MEDIA_URL_PREFIX = '/media/'

// Same file system as the files (rename is atomic) but a dot directory, which the media route never serves.
const PARTIAL_DIR = '.partial'

/**
 * Files under `root` (DATA_DIR/media). Writes go to a temporary name first and are renamed into place, so a reader
 * (or a crash) never sees half a file under a real key.
 */
export class LocalDiskStorage implements Storage {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    assertValidKey(key)
    return path.join(this.root, ...key.split('/'))
  }

  async put(key: string, data: Buffer | Readable, _contentType: string): Promise<void> {
    const target = this.pathOf(key)
    const partialDir = path.join(this.root, PARTIAL_DIR)
    await Promise.all([mkdir(path.dirname(target), { recursive: true }), mkdir(partialDir, { recursive: true })])
    const partial = path.join(partialDir, randomBytes(12).toString('hex'))
    try {
      if (Buffer.isBuffer(data)) await writeFile(partial, data, { flag: 'wx' })
      else await pipeline(data, createWriteStream(partial, { flags: 'wx' }))
      await rename(partial, target)
    } catch (err) {
      await rm(partial, { force: true })
      throw err
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true })
  }

  url(key: string): string {
    assertValidKey(key)
    return `${MEDIA_URL_PREFIX}${key}`
  }

  keyOf(url: string | null | undefined): string | undefined {
    if (!url?.startsWith(MEDIA_URL_PREFIX)) return undefined
    const key = url.slice(MEDIA_URL_PREFIX.length)
    return isValidKey(key) ? key : undefined
  }

  async open(key: string): Promise<Readable | undefined> {
    try {
      // Opened before answering, so a file deleted meanwhile is a 404, not a stream failing after the headers.
      const handle = await open(this.pathOf(key), 'r')
      return handle.createReadStream()
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ENOENT') return undefined
      throw err
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile()
    } catch {
      return false
    }
  }
}
