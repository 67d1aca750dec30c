import { UAParser } from 'ua-parser-js'

export const UNKNOWN_BROWSER = 'Unknown browser'
export const UNKNOWN_OS = 'Unknown OS'

// ua-parser-js 1.x still says "Mac OS"; and every Mac browser reports 10.15.7 whatever the system, so no version.
const MAC = 'Mac OS'

/**
 * What a member recognises a session by: browser and operating system with their major versions ("Firefox 133",
 * "Windows 10"), read from the user agent stored at sign-in. Anything the parser cannot name reads as unknown.
 */
export function describeUserAgent(userAgent: string | null): { browser: string; os: string } {
  if (!userAgent) return { browser: UNKNOWN_BROWSER, os: UNKNOWN_OS }
  const parser = new UAParser(userAgent)
  const b = parser.getBrowser()
  const o = parser.getOS()
  const browser = b.name ? [b.name, b.major].filter(Boolean).join(' ') : UNKNOWN_BROWSER
  const os = !o.name ? UNKNOWN_OS : o.name === MAC ? 'macOS' : [o.name, o.version].filter(Boolean).join(' ')
  return { browser, os }
}
