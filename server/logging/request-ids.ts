import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { BlockList, isIP } from 'node:net'
import type { TrustProxy } from '../config'

export const REQUEST_ID_HEADER = 'x-request-id'

/** Visible ASCII, 1 to 128 characters: what a proxy's id looks like, and nothing that could forge a log line. */
const SANE_ID = /^[\x21-\x7e]{1,128}$/

/** proxy-addr's names for address ranges, which TRUST_PROXY takes as Fastify does. */
const namedRanges: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  linklocal: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  uniquelocal: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
}

/** The peers whose X-Request-Id to believe: those TRUST_PROXY trusts, checked on the connection's own address. */
function trustedPeers(trustProxy: TrustProxy): ((address: string) => boolean) | undefined {
  if (trustProxy === false || trustProxy === 0) return undefined
  if (!Array.isArray(trustProxy)) return () => true
  const list = new BlockList()
  for (const entry of trustProxy) {
    const named = namedRanges[entry]
    if (named) {
      for (const [net, prefix, family] of named) list.addSubnet(net, prefix, family)
      continue
    }
    const [address = '', prefix] = entry.split('/')
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (isIP(address) === 0) continue
    if (prefix === undefined) list.addAddress(address, family)
    else list.addSubnet(address, Number(prefix), family)
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
    if (mapped) return list.check(mapped, 'ipv4')
    const family = isIP(address)
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4')
  }
}

/**
 * Fastify's `genReqId`: the proxy's X-Request-Id when a trusted proxy sent a sane one (so one id follows the
 * request from the proxy's log into ours), else a new random UUID.
 */
export function requestIds(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  const trusted = trustedPeers(trustProxy)
  return (request) => {
    if (trusted) {
      const given = request.headers[REQUEST_ID_HEADER]
      if (typeof given === 'string' && SANE_ID.test(given) && trusted(request.socket.remoteAddress ?? '')) return given
    }
    return randomUUID()
  }
}
