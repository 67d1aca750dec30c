// Per-address keys for the sign-in and registration limits (server/lib/rate-limiter.ts counts them).

/**
 * The part of a client address a per-address limit should count. IPv4 addresses count alone; an IPv6 host usually
 * owns a whole /64 (2^64 addresses to rotate through), so IPv6 counts per /64. IPv4-mapped IPv6 is read as IPv4.
 */
export function addressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '').toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (mapped?.[1]) return mapped[1]
  if (!address.includes(':')) return address
  const [head = '', tail] = address.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
