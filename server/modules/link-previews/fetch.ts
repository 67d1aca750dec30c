import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent'

/**
 * Fetching what members link to, from the server, without letting a link reach inside the network the server sits in
 * (SSRF; docs/security.md, "Link previews"). Every rule here holds for every hop:
 * - http and https only;
 * - the address is checked after DNS resolution, at connect time, by request-filtering-agent's agents: loopback,
 *   private, link-local (169.254.169.254, the cloud metadata service), unique-local, mapped and reserved addresses are
 *   refused, so a public name that resolves (or rebinds) to one is refused too;
 * - redirects are followed by hand, at most `maxRedirects`, each new URL going through the same checks;
 * - one deadline for the whole fetch, redirects and body included;
 * - the body is read up to a byte cap and the connection dropped past it;
 * - only the content types asked for are read at all.
 */

export type RefusalReason =
  | 'scheme'
  | 'address'
  | 'redirects'
  | 'timeout'
  | 'too-large'
  | 'content-type'
  | 'status'
  | 'encoding'
  | 'network'

/** A fetch the rules stopped (or that failed): the preview is not made. */
export class FetchRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message)
    this.name = 'FetchRefused'
  }
}

export interface FetchPolicy {
  /** Redirects followed at most (a fourth is refused). */
  maxRedirects: number
  /** One deadline for everything, in milliseconds. */
  timeoutMs: number
  /**
   * Tests only (never from the environment): URLs whose hop may connect to a loopback address, for the local servers
   * tests serve pages from. Other private ranges stay refused even for them.
   */
  allowLoopbackFor?: (url: URL) => boolean
  /** Tests only: DNS answers to use instead of the resolver's (a name that resolves to a private address). */
  lookup?: LookupFunction
}

export const DEFAULT_FETCH_POLICY: FetchPolicy = { maxRedirects: 3, timeoutMs: 5_000 }

const USER_AGENT = 'WrenLinkPreview/1.0 (+link previews of a Wren instance)'

// No keep-alive: a connection is made for one request, after the address check of that request.
const strictAgents = { http: new RequestFilteringHttpAgent(), https: new RequestFilteringHttpsAgent() }
const LOOPBACK = ['127.0.0.0/8', '::1/128']
const loopbackAgents = {
  http: new RequestFilteringHttpAgent({ allowIPAddressList: LOOPBACK }),
  https: new RequestFilteringHttpsAgent({ allowIPAddressList: LOOPBACK }),
}

export interface FetchRequest {
  url: string
  /** Lowercased media types the caller reads (`text/html`); any other is refused before the body is read. */
  accept: readonly string[]
  /** Bytes read at most: past this the connection is dropped. */
  maxBytes: number
  /** Whether reaching `maxBytes` refuses (true) or just ends the reading (the caller has what it needs). */
  refuseOverCap?: boolean
}

export interface FetchedBody {
  /** The URL after redirects. */
  url: string
  /** The media type, lowercased, without parameters. */
  mediaType: string
  /** The `charset` parameter, if any. */
  charset: string | null
  /**
   * The body in chunks, at most `maxBytes` in all. `onChunk` answers true to stop reading early (the rest is never
   * downloaded).
   */
  read: (onChunk: (chunk: Buffer) => boolean | void) => Promise<{ bytes: number; capped: boolean }>
}

const isRedirect = (status: number) => status === 301 || status === 302 || status === 303 || status === 307 || status === 308

function checkScheme(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchRefused('scheme', `Only http and https links are fetched (got ${url.protocol})`)
  }
  if (url.username || url.password) throw new FetchRefused('scheme', 'Links with credentials are not fetched')
}

function parseUrl(raw: string, base?: URL): URL {
  try {
    return new URL(raw, base)
  } catch {
    throw new FetchRefused('scheme', 'Not a URL')
  }
}

/** Whether an error came from the address filter (the agents' messages say "is not allowed"). */
function isAddressRefusal(err: unknown): boolean {
  return err instanceof Error && /is not allowed/.test(err.message)
}

/**
 * Fetches one resource by the rules above: the body is not read until `read` is called, and must be (or the
 * connection is dropped by `abort`); the deadline keeps running meanwhile.
 */
export async function safeFetch(
  request: FetchRequest,
  policy: FetchPolicy = DEFAULT_FETCH_POLICY,
): Promise<FetchedBody & { abort: () => void }> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), policy.timeoutMs)
  timer.unref()
  const finish = () => clearTimeout(timer)
  const timeoutError = () => new FetchRefused('timeout', `No answer within ${policy.timeoutMs} ms`)
  try {
    let url = parseUrl(request.url)
    for (let hop = 0; ; hop++) {
      checkScheme(url)
      const response = await get(url, controller.signal, policy).catch((err: unknown) => {
        if (controller.signal.aborted) throw timeoutError()
        throw err
      })
      const status = response.statusCode ?? 0
      if (isRedirect(status)) {
        response.destroy()
        const location = response.headers.location
        if (!location) throw new FetchRefused('status', `Redirect ${status} without a Location`)
        if (hop >= policy.maxRedirects) throw new FetchRefused('redirects', `More than ${policy.maxRedirects} redirects`)
        url = parseUrl(location, url)
        continue
      }
      if (status < 200 || status > 299) {
        response.destroy()
        throw new FetchRefused('status', `Answered ${status}`)
      }
      const [mediaType = '', ...parameters] = (response.headers['content-type'] ?? '').split(';')
      const type = mediaType.trim().toLowerCase()
      if (!request.accept.includes(type)) {
        response.destroy()
        throw new FetchRefused('content-type', `Content type "${type || 'none'}" is not one asked for`)
      }
      const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
      if (encoding !== 'identity') {
        response.destroy()
        throw new FetchRefused('encoding', `Content encoding "${encoding}" was not asked for`)
      }
      const declared = Number(response.headers['content-length'])
      if (request.refuseOverCap && Number.isFinite(declared) && declared > request.maxBytes) {
        response.destroy()
        throw new FetchRefused('too-large', `Declares ${declared} bytes, over ${request.maxBytes}`)
      }
      const charset = parameters.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find(Boolean) ?? null
      const finalUrl = url.toString()
      return {
        url: finalUrl,
        mediaType: type,
        charset: charset?.toLowerCase() ?? null,
        abort: () => {
          response.destroy()
          finish()
        },
        read: async (onChunk) => {
          let bytes = 0
          try {
            for await (const chunk of response as AsyncIterable<Buffer>) {
              const room = request.maxBytes - bytes
              if (chunk.length > room) {
                if (request.refuseOverCap) throw new FetchRefused('too-large', `Body over ${request.maxBytes} bytes`)
                if (room > 0) onChunk(chunk.subarray(0, room))
                return { bytes: request.maxBytes, capped: true }
              }
              bytes += chunk.length
              if (onChunk(chunk) === true) return { bytes, capped: false }
            }
            return { bytes, capped: false }
          } catch (err) {
            if (controller.signal.aborted) throw timeoutError()
            throw err instanceof FetchRefused ? err : new FetchRefused('network', 'The body could not be read')
          } finally {
            response.destroy()
            finish()
          }
        },
      }
    }
  } catch (err) {
    finish()
    if (err instanceof FetchRefused) throw err
    if (controller.signal.aborted) throw timeoutError()
    if (isAddressRefusal(err)) throw new FetchRefused('address', 'The link leads to an address that is not public')
    throw new FetchRefused('network', err instanceof Error ? err.message : 'The page could not be reached')
  }
}

function get(url: URL, signal: AbortSignal, policy: FetchPolicy): Promise<http.IncomingMessage> {
  const secure = url.protocol === 'https:'
  const agents = policy.allowLoopbackFor?.(url) ? loopbackAgents : strictAgents
  const agent = secure ? agents.https : agents.http
  const options: http.RequestOptions = {
    method: 'GET',
    agent,
    signal,
    headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml,image/*;q=0.8', 'accept-encoding': 'identity' },
    ...(policy.lookup ? { lookup: policy.lookup } : {}),
  }
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(url, options, resolve)
    req.on('error', reject)
    req.end()
  })
}
