import { formatAmount, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { LIMIT_KINDS, LIMIT_PERIODS, LimitPeriods, type LimitKind, type LimitPeriod } from '../../src/rules/limits.ts';
import { validate } from '../../src/rules/validate.ts';
import type { AppContext } from '../context.ts';
import { one, type Queryable } from '../db/db.ts';
import { DomainError, badRequest } from './errors.ts';

/** Raising or removing a limit waits this long, as the Malta and UK regulators require; lowering is immediate. */
export const COOLING_OFF_MS = 24 * 60 * 60_000;

export interface LimitValue {
  current: string | null;
  pending: { value: string | null; effectiveAt: string } | null;
}

export type LimitSet = Record<LimitPeriod, LimitValue>;
export type Limits = Record<LimitKind, LimitSet>;

interface LimitRow {
  [key: string]: unknown;
  kind: LimitKind;
  period: LimitPeriod;
  amount: string | null;
  pending: boolean;
  pending_amount: string | null;
  pending_effective_at: Date | null;
}

const money = (value: string | null): string | null => (value === null ? null : formatAmount(parseSignedAmount(value)));

/** Pending changes whose cooling-off has passed become the limit. */
async function applyDueChanges(db: Queryable, userId: number, now: Date): Promise<void> {
  await db.query(
    `UPDATE gambling_limits SET amount = pending_amount, pending = false, pending_amount = NULL,
       pending_effective_at = NULL, updated_at = pending_effective_at
     WHERE user_id = $1 AND pending AND pending_effective_at <= $2`,
    [userId, now],
  );
}

export async function getLimits(db: Queryable, userId: number, now: Date): Promise<Limits> {
  await applyDueChanges(db, userId, now);
  const rows = await db.query<LimitRow>('SELECT * FROM gambling_limits WHERE user_id = $1', [userId]);
  const limits = {} as Limits;
  for (const kind of LIMIT_KINDS) {
    limits[kind] = {} as LimitSet;
    for (const period of LIMIT_PERIODS) {
      const row = rows.find((r) => r.kind === kind && r.period === period);
      limits[kind][period] = {
        current: money(row?.amount ?? null),
        pending:
          row?.pending && row.pending_effective_at
            ? { value: money(row.pending_amount), effectiveAt: row.pending_effective_at.toISOString() }
            : null,
      };
    }
  }
  return limits;
}

export interface LimitUpdate {
  limitType: LimitKind;
  daily?: string | null;
  weekly?: string | null;
  monthly?: string | null;
}

/**
 * Sets the three periods of one kind. Per period: the same value changes nothing (and drops a pending
 * change); a lower value, or a limit where there was none, applies at once; a higher value or a removal
 * becomes pending until the cooling-off period has passed (asking for the same pending change again keeps
 * its date, so re-saving a form does not postpone it).
 */
export async function updateLimits(ctx: AppContext, userId: number, update: LimitUpdate): Promise<Limits> {
  const periods = { daily: update.daily ?? null, weekly: update.weekly ?? null, monthly: update.monthly ?? null };
  const result = validate(LimitPeriods, periods);
  if (!result.ok) throw badRequest(result.fields);
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    await applyDueChanges(tx, userId, now);
    // Serialise concurrent updates of one player's limits.
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const rows = await tx.query<LimitRow>('SELECT * FROM gambling_limits WHERE user_id = $1 AND kind = $2', [
      userId,
      update.limitType,
    ]);
    for (const period of LIMIT_PERIODS) {
      const raw = periods[period];
      const wanted = raw === null || raw === '' ? null : parseAmount(raw);
      const row = rows.find((r) => r.period === period);
      const current = row?.amount == null ? null : parseSignedAmount(row.amount);
      let amount = current;
      let pending: { amount: bigint | null; at: Date } | null = null;
      const pendingAmount = row?.pending_amount == null ? null : parseSignedAmount(row.pending_amount);
      if (wanted === current) {
        pending = null;
      } else if (wanted !== null && (current === null || wanted < current)) {
        amount = wanted;
      } else if (row?.pending && row.pending_effective_at && pendingAmount === wanted) {
        // The same change again (the SPA sends every period of the form): its cooling-off keeps running.
        pending = { amount: wanted, at: row.pending_effective_at };
      } else {
        pending = { amount: wanted, at: new Date(now.getTime() + COOLING_OFF_MS) };
      }
      await tx.query(
        `INSERT INTO gambling_limits (user_id, kind, period, amount, pending, pending_amount, pending_effective_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (user_id, kind, period) DO UPDATE SET amount = EXCLUDED.amount, pending = EXCLUDED.pending,
           pending_amount = EXCLUDED.pending_amount, pending_effective_at = EXCLUDED.pending_effective_at,
           updated_at = EXCLUDED.updated_at`,
        [
          userId,
          update.limitType,
          period,
          amount === null ? null : formatAmount(amount),
          pending !== null,
          pending?.amount == null ? null : formatAmount(pending.amount),
          pending?.at ?? null,
          now,
        ],
      );
    }
    return getLimits(tx, userId, now);
  });
}

export interface SelfExclusion {
  type: 'temporary' | 'permanent' | null;
  until: string | null;
}

export function selfExclusionOf(user: { self_exclusion_permanent: boolean; self_excluded_until: Date | null }, now: Date): SelfExclusion {
  if (user.self_exclusion_permanent) return { type: 'permanent', until: null };
  if (user.self_excluded_until && user.self_excluded_until > now) {
    return { type: 'temporary', until: user.self_excluded_until.toISOString() };
  }
  return { type: null, until: null };
}

const MIN_EXCLUSION_MS = 24 * 60 * 60_000;
const MAX_EXCLUSION_YEARS = 5;

/** The latest end of a temporary exclusion: the same instant MAX_EXCLUSION_YEARS calendar years on. */
function latestExclusionEnd(now: Date): Date {
  const latest = new Date(now.getTime());
  latest.setUTCFullYear(latest.getUTCFullYear() + MAX_EXCLUSION_YEARS);
  return latest;
}

/** Self-exclusion starts at once: every session of the player is revoked. */
export async function selfExclude(
  ctx: AppContext,
  userId: number,
  input: { type: 'temporary' | 'permanent'; until?: string | null },
): Promise<SelfExclusion> {
  const now = ctx.now();
  let until: Date | null = null;
  if (input.type === 'temporary') {
    until = input.until ? new Date(input.until) : null;
    if (!until || Number.isNaN(until.getTime())) throw badRequest([{ field: 'until', code: 'required' }]);
    if (until.getTime() - now.getTime() < MIN_EXCLUSION_MS || until > latestExclusionEnd(now)) throw badRequest([{ field: 'until', code: 'selfExclusion.range' }]);
  }
  return ctx.db.transaction(async (tx) => {
    const user = await one<{ self_exclusion_permanent: boolean; self_excluded_until: Date | null }>(
      tx,
      `UPDATE users SET self_exclusion_permanent = $2, self_excluded_until = $3, updated_at = $4
       WHERE id = $1 RETURNING self_exclusion_permanent, self_excluded_until`,
      [userId, input.type === 'permanent', until, now],
    );
    await ctx.tokens.revokeAll(tx, userId, now);
    return selfExclusionOf(user, now);
  });
}

export function assertNotSelfExcluded(user: { self_exclusion_permanent: boolean; self_excluded_until: Date | null }, now: Date) {
  if (selfExclusionOf(user, now).type !== null) throw new DomainError('SELF_EXCLUDED');
}

export type LimitUsage = Record<LimitKind, Record<LimitPeriod, string>>;

/**
 * What each limit counts in its rolling windows up to now, in `currencyCode` (the limits' currency), as the
 * money operations reckon it when they enforce the limits: deposit_limit_counts (deposits credited less
 * their held part, and held money released) and game_play_limit_counts (net stakes, and net stakes less net
 * wins), server/db/schema, each period a rolling window up to now (24, 168 and 720 hours). A count below
 * zero (a loss count when the player is ahead) is shown as 0.
 */
export async function limitUsage(db: Queryable, userId: number, currencyCode: string, now: Date): Promise<LimitUsage> {
  const rows = await db.query<{ kind: LimitKind; period: LimitPeriod; amount: string }>(
    `SELECT 'deposit' AS kind, d.period, d.amount FROM currencies c CROSS JOIN deposit_limit_counts($1, c.id, $3) d WHERE c.code = $2
     UNION ALL
     SELECT g.kind, g.period, g.amount FROM currencies c CROSS JOIN game_play_limit_counts($1, c.id, $3) g WHERE c.code = $2`,
    [userId, currencyCode, now],
  );
  const usage = { deposit: {}, bet: {}, loss: {} } as LimitUsage;
  for (const kind of LIMIT_KINDS) {
    for (const period of LIMIT_PERIODS) {
      const counted = parseSignedAmount(rows.find((row) => row.kind === kind && row.period === period)?.amount ?? '0');
      usage[kind][period] = formatAmount(counted > 0n ? counted : 0n);
    }
  }
  return usage;
}
