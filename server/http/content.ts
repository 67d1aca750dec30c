import { readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { HttpError } from './errors'
import { serveMedia } from './media'
import { registerUploads, type UploadPolicy } from './uploads'

const MB = 1024 * 1024
const STALE_AFTER_MS = 60 * 60_000

/**
 * Leftovers of a crash: request upload directories and half-written media older than an hour (nothing in flight
 * lives that long, and an hour keeps clear of another process sharing the directory).
 */
async function removeStale(dir: string): Promise<void> {
  let entries: string[]
  try {
    entries = await readdir(dir)
  } catch {
    return
  }
  const cutoff = Date.now() - STALE_AFTER_MS
  for (const entry of entries) {
    const full = path.join(dir, entry)
    const info = await stat(full).catch(() => undefined)
    if (info && info.mtimeMs < cutoff) await rm(full, { recursive: true, force: true }).catch(() => undefined)
  }
}

/**
 * What members' content needs from the HTTP layer: multipart uploads for the operations that declare them (with the
 * MAX_IMAGE_MB / MAX_VIDEO_MB caps), /media/* for the stored files, and the last flush of pending view counts on
 * close. Call after `services` is decorated and before the API routes are registered.
 */
export async function registerContent(app: FastifyInstance, policies: Record<string, UploadPolicy>): Promise<void> {
  const { config } = app.services
  // Next to the media (same disk), inside the one directory the server owns.
  const tmpDir = path.join(config.dataDir, 'tmp', 'uploads')
  const mediaDir = path.join(config.dataDir, 'media')
  const attachmentsDir = path.join(config.dataDir, 'attachments')
  await Promise.all([
    removeStale(tmpDir),
    removeStale(path.join(mediaDir, '.partial')),
    removeStale(path.join(attachmentsDir, '.partial')),
  ])
  // Encrypted attachments arrive as raw bytes and are handed to their handler as the stream itself: it checks who may
  // upload and the declared size before reading a byte, then streams them to storage (never buffered, never parsed).
  // Operations that do not declare this type refuse it first (415, server/http/uploads.ts).
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload))
  // Only an answer is a zip (an export's download); no operation takes one. The contract's router lists every media
  // type of the yaml, answers included, and warns at start about one without a parser: this one refuses a zip body
  // exactly as an unknown type is refused.
  app.addContentTypeParser('application/zip', (_request, _payload, done) => done(new HttpError(415, 'Unsupported Content-Type')))
  await registerUploads(app, policies, {
    maxImageBytes: config.maxImageMb * MB,
    maxVideoBytes: config.maxVideoMb * MB,
    tmpDir,
  })
  await serveMedia(app, mediaDir)
  // In a child context: child onClose hooks run before the root's, which closes the database.
  await app.register(async (child) => {
    child.addHook('onClose', async () => app.services.views.close())
  })
}
