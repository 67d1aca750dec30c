import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfig, settings } from '../../server/config'
import { uuidv7 } from '../../server/db/ids'
import { DatabaseInUseError, lockDataDir } from '../../server/db/pglite-lock'
import { HttpError } from '../../server/http/errors'
import { addressKey, RateLimiter } from '../../server/http/rate-limit'
import { describe as describeError } from '../../server/http/validation-messages'
import { Semaphore } from '../../server/lib/semaphore'

describe('config', () => {
  it('has documented defaults', () => {
    const config = parseConfig({})
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      rateLimits: true,
      loginLimitPerIp: { max: 20, windowMs: 15 * 60_000 },
      loginLimitPerAccount: { max: 10, windowMs: 15 * 60_000 },
      registerLimitPerIp: { max: 10, windowMs: 60 * 60_000 },
      hashConcurrency: 2,
      trustProxy: false,
      logLevel: 'info',
    })
    for (const s of Object.values(settings)) {
      expect(s.name).toMatch(/^[A-Z_]+$/)
      expect(s.meaning.length).toBeGreaterThan(10)
    }
  })

  it('reads the environment', () => {
    const config = parseConfig({
      PORT: '3100',
      DATA_DIR: '/tmp/wren',
      DATABASE_URL: 'postgres://u@db:5432/wren',
      REDIS_URL: 'redis://cache:6379',
      RATE_LIMITS: 'off',
      LOGIN_LIMIT_PER_IP: '5/30s',
      HASH_CONCURRENCY: '4',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      LOG_LEVEL: 'warn',
    })
    expect(config).toMatchObject({
      port: 3100,
      dataDir: '/tmp/wren',
      databaseUrl: 'postgres://u@db:5432/wren',
      redisUrl: 'redis://cache:6379',
      rateLimits: false,
      loginLimitPerIp: { max: 5, windowMs: 30_000 },
      hashConcurrency: 4,
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      logLevel: 'warn',
    })
  })

  it('reports every bad value at once, without echoing secrets', () => {
    let error: unknown
    try {
      parseConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://root:hunter2@db/wren',
        RATE_LIMITS: 'yes',
        LOGIN_LIMIT_PER_IP: '20 per 15 minutes',
        HASH_CONCURRENCY: '0',
        LOG_LEVEL: 'loud',
      })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    const problems = (error as ConfigError).problems
    expect(problems.map((p) => p.split(' ')[0])).toEqual([
      'PORT',
      'DATABASE_URL',
      'RATE_LIMITS',
      'LOGIN_LIMIT_PER_IP',
      'HASH_CONCURRENCY',
      'LOG_LEVEL',
    ])
    expect((error as ConfigError).message).not.toContain('hunter2')
  })
})

describe('RateLimiter', () => {
  const limit = { max: 3, windowMs: 60_000 }
  const message = (s: number) => `wait ${s}`

  function limiter() {
    let now = 1_000_000
    const rl = new RateLimiter(true, () => now)
    return { rl, advance: (ms: number) => (now += ms) }
  }

  function retryAfter(fn: () => void): number | undefined {
    try {
      fn()
      return undefined
    } catch (err) {
      expect(err).toBeInstanceOf(HttpError)
      expect((err as HttpError).statusCode).toBe(429)
      return Number((err as HttpError).headers['retry-after'])
    }
  }

  it('allows max attempts per sliding window, then says how long to wait', () => {
    const { rl, advance } = limiter()
    rl.hit('k', limit, message)
    advance(20_000)
    rl.hit('k', limit, message)
    rl.hit('k', limit, message)
    expect(retryAfter(() => rl.hit('k', limit, message))).toBe(40)
    advance(39_000)
    expect(retryAfter(() => rl.hit('k', limit, message))).toBe(1)
    advance(1_000) // the first attempt leaves the window; the next two are still in it
    expect(retryAfter(() => rl.hit('k', limit, message))).toBeUndefined()
    expect(retryAfter(() => rl.hit('k', limit, message))).toBe(20)
    rl.close()
  })

  it('keeps keys apart, refunds, and forgets idle keys', () => {
    const { rl, advance } = limiter()
    for (let i = 0; i < 3; i += 1) rl.hit('a', limit, message)
    expect(retryAfter(() => rl.hit('b', limit, message))).toBeUndefined()
    rl.refund('a')
    expect(retryAfter(() => rl.hit('a', limit, message))).toBeUndefined()
    advance(61_000)
    rl.sweep()
    for (let i = 0; i < 3; i += 1) rl.hit('a', limit, message)
    rl.close()
  })

  it('does nothing when disabled', () => {
    const rl = new RateLimiter(false)
    for (let i = 0; i < 10; i += 1) rl.hit('k', limit, message)
    rl.close()
  })
})

describe('addressKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:0:0:1:2:3:4', '2001:db8:0:0::/64'],
    ['2001:DB8::1', '2001:db8:0:0::/64'],
    ['2001:db8:aa:bb::ff', '2001:db8:aa:bb::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key)
  })
})

describe('uuidv7', () => {
  it('has version 7, the RFC variant and the time in its first 48 bits', () => {
    const now = Date.now()
    const id = uuidv7(now)
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBeGreaterThanOrEqual(now)
  })

  it('sorts in creation order, also within one millisecond', () => {
    const now = Date.now() + 10_000
    const ids = Array.from({ length: 5_000 }, () => uuidv7(now))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })
})

describe('Semaphore', () => {
  it('never runs more than its limit at once and runs everything', async () => {
    const gate = new Semaphore(2)
    let running = 0
    let peak = 0
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        gate.run(async () => {
          running += 1
          peak = Math.max(peak, running)
          await new Promise((r) => setTimeout(r, 5))
          running -= 1
          return i
        }),
      ),
    )
    expect(peak).toBe(2)
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('frees the slot when a task fails', async () => {
    const gate = new Semaphore(1)
    await expect(gate.run(() => Promise.reject(new Error('x')))).rejects.toThrow('x')
    await expect(gate.run(async () => 'ok')).resolves.toBe('ok')
  })
})

describe('the PGlite data directory lock', () => {
  it('refuses a second opener while the owner lives and takes over a dead one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wren-lock-'))
    const lockFile = path.join(dir, 'db.lock')
    try {
      // A live process that is not us: our parent (vitest's main process).
      await writeFile(lockFile, String(process.ppid))
      expect(() => lockDataDir(lockFile, dir)).toThrow(DatabaseInUseError)
      // A pid that cannot exist: a crashed owner.
      await writeFile(lockFile, '2147483646')
      const release = lockDataDir(lockFile, dir)
      expect(() => lockDataDir(lockFile, dir)).not.toThrow(DatabaseInUseError) // our own pid is never "another"
      release()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('validation messages', () => {
  const error = (keyword: string, instancePath: string, params: Record<string, unknown>) =>
    describeError({ keyword, instancePath, schemaPath: '', params }, 'body')

  it.each([
    [error('enum', '/visibility', { allowedValues: ['public', 'followers'] }), 'visibility must be one of: public, followers'],
    [error('maxItems', '/media', { limit: 4 }), 'media must have at most 4 items'],
    [error('type', '/avatar', { type: 'string,null' }), 'avatar must be text or null'],
    [error('type', '', { type: 'object' }), 'Request body must be an object'],
    [error('maximum', '/limit', { limit: 100 }), 'limit must be at most 100'],
    [error('required', '/settings', { missingProperty: 'allowDMs' }), 'settings.allowDMs is required'],
    [error('additionalProperties', '/media/0', { additionalProperty: 'x' }), 'Unknown field: media[0].x'],
    [error('pattern', '/keyword', { pattern: '\\S' }), 'keyword must not be blank'],
    [error('pattern', '/code', { pattern: '^[0-9]{6}$' }), 'code has an invalid format'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected)
  })
})
