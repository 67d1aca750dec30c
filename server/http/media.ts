import { mkdir } from 'node:fs/promises'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { useMediaPolicy } from './security-headers'

/**
 * Uploaded media under /media/*, straight from DATA_DIR/media. Keys are random and a file under a key never changes
 * (a new avatar is a new key), so responses are cacheable forever. Range requests (video seeking) and conditional
 * requests come from @fastify/static.
 *
 * The route lives in its own plugin with its own not-found handler: a missing file is a plain 404, never the web
 * app's index.html (the SPA fallback would otherwise answer extension-less paths).
 *
 * Every answer here carries the media policy (server/http/security-headers.ts) instead of the app's: a file is never
 * a page of the app.
 *
 * The files are public to whoever has the URL (an <img> cannot send a bearer token); the URLs are unguessable and
 * only reach members allowed to see the post.
 */
export async function serveMedia(app: FastifyInstance, root: string): Promise<void> {
  // A fresh instance has no uploads yet; the folder must exist for the static root (and to warn nobody at start).
  await mkdir(root, { recursive: true })
  await app.register(
    async (media) => {
      useMediaPolicy(media)
      await media.register(fastifyStatic, {
        root,
        prefix: '/',
        decorateReply: false,
        index: false,
        list: false,
        // Partial writes live in a dot directory: as if they did not exist.
        dotfiles: 'ignore',
        etag: true,
        lastModified: false,
        setHeaders: (reply) => {
          reply.header('cache-control', 'public, max-age=31536000, immutable')
          reply.header('x-content-type-options', 'nosniff')
        },
      })
      media.setNotFoundHandler(async (_request, reply) =>
        reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found\n'),
      )
    },
    { prefix: '/media' },
  )
}
