import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ConfigError, parseConfig, settings } from '../../server/config'
import { uuidv7 } from '../../server/db/ids'
import { DatabaseInUseError, lockDataDir } from '../../server/db/pglite-lock'
import { addressKey } from '../../server/http/rate-limit'
import { TooMany } from '../../server/lib/domain-errors'
import { RateLimiter, waitText } from '../../server/lib/rate-limiter'
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

describe('RateLimiter (memory)', () => {
  const limit = { max: 3, windowMs: 60_000 }
  const charge = (key: string, points = 1) => ({ key, limit, what: 'tries', points })

  async function refusal(taking: Promise<unknown>): Promise<TooMany | undefined> {
    try {
      await taking
      return undefined
    } catch (err) {
      expect(err).toBeInstanceOf(TooMany)
      return err as TooMany
    }
  }

  afterEach(() => {
    vi.useRealTimers()
  })

  it('allows max points per window, then says how long to wait in words and in seconds', async () => {
    vi.useFakeTimers()
    const rl = new RateLimiter({ enabled: true })
    await rl.take(charge('k'))
    vi.advanceTimersByTime(20_000)
    await rl.take(charge('k'), charge('k'))
    const refused = await refusal(rl.take(charge('k')))
    expect(refused?.retryAfterSeconds).toBe(40)
    expect(refused?.message).toBe('Too many tries. Try again in 40 seconds.')
    vi.advanceTimersByTime(40_000)
    expect(await refusal(rl.take(charge('k')))).toBeUndefined()
    await rl.close()
  })

  it('counts a refused take as nothing, all its charges together', async () => {
    const rl = new RateLimiter({ enabled: true })
    await rl.take(charge('a', 2))
    // b fits, a does not: neither is counted.
    expect(await refusal(rl.take(charge('b', 3), charge('a', 2)))).toBeDefined()
    expect(await refusal(rl.take(charge('b', 3)))).toBeUndefined()
    expect(await refusal(rl.take(charge('a')))).toBeUndefined()
    await rl.close()
  })

  it('keeps keys apart and refunds', async () => {
    const rl = new RateLimiter({ enabled: true })
    const taken = await rl.take(charge('a', 3))
    expect(await refusal(rl.take(charge('b')))).toBeUndefined()
    expect(await refusal(rl.take(charge('a')))).toBeDefined()
    await taken.refund()
    await rl.take(charge('a', 3))
    await rl.close()
  })

  it('does nothing when disabled', async () => {
    const rl = new RateLimiter({ enabled: false })
    for (let i = 0; i < 10; i += 1) await rl.take(charge('k'))
    await rl.close()
  })
})

describe('waitText', () => {
  it.each([
    [1, '1 second'],
    [119, '119 seconds'],
    [120, '2 minutes'],
    [721, '13 minutes'],
    [7199, '120 minutes'],
    [7200, '2 hours'],
    [3 * 3600 - 1, '3 hours'],
    [48 * 3600, '2 days'],
  ])('%s s reads "%s"', (seconds, text) => {
    expect(waitText(seconds)).toBe(text)
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
