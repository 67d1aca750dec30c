import path from 'node:path'

/**
 * Every environment setting the server reads, parsed and validated once at start.
 *
 * `settings` is the single documented list (name, default, meaning): the README table is written from it, and
 * `parseConfig` refuses the whole environment with one message per bad value instead of failing later at the first
 * use of a typo'd number.
 */

export interface RateLimit {
  /** Attempts allowed inside one window. */
  max: number
  /** Window length in milliseconds. */
  windowMs: number
}

export type LogFormat = 'auto' | 'json' | 'pretty'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

/** Fastify's `trustProxy`: off, on (trust every hop), a hop count, or a list of proxy addresses/CIDRs. */
export type TrustProxy = boolean | number | string[]

interface Setting<T> {
  /** Environment variable name. */
  name: string
  /** Value used when the variable is unset or empty; `undefined` means "no value" (the feature is off). */
  default: string | undefined
  /** What the setting changes, for the README. */
  meaning: string
  /** Turns the raw text into a value; throws an Error whose message completes "NAME ...". */
  parse: (raw: string | undefined) => T
}

function setting<T>(s: Setting<T>): Setting<T> {
  return s
}

function integer(min: number, max: number) {
  return (raw: string | undefined): number => {
    const n = Number(raw)
    if (!/^\d+$/.test(raw ?? '') || n < min || n > max) {
      throw new Error(`must be a whole number from ${min} to ${max} (got "${raw}")`)
    }
    return n
  }
}

function url(protocols: readonly string[]) {
  return (raw: string | undefined): string | undefined => {
    if (raw === undefined) return undefined
    let parsed: URL
    try {
      parsed = new URL(raw)
    } catch {
      // The value is not echoed: a connection URL usually carries a password.
      throw new Error(`must be a URL like ${protocols[0]}//host:port/...`)
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new Error(`must start with ${protocols.join(' or ')}// (got "${parsed.protocol}//")`)
    }
    return raw
  }
}

const durationUnits: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** "20/15m" -> 20 attempts per 15 minutes. Units: s, m, h, d. */
export function parseRateLimit(raw: string | undefined): RateLimit {
  const match = /^(\d+)\s*\/\s*(\d+)\s*([smhd])$/.exec(raw?.trim() ?? '')
  const max = Number(match?.[1])
  const amount = Number(match?.[2])
  const unit = durationUnits[match?.[3] ?? '']
  if (!match || !unit || max < 1 || amount < 1) {
    throw new Error(`must look like "20/15m" (attempts / window with unit s, m, h or d) (got "${raw}")`)
  }
  return { max, windowMs: amount * unit }
}

const logLevels: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

export const settings = {
  port: setting({
    name: 'PORT',
    default: '3000',
    meaning: 'TCP port the HTTP server (API, web app and realtime socket) listens on.',
    parse: integer(0, 65535),
  }),
  host: setting({
    name: 'HOST',
    default: '0.0.0.0',
    meaning: 'Address to listen on; 127.0.0.1 keeps the server private to this machine.',
    parse: (raw) => raw ?? '0.0.0.0',
  }),
  dataDir: setting({
    name: 'DATA_DIR',
    default: './data',
    meaning: 'Directory for everything the server stores on disk (the embedded database under DATA_DIR/db, media).',
    parse: (raw) => path.resolve(raw ?? './data'),
  }),
  databaseUrl: setting({
    name: 'DATABASE_URL',
    default: undefined,
    meaning: 'PostgreSQL connection URL. Unset: an embedded PostgreSQL (PGlite) persisted under DATA_DIR/db.',
    parse: url(['postgres:', 'postgresql:']),
  }),
  redisUrl: setting({
    name: 'REDIS_URL',
    default: undefined,
    meaning: 'Redis URL for the realtime adapter, needed when several server processes share one database. Unset: none.',
    parse: url(['redis:', 'rediss:']),
  }),
  publicUrl: setting({
    name: 'PUBLIC_URL',
    default: undefined,
    meaning:
      'The address members open the app at (https://social.example.org), used in the links mails carry. Unset: ' +
      'http://localhost:PORT.',
    parse: (raw): string | undefined => {
      const value = url(['https:', 'http:'])(raw)
      return value?.replace(/\/+$/, '')
    },
  }),
  instanceName: setting({
    name: 'INSTANCE_NAME',
    default: 'Wren',
    meaning: "The community's name, as mails and the instance pages show it.",
    parse: (raw): string => {
      const value = (raw ?? 'Wren').trim()
      if (value.length > 60) throw new Error(`must be at most 60 characters (got ${value.length})`)
      return value
    },
  }),
  smtpUrl: setting({
    name: 'SMTP_URL',
    default: undefined,
    meaning:
      'Where mail goes out (smtp://user:pass@host:587, smtps://... for TLS from the start). Unset: every mail is ' +
      'written as an .eml file under DATA_DIR/outbox, so an instance works without a mail server.',
    parse: url(['smtp:', 'smtps:']),
  }),
  mailFrom: setting({
    name: 'MAIL_FROM',
    default: undefined,
    meaning: 'The From address of every mail ("Wren <no-reply@social.example.org>"). Unset: INSTANCE_NAME <no-reply@localhost>.',
    parse: (raw): string | undefined => {
      if (raw === undefined) return undefined
      if (!/^[^\r\n]*<?[^@\s<>]+@[^@\s<>]+>?$/.test(raw)) throw new Error(`must be an address like "Wren <no-reply@example.org>" (got "${raw}")`)
      return raw
    },
  }),
  requireVerifiedEmail: setting({
    name: 'REQUIRE_VERIFIED_EMAIL',
    default: 'off',
    meaning:
      'on or off: whether a member must confirm their email address (the link mailed at registration) before they ' +
      'can publish posts and replies. Off: unconfirmed members post and see a quiet reminder.',
    parse: (raw) => {
      if (raw !== 'on' && raw !== 'off') throw new Error(`must be "on" or "off" (got "${raw}")`)
      return raw === 'on'
    },
  }),
  rateLimits: setting({
    name: 'RATE_LIMITS',
    default: 'on',
    meaning: 'on or off: whether every rate limit below applies (sign-in, registration, messages, members\' writes).',
    parse: (raw) => {
      if (raw !== 'on' && raw !== 'off') throw new Error(`must be "on" or "off" (got "${raw}")`)
      return raw === 'on'
    },
  }),
  loginLimitPerIp: setting({
    name: 'LOGIN_LIMIT_PER_IP',
    default: '20/15m',
    meaning: 'Login attempts one IP address may make per window ("attempts/window", units s, m, h, d).',
    parse: parseRateLimit,
  }),
  loginLimitPerAccount: setting({
    name: 'LOGIN_LIMIT_PER_ACCOUNT',
    default: '10/15m',
    meaning:
      'Failed sign-in attempts per account per window, whether it was typed as username or email; wrong current ' +
      'passwords when changing it count in the same budget.',
    parse: parseRateLimit,
  }),
  secondFactorLimitPerAccount: setting({
    name: 'SECOND_FACTOR_LIMIT_PER_ACCOUNT',
    default: '5/15m',
    meaning:
      'Wrong two-factor codes per account per window, at sign-in and in Settings; once reached, the second step ' +
      'of that account is refused until the window ends, even with the right code.',
    parse: parseRateLimit,
  }),
  forgotLimitPerIp: setting({
    name: 'FORGOT_LIMIT_PER_IP',
    default: '10/1h',
    meaning: 'Password reset requests ("Forgot password?") one IP address may make per window.',
    parse: parseRateLimit,
  }),
  forgotLimitPerAccount: setting({
    name: 'FORGOT_LIMIT_PER_ACCOUNT',
    default: '3/1h',
    meaning:
      'Password reset requests per typed username or email per window (so nobody can flood a member with reset ' +
      'mails); names with no account count alike.',
    parse: parseRateLimit,
  }),
  resetLimitPerIp: setting({
    name: 'RESET_LIMIT_PER_IP',
    default: '20/1h',
    meaning: 'Reset-link checks and password resets one IP address may make per window.',
    parse: parseRateLimit,
  }),
  resetLimitPerAccount: setting({
    name: 'RESET_LIMIT_PER_ACCOUNT',
    default: '5/1h',
    meaning: 'Password resets (with a valid link) per account per window.',
    parse: parseRateLimit,
  }),
  registerLimitPerIp: setting({
    name: 'REGISTER_LIMIT_PER_IP',
    default: '10/1h',
    meaning: 'Accounts one IP address may register per window.',
    parse: parseRateLimit,
  }),
  messageLimitPerMember: setting({
    name: 'MESSAGE_LIMIT_PER_MEMBER',
    default: '60/1m',
    meaning:
      'Direct messages one member may send or edit per window: a message a second for a whole minute, beyond anyone ' +
      'typing, while a script is held to 3,600 an hour.',
    parse: parseRateLimit,
  }),
  conversationLimitPerMember: setting({
    name: 'CONVERSATION_LIMIT_PER_MEMBER',
    default: '30/1h',
    meaning: 'New conversations one member may start per window (reopening an existing one does not count).',
    parse: parseRateLimit,
  }),
  postLimitPerMember: setting({
    name: 'POST_LIMIT_PER_MEMBER',
    default: '300/3h',
    meaning:
      "Posts and replies one member may publish per window (Mastodon's default): a post every 36 s for three hours, " +
      'beyond any conversation, while a script cannot flood the feeds.',
    parse: parseRateLimit,
  }),
  mediaLimitPerMember: setting({
    name: 'MEDIA_LIMIT_PER_MEMBER',
    default: '30/30m',
    meaning: "Media files one member may attach to posts per window (Mastodon's default): a full album a few minutes.",
    parse: parseRateLimit,
  }),
  mediaMegabytesPerMember: setting({
    name: 'MEDIA_MB_LIMIT_PER_MEMBER',
    default: '500/1d',
    meaning:
      'Megabytes of post media one member may upload per window: ten videos at the largest size or about a hundred ' +
      'phone photos a day, while one account cannot fill the disk.',
    parse: (raw: string | undefined): RateLimit => {
      const limit = parseRateLimit(raw)
      return { max: limit.max * 1024 * 1024, windowMs: limit.windowMs }
    },
  }),
  followLimitPerMember: setting({
    name: 'FOLLOW_LIMIT_PER_MEMBER',
    default: '400/1d',
    meaning:
      "Follows (and follow requests) one member may make per window (Mastodon's default); unfollowing is not counted.",
    parse: parseRateLimit,
  }),
  reactionLimitPerMember: setting({
    name: 'REACTION_LIMIT_PER_MEMBER',
    default: '300/1h',
    meaning:
      'Likes and reposts, given or taken back, one member may make per window: five a minute for an hour, faster ' +
      'than anyone reads, while a script cannot like its way through the site or flood notifications.',
    parse: parseRateLimit,
  }),
  reportLimitPerMember: setting({
    name: 'REPORT_LIMIT_PER_MEMBER',
    default: '60/1d',
    meaning:
      'Reports one member may file per window: enough to report a whole spam wave, while one account cannot bury ' +
      "the moderators' queue.",
    parse: parseRateLimit,
  }),
  listWriteLimitPerMember: setting({
    name: 'LIST_WRITE_LIMIT_PER_MEMBER',
    default: '300/1h',
    meaning:
      'Changes one member may make per window to lists (create, rename, delete, members, subscriptions), bookmarks ' +
      'and bookmark collections: room to sort a whole timeline in one sitting, while a script cannot fill the tables.',
    parse: parseRateLimit,
  }),
  hashConcurrency: setting({
    name: 'HASH_CONCURRENCY',
    default: '2',
    meaning: 'Password hashes (argon2id, ~19 MiB and ~80 ms each) computed at once; more wait their turn.',
    parse: integer(1, 64),
  }),
  trustProxy: setting({
    name: 'TRUST_PROXY',
    default: 'off',
    meaning:
      'Behind a reverse proxy, whose X-Forwarded-For (client IPs, for rate limits) and X-Forwarded-Proto (https ' +
      'answers carry HSTS) to believe: off, on, a hop count, or comma-separated proxy addresses/CIDRs.',
    parse: (raw): TrustProxy => {
      const value = raw ?? 'off'
      if (value === 'off') return false
      if (value === 'on') return true
      if (/^\d+$/.test(value)) return Number(value)
      const list = value.split(',').map((s) => s.trim()).filter(Boolean)
      if (list.length === 0) throw new Error(`must be off, on, a number or a list of addresses (got "${raw}")`)
      return list
    },
  }),
  maxImageMb: setting({
    name: 'MAX_IMAGE_MB',
    default: '10',
    meaning: 'Largest image a member may upload (post media, avatar, banner), in megabytes; larger is refused with 413.',
    parse: integer(1, 100),
  }),
  maxVideoMb: setting({
    name: 'MAX_VIDEO_MB',
    default: '50',
    meaning:
      'Largest video a member may attach to a post, in megabytes (videos are remuxed without their metadata, ' +
      'not transcoded).',
    parse: integer(1, 1000),
  }),
  ffmpegPath: setting({
    name: 'FFMPEG_PATH',
    default: undefined,
    meaning:
      'The ffmpeg that strips uploaded videos of their metadata; unset, the one npm installs ' +
      '(@ffmpeg-installer/ffmpeg). Set it where that package has no build for the platform.',
    parse: (raw): string | undefined => raw,
  }),
  pgBinDir: setting({
    name: 'PG_BIN_DIR',
    default: undefined,
    meaning:
      'Folder holding pg_dump and pg_restore, which npm run backup and restore use on PostgreSQL (e.g. ' +
      '/usr/lib/postgresql/16/bin when several versions are installed). Unset: found on the PATH.',
    parse: (raw): string | undefined => (raw === undefined ? undefined : path.resolve(raw)),
  }),
  drainDelayMs: setting({
    name: 'DRAIN_DELAY_MS',
    default: '0',
    meaning:
      'On SIGTERM, how long the server keeps answering (every answer with Connection: close, /api/ready 503) before it ' +
      'stops listening, in milliseconds: set it above the load balancer\'s check interval so the balancer stops ' +
      'sending first. Requests still running then are waited for up to 10 s more.',
    parse: integer(0, 60_000),
  }),
  logFormat: setting({
    name: 'LOG_FORMAT',
    default: 'auto',
    meaning:
      'auto, json or pretty: pretty prints one readable, coloured line per request and per event; json one JSON ' +
      'object per line (for log collectors). auto: pretty when standard output is a terminal, else json.',
    parse: (raw): LogFormat => {
      const value = raw ?? 'auto'
      if (value !== 'auto' && value !== 'json' && value !== 'pretty') {
        throw new Error(`must be "auto", "json" or "pretty" (got "${raw}")`)
      }
      return value
    },
  }),
  slowRequestMs: setting({
    name: 'SLOW_REQUEST_MS',
    default: '500',
    meaning:
      'A request that takes longer than this many milliseconds is logged at warn (route, method, status, duration); ' +
      '0 turns the warning off.',
    parse: integer(0, 3_600_000),
  }),
  metrics: setting({
    name: 'METRICS',
    default: 'off',
    meaning:
      'on or off: whether GET /metrics serves Prometheus metrics on the app\'s own port, to loopback addresses only ' +
      '(127.0.0.0/8, ::1, by the connection\'s own address; a proxy in front cannot expose it). Others get 404.',
    parse: (raw) => {
      if (raw !== 'on' && raw !== 'off') throw new Error(`must be "on" or "off" (got "${raw}")`)
      return raw === 'on'
    },
  }),
  logLevel: setting({
    name: 'LOG_LEVEL',
    default: 'info',
    meaning: `Log verbosity: ${logLevels.join(', ')}.`,
    parse: (raw): LogLevel => {
      const level = logLevels.find((l) => l === raw)
      if (!level) throw new Error(`must be one of ${logLevels.join(', ')} (got "${raw}")`)
      return level
    },
  }),
}

type Settings = typeof settings
export type Config = { [K in keyof Settings]: ReturnType<Settings[K]['parse']> }

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Parses every setting, collecting all problems before failing so one restart fixes them all. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = []
  const entries = Object.entries(settings).map(([key, s]: [string, Setting<unknown>]) => {
    const given = env[s.name]?.trim()
    const raw = given === undefined || given === '' ? s.default : given
    try {
      return [key, s.parse(raw)] as const
    } catch (err) {
      problems.push(`${s.name} ${err instanceof Error ? err.message : String(err)}`)
      return [key, undefined] as const
    }
  })
  if (problems.length > 0) throw new ConfigError(problems)
  return Object.fromEntries(entries) as Config
}

/** For entry points: parse `process.env`, or print what is wrong and exit. */
export function loadConfig(): Config {
  try {
    return parseConfig(process.env)
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    console.error(err.message)
    process.exit(1)
  }
}
