/**
 * Fixed-window counters kept in memory: enough for one server process, and they reset on restart,
 * which errs on the side of letting a player back in.
 */
export interface RateRule {
  limit: number;
  windowMs: number;
}

export interface RateLimiter {
  /** Counts one hit on key; returns the seconds to wait when the rule is exceeded, else null. */
  hit(key: string, rule: RateRule, now: number): number | null;
  reset(): void;
}

export function createRateLimiter(maxKeys = 100_000): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key, rule, now) {
      let window = windows.get(key);
      if (!window || now - window.start >= rule.windowMs) {
        if (windows.size >= maxKeys) {
          for (const [k, w] of windows) if (now - w.start >= rule.windowMs) windows.delete(k);
          if (windows.size >= maxKeys) windows.clear();
        }
        window = { start: now, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count > rule.limit) return Math.max(1, Math.ceil((window.start + rule.windowMs - now) / 1000));
      return null;
    },
    reset() {
      windows.clear();
    },
  };
}

export const RATE_RULES = {
  loginPerIp: { limit: 30, windowMs: 60_000 },
  loginPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  signupPerIp: { limit: 10, windowMs: 60 * 60_000 },
  forgotPerIp: { limit: 10, windowMs: 60 * 60_000 },
  forgotPerAccount: { limit: 3, windowMs: 60 * 60_000 },
} satisfies Record<string, RateRule>;
