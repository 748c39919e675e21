import { formatAmount, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { LIMIT_KINDS, LIMIT_PERIODS, LimitPeriods, type LimitKind, type LimitPeriod } from '../../src/rules/limits.ts';
import { validate } from '../../src/rules/validate.ts';
import type { AppContext } from '../context.ts';
import { one, type Queryable } from '../db/db.ts';
import { DomainError, badRequest } from './errors.ts';

/** Rolling windows of the deposit, bet and loss limits: a period is the time up to now, not a calendar one. */
export const LIMIT_PERIOD_MS: Readonly<Record<LimitPeriod, number>> = {
  daily: 24 * 60 * 60_000,
  weekly: 7 * 24 * 60 * 60_000,
  monthly: 30 * 24 * 60 * 60_000,
};

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

/** The limit in force for one kind and period (for enforcement on money movements). */
export async function currentLimit(db: Queryable, userId: number, kind: LimitKind, period: LimitPeriod, now: Date) {
  const limits = await getLimits(db, userId, now);
  const current = limits[kind][period].current;
  return current === null ? null : parseAmount(current);
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
 * What each limit counts in its rolling windows up to now, in `currencyCode` (the limits' currency), as
 * the money operations reckon it when they enforce the limits (held-deposits.ts: deposits credited less
 * their held part, and held money released;
 * game-wallet.ts: stakes less rolled-back bets, and wins with free spins less rolled-back wins). A loss is
 * stakes less wins, shown as 0 when the player is ahead.
 */
export async function limitUsage(db: Queryable, userId: number, currencyCode: string, now: Date): Promise<LimitUsage> {
  const since = (period: LimitPeriod) => new Date(now.getTime() - LIMIT_PERIOD_MS[period]);
  const windows = [since('daily'), since('weekly'), since('monthly')];
  const deposits = await one<Record<string, string>>(
    db,
    `WITH counted AS (
       SELECT d.amount - d.held_amount AS amount, d.credited_at AS at
       FROM deposits d JOIN currencies c ON c.id = d.currency_id
       WHERE d.user_id = $1 AND c.code = $5 AND d.status = 'credited' AND d.credited_at > $4
       UNION ALL
       SELECT r.amount, r.released_at FROM deposit_releases r JOIN currencies c ON c.id = r.currency_id
       WHERE r.user_id = $1 AND c.code = $5 AND r.released_at > $4
     )
     SELECT
       coalesce(sum(amount) FILTER (WHERE at > $2), 0) AS daily,
       coalesce(sum(amount) FILTER (WHERE at > $3), 0) AS weekly,
       coalesce(sum(amount), 0) AS monthly
     FROM counted`,
    [userId, ...windows, currencyCode],
  );
  const play = await one<Record<string, string>>(
    db,
    `SELECT
       coalesce(sum(CASE a.action WHEN 'bet' THEN a.amount WHEN 'rollbackBet' THEN -a.amount ELSE 0 END) FILTER (WHERE a.created_at > $2), 0) AS bets_daily,
       coalesce(sum(CASE a.action WHEN 'bet' THEN a.amount WHEN 'rollbackBet' THEN -a.amount ELSE 0 END) FILTER (WHERE a.created_at > $3), 0) AS bets_weekly,
       coalesce(sum(CASE a.action WHEN 'bet' THEN a.amount WHEN 'rollbackBet' THEN -a.amount ELSE 0 END), 0) AS bets_monthly,
       coalesce(sum(CASE a.action WHEN 'win' THEN a.amount WHEN 'freeSpin' THEN a.amount WHEN 'rollbackWin' THEN -a.amount ELSE 0 END)
         FILTER (WHERE a.created_at > $2), 0) AS wins_daily,
       coalesce(sum(CASE a.action WHEN 'win' THEN a.amount WHEN 'freeSpin' THEN a.amount WHEN 'rollbackWin' THEN -a.amount ELSE 0 END)
         FILTER (WHERE a.created_at > $3), 0) AS wins_weekly,
       coalesce(sum(CASE a.action WHEN 'win' THEN a.amount WHEN 'freeSpin' THEN a.amount WHEN 'rollbackWin' THEN -a.amount ELSE 0 END), 0) AS wins_monthly
     FROM game_wallet_actions a JOIN game_rounds r ON r.id = a.round_pk JOIN currencies c ON c.id = r.currency_id
     WHERE a.user_id = $1 AND c.code = $5 AND a.created_at > $4`,
    [userId, ...windows, currencyCode],
  );
  const units = (value: string | undefined) => parseSignedAmount(value ?? '0');
  const usage = { deposit: {}, bet: {}, loss: {} } as LimitUsage;
  for (const period of LIMIT_PERIODS) {
    const bets = units(play[`bets_${period}`]);
    const loss = bets - units(play[`wins_${period}`]);
    usage.deposit[period] = formatAmount(units(deposits[period]));
    usage.bet[period] = formatAmount(bets > 0n ? bets : 0n);
    usage.loss[period] = formatAmount(loss > 0n ? loss : 0n);
  }
  return usage;
}
