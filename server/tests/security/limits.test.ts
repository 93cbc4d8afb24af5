import { describe, it, expect, afterEach, vi } from 'vitest';
import { MEMORY_MAX_KEYS, closeSharedRedis, createLimiter } from '../../src/security/limits';
import {
  BASE_LOCK_SEC,
  MAX_LOCK_SEC,
  accountSubject,
  clearThrottle,
  lockedFor,
  lockedMessage,
  recordFailure,
  recordSuccess,
  countedGuess,
  unknownIdentifierKeys,
  unknownSubject,
} from '../../src/security/login-throttle';
import { createAuthRateLimit } from '../../src/security/auth-rate-limit';
import { productionProblems, secretProblem } from '../../src/security/production-safety';
import { testRedisDb } from '../helpers/instances';
import { portAnswers } from '../helpers/ports';

/** Units of the shared limits (no Strapi boot): backoff, per-address keys, Redis sharing, failing open. */

const REDIS_URL = `redis://127.0.0.1:6379/${await testRedisDb()}`;

const hasRedis = await portAnswers('127.0.0.1', 6379, 500);

afterEach(async () => {
  vi.useRealTimers();
  delete process.env.REDIS_URL;
  await closeSharedRedis();
});

describe('per-account log-in throttling (in memory)', () => {
  it('locks after 10 failures, doubles the lock each time up to an hour, and a reset lifts it', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const account = accountSubject('member', 'user-1');
    const fail10 = async () => {
      let locked = 0;
      for (let i = 0; i < 10; i += 1) locked = await recordFailure(account);
      return locked;
    };

    for (let i = 0; i < 9; i += 1) expect(await recordFailure(account)).toBe(0);
    expect(await lockedFor(account)).toBe(0);
    expect(await recordFailure(account)).toBe(BASE_LOCK_SEC);
    expect(await lockedFor(account)).toBe(BASE_LOCK_SEC);
    expect(lockedMessage(await lockedFor(account))).toBe(
      'Too many failed log-in attempts. Try again in 15 minutes or reset your password.',
    );

    const lengths: number[] = [BASE_LOCK_SEC];
    for (let round = 0; round < 3; round += 1) {
      vi.advanceTimersByTime(lengths[lengths.length - 1] * 1000 + 1000);
      expect(await lockedFor(account)).toBe(0);
      lengths.push(await fail10());
    }
    expect(lengths).toEqual([15 * 60, 30 * 60, MAX_LOCK_SEC, MAX_LOCK_SEC]);

    await clearThrottle(account);
    expect(await lockedFor(account)).toBe(0);
    // After a reset the count starts over at the first, shortest lock.
    expect(await fail10()).toBe(BASE_LOCK_SEC);
  });

  it('a successful log-in forgets the failures before it', async () => {
    const account = accountSubject('member', 'user-2');
    for (let i = 0; i < 9; i += 1) await recordFailure(account);
    await recordSuccess(account);
    for (let i = 0; i < 9; i += 1) expect(await recordFailure(account)).toBe(0);
    expect(await lockedFor(account)).toBe(0);
  });
});

describe('identifiers no account has (in memory)', () => {
  it('are locked after the same failures as an account, whatever their case or spaces', async () => {
    const account = accountSubject('member', 'user-3');
    const variants = ['Ghost@Example.com', ' ghost@example.com', 'GHOST@EXAMPLE.COM '];
    const accountLocks: number[] = [];
    const unknownLocks: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      accountLocks.push(await recordFailure(account));
      unknownLocks.push(await recordFailure(unknownSubject('member', variants[i % 3])));
    }
    expect(unknownLocks).toEqual(accountLocks);
    expect(accountLocks.at(-1)).toBe(BASE_LOCK_SEC);
    expect(await lockedFor(unknownSubject('member', 'gHoSt@example.COM'))).toBe(await lockedFor(account));
    // A username and an e-mail, or a member and an administrator, never share a count.
    expect(await lockedFor(unknownSubject('member', 'ghost'))).toBe(0);
    expect(await lockedFor(unknownSubject('admin', 'ghost@example.com'))).toBe(0);
    expect(await lockedFor(accountSubject('admin', 'user-3'))).toBe(0);
  });

  it("cannot fill memory, nor push an account's failures out", async () => {
    const account = accountSubject('member', 'user-4');
    for (let i = 0; i < 9; i += 1) await recordFailure(account);
    // Bounded loop: a little more than the store keeps.
    const flood = MEMORY_MAX_KEYS + 20_000;
    for (let i = 0; i < flood; i += 1) await recordFailure(unknownSubject('member', `made-up-${i}@example.com`));
    const kept = unknownIdentifierKeys();
    expect(kept).not.toBeNull();
    expect(kept!).toBeLessThanOrEqual(MEMORY_MAX_KEYS);
    // The newest made-up identifiers are still counted; the account's ninth failure was not forgotten.
    for (let i = 0; i < 9; i += 1) await recordFailure(unknownSubject('member', `made-up-${flood - 1}@example.com`));
    expect(await lockedFor(unknownSubject('member', `made-up-${flood - 1}@example.com`))).toBe(BASE_LOCK_SEC);
    expect(await recordFailure(account)).toBe(BASE_LOCK_SEC);
  });
});

describe('the bounded in-memory store', () => {
  it('keeps at most maxKeys keys, dropping the oldest windows first', async () => {
    const limiter = createLimiter(`test-bounded-${Date.now()}`, { points: 2, durationSec: 60, maxKeys: 100 });
    for (let i = 0; i < 1_000; i += 1) await limiter.consume(`key-${i}`);
    expect(limiter.storedKeys()).toBeLessThanOrEqual(100);
    // The newest key keeps its count: its third attempt is refused; the oldest was forgotten.
    await limiter.consume('key-999');
    expect((await limiter.consume('key-999')).allowed).toBe(false);
    expect((await limiter.peek('key-0')).consumed).toBe(0);
  });
});

describe('per-address limits of the auth routes', () => {
  const fakeStrapi = (perMinute: number, perDay: number) =>
    ({
      config: {
        get: () => ({ authRateLimit: { enabled: true, max: 1000, intervalMs: 60_000 }, addressLimit: { perMinute, perDay } }),
      },
    }) as unknown as Parameters<typeof createAuthRateLimit>[0];
  const call = async (middleware: ReturnType<typeof createAuthRateLimit>, path: string, ip: string, body: unknown = {}) => {
    const headers: Record<string, string> = {};
    try {
      await middleware(
        { request: { path, ip, body }, set: (name: string, value: string) => (headers[name] = value) } as never,
        async () => undefined,
      );
      return { status: 200, headers };
    } catch (error) {
      return { status: (error as { status?: number; name?: string }).name === 'RateLimitError' ? 429 : 500, headers, error };
    }
  };

  it('counts registrations, reset requests and confirmation e-mails per address, whatever the e-mail', async () => {
    const middleware = createAuthRateLimit(fakeStrapi(3, 100));
    const statuses = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await call(middleware, '/api/auth/local/register', '10.0.0.1', { email: `x${i}@example.com` })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another address, and routes that send no e-mail, are not counted against it.
    expect((await call(middleware, '/api/auth/local/register', '10.0.0.2')).status).toBe(200);
    expect((await call(middleware, '/api/auth/local', '10.0.0.1')).status).toBe(200);
    const refused = await call(middleware, '/api/auth/forgot-password/', '10.0.0.1');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0);
  });

  it('has a daily cap as well', async () => {
    const middleware = createAuthRateLimit(fakeStrapi(100, 2));
    const statuses = [];
    for (const path of ['/api/auth/send-email-confirmation', '/api/auth/forgot-password', '/api/auth/local/register']) {
      statuses.push((await call(middleware, path, '10.0.0.3')).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe.skipIf(!hasRedis)('shared through Redis (REDIS_URL)', () => {
  it('two limiters of the same name (as on two instances) share one count', async () => {
    process.env.REDIS_URL = REDIS_URL;
    const name = `test-shared-${Date.now()}`;
    const first = createLimiter(name, { points: 3, durationSec: 60 });
    const second = createLimiter(name, { points: 3, durationSec: 60 });
    expect((await first.consume('k')).allowed).toBe(true);
    expect((await second.consume('k')).allowed).toBe(true);
    expect((await first.consume('k')).allowed).toBe(true);
    const fourth = await second.consume('k');
    expect(fourth.allowed).toBe(false);
    expect(fourth.retryAfterSec).toBeGreaterThan(0);
    await first.reset('k');
    expect((await second.consume('k')).allowed).toBe(true);
  });
});
if (!hasRedis) it.skip('Redis is not answering on 127.0.0.1:6379: the shared-store test is skipped', () => {});

describe('when Redis is down', () => {
  it('fails open, quickly, and logs loudly', async () => {
    process.env.REDIS_URL = 'redis://127.0.0.1:1';
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((message: string) => void errors.push(message));
    const limiter = createLimiter(`test-down-${Date.now()}`, { points: 1, durationSec: 60 });
    const started = Date.now();
    for (let i = 0; i < 3; i += 1) expect((await limiter.consume('k')).allowed).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(errors.some((message) => /REDIS UNAVAILABLE/.test(message))).toBe(true);
    spy.mockRestore();
  });
});

/** 60 attempts at once, each checking for 20 ms and wrong: how many were checked, how many refused as locked. */
async function burstOfGuesses(subject: ReturnType<typeof accountSubject>, whenUncountable: 'open' | 'closed' = 'open') {
  let checked = 0;
  const outcomes = await Promise.allSettled(
    Array.from({ length: 60 }, () =>
      countedGuess(
        subject,
        whenUncountable === 'open'
          ? {
              refuseLocked: () => {
                throw new Error('locked');
              },
              whenUncountable,
            }
          : {
              refuseLocked: () => {
                throw new Error('locked');
              },
              whenUncountable,
              refuseUncountable: () => {
                throw new Error('uncountable');
              },
            },
        async () => {
          checked += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return false;
        },
        () => 'wrong',
      ),
    ),
  );
  const reasons = outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Error).message : 'checked'));
  return {
    checked,
    locked: reasons.filter((reason) => reason === 'locked').length,
    uncountable: reasons.filter((reason) => reason === 'uncountable').length,
  };
}

describe('count first, then check', () => {
  it('in memory: 60 concurrent guesses get 10 checks, then the lock', async () => {
    const subject = accountSubject('member', `burst-memory-${Date.now()}`);
    expect(await burstOfGuesses(subject)).toEqual({ checked: 10, locked: 50, uncountable: 0 });
    expect(await lockedFor(subject)).toBe(BASE_LOCK_SEC);
  });

  it.skipIf(!hasRedis)('on Redis (as on any number of instances): 60 concurrent guesses get 10 checks, then the lock', async () => {
    process.env.REDIS_URL = REDIS_URL;
    const subject = accountSubject('member', `burst-redis-${Date.now()}`);
    expect(await burstOfGuesses(subject)).toEqual({ checked: 10, locked: 50, uncountable: 0 });
    expect(await lockedFor(subject)).toBe(BASE_LOCK_SEC);
    await clearThrottle(subject);
    expect(await lockedFor(subject)).toBe(0);
  });

  it('Redis down: a budget that fails closed checks nothing, one that fails open checks uncounted', async () => {
    process.env.REDIS_URL = 'redis://127.0.0.1:1';
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const subject = accountSubject('member', `burst-down-${Date.now()}`);
    expect(await burstOfGuesses(subject, 'closed')).toEqual({ checked: 0, locked: 0, uncountable: 60 });
    expect(await burstOfGuesses(subject, 'open')).toEqual({ checked: 60, locked: 0, uncountable: 0 });
    spy.mockRestore();
  });
});

describe('production safety', () => {
  const good = 'q2rVee6eCcV6oWzCAGskrw8QXygyo5l6';
  const secrets = {
    APP_KEYS: `${good},${good}`,
    API_TOKEN_SALT: good,
    ADMIN_JWT_SECRET: good,
    TRANSFER_TOKEN_SALT: good,
    JWT_SECRET: good,
    ENCRYPTION_KEY: good,
  };

  it('names every missing, placeholder or short secret', () => {
    expect(secretProblem(undefined)).toBe('is missing');
    expect(secretProblem('tobemodified')).toBe('is a placeholder value');
    expect(secretProblem('toBeModified1,toBeModified2')).toBe('is a placeholder value');
    expect(secretProblem('short')).toBe('is shorter than 16 characters');
    expect(secretProblem(good)).toBeNull();
    const problems = productionProblems({ ...secrets, JWT_SECRET: 'tobemodified', APP_KEYS: '' }, { mode: 'sandbox' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^APP_KEYS is missing/);
    expect(problems[1]).toMatch(/^JWT_SECRET is a placeholder value/);
  });

  it('refuses a silent sandbox, accepts an explicit one or Stripe keys', () => {
    expect(productionProblems(secrets, {})).toEqual([expect.stringMatching(/payments would fall back to the offline sandbox/)]);
    expect(productionProblems(secrets, { mode: 'sandbox' })).toEqual([]);
    expect(productionProblems(secrets, { stripe: { secretKey: 'sk_live_x' } })).toEqual([]);
  });
});
