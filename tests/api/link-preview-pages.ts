import http from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'

/**
 * A local web server of pages to preview, each path one case: a good page, redirects, slow, huge and hostile
 * answers. Counts the requests each path got and how many bytes it managed to send before the reader hung up.
 */
export interface PageServer {
  port: number
  origin: string
  hits: (path: string) => number
  /** Bytes written of a streamed answer before the connection closed. */
  sent: (path: string) => number
  close: () => Promise<void>
}

const CHUNK = Buffer.alloc(64 * 1024, 'a')

export const HOSTILE_TITLE = '<img src=x onerror="alert(1)">\u202e Title'

export async function startPageServer(): Promise<PageServer> {
  const png = await sharp({ create: { width: 1200, height: 630, channels: 3, background: { r: 40, g: 110, b: 200 } } }).png().toBuffer()
  const hits = new Map<string, number>()
  const sent = new Map<string, number>()
  let origin = ''

  const html = (res: http.ServerResponse, body: string, type = 'text/html; charset=utf-8') => {
    res.writeHead(200, { 'content-type': type })
    res.end(body)
  }
  const redirect = (res: http.ServerResponse, location: string) => {
    res.writeHead(302, { location })
    res.end()
  }
  /** Writes `head`, then `total` bytes of filler, waiting for the reader each chunk, until the reader hangs up. */
  const stream = (path: string, res: http.ServerResponse, head: string, total: number, type = 'text/html') => {
    res.writeHead(200, { 'content-type': type })
    let written = 0
    res.on('close', () => sent.set(path, written))
    const pump = () => {
      while (written < total && !res.destroyed) {
        written += CHUNK.length
        if (!res.write(CHUNK)) return void res.once('drain', pump)
      }
      res.end()
    }
    written += Buffer.byteLength(head)
    res.write(head)
    pump()
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin)
    const path = url.pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const redirects = /^\/redirect\/(\d+)$/.exec(path)
    if (redirects) {
      const left = Number(redirects[1])
      return redirect(res, left === 0 ? '/article' : `/redirect/${left - 1}`)
    }
    switch (path) {
      case '/article':
      case '/article-again':
        return html(
          res,
          `<!doctype html><html><head><title>Plain title</title>
          <meta property="og:title" content="${HOSTILE_TITLE.replace(/"/g, '&quot;')}  ${'long '.repeat(60)}">
          <meta property="og:description" content="A page about &amp; birds. ${'More words. '.repeat(40)}">
          <meta property="og:image" content="/image.png">
          <meta property="og:site_name" content="Bird News">
          </head><body><h1>Birds</h1></body></html>`,
        )
      case '/fallback':
        return html(
          res,
          `<html><head><TITLE>  Only a\n title </TITLE><meta name="Description" content="Said plainly."></head><body></body></html>`,
          'application/xhtml+xml',
        )
      case '/no-title':
        return html(res, '<html><head><meta name="description" content="x"></head><body>hi</body></html>')
      case '/image.png':
        res.writeHead(200, { 'content-type': 'image/png' })
        return res.end(png)
      case '/html-as-image.png':
        res.writeHead(200, { 'content-type': 'image/png' })
        return res.end('<html><script>alert(1)</script></html>')
      case '/big-image.png':
        return stream(path, res, '', 8 * 1024 * 1024, 'image/png')
      case '/loop':
        return redirect(res, '/loop')
      case '/to-metadata':
        return redirect(res, 'http://169.254.169.254/latest/meta-data/')
      case '/to-ten':
        return redirect(res, `http://ten.test:${url.port}/article`)
      case '/to-localhost':
        return redirect(res, `http://localhost:${url.port}/article`)
      case '/to-file':
        return redirect(res, 'file:///etc/passwd')
      case '/slow':
        // Never answers within a test's deadline; the timer goes with the connection.
        return void setTimeout(() => html(res, '<title>late</title>'), 10_000).unref()
      case '/huge-head':
        // The head never ends within the first megabyte.
        return stream(path, res, '<html><head><title>Huge</title><script>', 32 * 1024 * 1024)
      case '/long-body':
        // A short head, then a long page: reading stops at the head's end.
        return stream(path, res, '<html><head><title>Long page</title></head><body>', 32 * 1024 * 1024)
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end('{"title":"not html"}')
      case '/plain':
        res.writeHead(200, { 'content-type': 'text/plain' })
        return res.end('<title>not html</title>')
      default:
        res.writeHead(404, { 'content-type': 'text/html' })
        return res.end('<title>Not found</title>')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  origin = `http://127.0.0.1:${port}`
  return {
    port,
    origin,
    hits: (path) => hits.get(path) ?? 0,
    sent: (path) => sent.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
