import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

export const defaultDistDir = fileURLToPath(new URL('../../dist', import.meta.url))

export const NOT_BUILT_MESSAGE =
  'The Wren web app is not built yet. Run `npm start` (it builds first) or `npm run build`, then reload.\n'

const isApiPath = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/')

/**
 * The web app next to the API: files from `dist/` (Vite's hashed `assets/` cached for a year, everything else
 * revalidated), every other GET path answered with index.html so client-side routes survive a reload, and unknown
 * `/api/*` paths answered with JSON 404 rather than HTML.
 */
export async function serveWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const built = existsSync(path.join(distDir, 'index.html'))
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      // "/" is a directory to the static plugin: serve the app's entry there too.
      index: 'index.html',
      // The build writes .br and .gz next to each text file (vite.config.ts): sent to browsers that accept them.
      preCompressed: true,
      setHeaders: (reply, file) => {
        const hashed = file.startsWith(path.join(distDir, 'assets') + path.sep)
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
  }

  // Not async, and nothing returned: each await of an unsent reply (an async handler returning it is one) adds its own
  // close listeners to the response, and with @fastify/static's own await of the file stream that passed Node's
  // warning threshold on every page load.
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply): void => {
    const pathname = request.url.split('?')[0] ?? '/'
    if (isApiPath(pathname)) {
      void reply.code(404).send({ error: `No such API endpoint: ${request.method} ${pathname}` })
    } else if (request.method !== 'GET' && request.method !== 'HEAD') {
      void reply.code(404).send({ error: 'Not found' })
    } else if (path.extname(pathname) !== '') {
      // A missing file (an old hashed asset after a deploy) must fail plainly: index.html in its place breaks the page
      // with a confusing MIME error.
      void reply.code(404).type('text/plain; charset=utf-8').send('Not found\n')
    } else if (!built) {
      void reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT_MESSAGE)
    } else {
      void reply.header('cache-control', 'no-cache').sendFile('index.html')
    }
  })
}
