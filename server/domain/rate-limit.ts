import type { Queryable } from '../db/db.ts';

/**
 * Counters kept in the database (table rate_limits, migration 0017), so that every server instance on one
 * database counts together: two instances behind a load balancer allow what one would, not twice that.
 * Each counter is one row taken with one INSERT ... ON CONFLICT statement, so concurrent requests (on one
 * instance or several) never both pass where one may.
 */

/** A fixed window: at most `limit` hits in `windowMs` from the window's first hit. */
export interface RateRule {
  limit: number;
  windowMs: number;
}

/**
 * A growing delay for wrong passwords: the first `free` failures are taken at once; after n failures
 * (n >= free) the next attempt waits `baseDelayMs` × 2^(n − free) from the last one, at most
 * `maxDelayMs`. The failures are forgotten `forgetMs` after the last one.
 */
export interface BackoffRule {
  free: number;
  baseDelayMs: number;
  maxDelayMs: number;
  forgetMs: number;
}

export interface RateLimiter {
  /** Counts one hit on key; returns the seconds to wait when the rule is exceeded, else null. */
  hit(key: string, rule: RateRule, now: Date): Promise<number | null>;
  /**
   * Counts one attempt on key unless key is in its delay, in which case nothing is counted and the
   * seconds to wait are returned. With `enforce` false the attempt is counted whatever the delay.
   */
  attempt(key: string, rule: BackoffRule, now: Date, enforce?: boolean): Promise<number | null>;
  /** The attempts key holds now (0 once forgotten). */
  count(key: string, now: Date): Promise<number>;
  /** Takes back one attempt counted on key (one that turned out not to be a failure). */
  forgive(key: string): Promise<void>;
  /** Forgets key's attempts. */
  clear(key: string): Promise<void>;
  /** Forgets every counter (tests). */
  reset(): Promise<void>;
}

/** Expired rows are deleted at most this often by each server (a row past its expiry counts as absent anyway). */
const SWEEP_EVERY_MS = 60_000;
/** 2^40 ms is 35 years: the delay's exponent goes no higher, so the arithmetic never overflows. */
const MAX_EXPONENT = 40;

export function createRateLimiter(db: Queryable): RateLimiter {
  let lastSweep = 0;
  async function sweep(now: Date): Promise<void> {
    if (now.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now.getTime();
    await db.query('DELETE FROM rate_limits WHERE expires_at <= $1', [now]);
  }

  return {
    async hit(key, rule, now) {
      await sweep(now);
      const rows = await db.query<{ hits: number; wait: number }>(
        `INSERT INTO rate_limits AS r (key, window_start, hits, last_hit_at, expires_at)
         VALUES ($1, $2, 1, $2, $2::timestamptz + $3::double precision * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET
           window_start = CASE WHEN r.expires_at <= $2 THEN $2 ELSE r.window_start END,
           hits = CASE WHEN r.expires_at <= $2 THEN 1 ELSE r.hits + 1 END,
           last_hit_at = $2,
           expires_at = CASE WHEN r.expires_at <= $2 THEN EXCLUDED.expires_at ELSE r.expires_at END
         RETURNING hits, GREATEST(1, CEIL(EXTRACT(EPOCH FROM r.expires_at - $2::timestamptz)))::int AS wait`,
        [key, now, rule.windowMs],
      );
      const row = rows[0]!;
      return row.hits > rule.limit ? row.wait : null;
    },

    async attempt(key, rule, now, enforce = true) {
      await sweep(now);
      const delay = (free: string, base: string, max: string) =>
        `LEAST(${base}::double precision * power(2, LEAST(r.hits - ${free}::int, ${MAX_EXPONENT})), ${max}::double precision) * interval '1 millisecond'`;
      const counted = await db.query(
        `INSERT INTO rate_limits AS r (key, window_start, hits, last_hit_at, expires_at)
         VALUES ($1, $2, 1, $2, $2::timestamptz + $3::double precision * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET
           window_start = CASE WHEN r.expires_at <= $2 THEN $2 ELSE r.window_start END,
           hits = CASE WHEN r.expires_at <= $2 THEN 1 ELSE r.hits + 1 END,
           last_hit_at = $2,
           expires_at = EXCLUDED.expires_at
         WHERE NOT $7::boolean OR r.expires_at <= $2 OR r.hits < $4 OR r.last_hit_at + ${delay('$4', '$5', '$6')} <= $2
         RETURNING hits`,
        [key, now, rule.forgetMs, rule.free, rule.baseDelayMs, rule.maxDelayMs, enforce],
      );
      if (counted.length > 0) return null;
      const waiting = await db.query<{ wait: number }>(
        `SELECT GREATEST(1, CEIL(EXTRACT(EPOCH FROM r.last_hit_at + ${delay('$3', '$4', '$5')} - $2::timestamptz)))::int AS wait
         FROM rate_limits r WHERE key = $1`,
        [key, now, rule.free, rule.baseDelayMs, rule.maxDelayMs],
      );
      // The row went away meanwhile (swept, or cleared by a success): nothing to wait for.
      return waiting[0]?.wait ?? null;
    },

    async count(key, now) {
      const rows = await db.query<{ hits: number }>('SELECT hits FROM rate_limits WHERE key = $1 AND expires_at > $2', [key, now]);
      return rows[0]?.hits ?? 0;
    },

    async forgive(key) {
      await db.query('UPDATE rate_limits SET hits = hits - 1 WHERE key = $1 AND hits > 0', [key]);
    },

    async clear(key) {
      await db.query('DELETE FROM rate_limits WHERE key = $1', [key]);
    },

    async reset() {
      await db.query('DELETE FROM rate_limits');
    },
  };
}

/** For RATE_LIMIT=off: nothing is counted and nothing is refused. */
export const NO_RATE_LIMITS: RateLimiter = {
  hit: () => Promise.resolve(null),
  attempt: () => Promise.resolve(null),
  count: () => Promise.resolve(0),
  forgive: () => Promise.resolve(),
  clear: () => Promise.resolve(),
  reset: () => Promise.resolve(),
};

export const RATE_RULES = {
  /** Login attempts (password or social) from one address, whatever the account. */
  loginPerIp: { limit: 30, windowMs: 60_000 },
  /** Password changes by a session's holder. */
  loginPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  signupPerIp: { limit: 10, windowMs: 60 * 60_000 },
  forgotPerIp: { limit: 10, windowMs: 60 * 60_000 },
  forgotPerAccount: { limit: 3, windowMs: 60 * 60_000 },
  /** Username and email availability checks from one address. */
  checkUserPerIp: { limit: 30, windowMs: 60_000 },
} satisfies Record<string, RateRule>;

/**
 * Wrong passwords at login (README, "Wrong passwords"): per account and address, 5 at once, then 1 s,
 * 2 s, 4 s, ... up to 15 minutes between attempts; per account over all addresses, 10 at once, then
 * 1 s, 2 s, ... up to 60 s, applied only to addresses that have themselves failed on the account, so
 * the owner on an address with no failures is never held back by someone else's.
 */
export const LOGIN_BACKOFF = {
  perAccountAndIp: { free: 5, baseDelayMs: 1_000, maxDelayMs: 15 * 60_000, forgetMs: 30 * 60_000 },
  perAccount: { free: 10, baseDelayMs: 1_000, maxDelayMs: 60_000, forgetMs: 30 * 60_000 },
} satisfies Record<string, BackoffRule>;
