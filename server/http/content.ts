import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { serveMedia } from './media'
import { registerUploads, type UploadPolicy } from './uploads'

const MB = 1024 * 1024

/**
 * What members' content needs from the HTTP layer: multipart uploads for the operations that declare them (with the
 * MAX_IMAGE_MB / MAX_VIDEO_MB caps), /media/* for the stored files, and the last flush of pending view counts on
 * close. Call after `services` is decorated and before the API routes are registered.
 */
export async function registerContent(app: FastifyInstance, policies: Record<string, UploadPolicy>): Promise<void> {
  const { config } = app.services
  await registerUploads(app, policies, {
    maxImageBytes: config.maxImageMb * MB,
    maxVideoBytes: config.maxVideoMb * MB,
    // Next to the media (same disk), inside the one directory the server owns.
    tmpDir: path.join(config.dataDir, 'tmp', 'uploads'),
  })
  await serveMedia(app, path.join(config.dataDir, 'media'))
  // In a child context: child onClose hooks run before the root's, which closes the database.
  await app.register(async (child) => {
    child.addHook('onClose', async () => app.services.views.close())
  })
}
