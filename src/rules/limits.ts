import { nullable, object, optional, refine, string, type Infer, type Struct } from 'superstruct';
import { limitIssue, limitOrderViolations, type LimitPeriod } from './limitChecks.ts';
import { classified } from './refinements.ts';

/*
 * SPEC §5 responsible-gambling limits: for deposit, bet and loss, each of daily, weekly and monthly is
 * optional (absent, null or '' means "no limit"); a limit that is set is a positive decimal amount
 * (up to 8 decimals, the NUMERIC(30,8) range; 'limits.positive' for zero or negative), and the limits
 * that are set are strictly increasing: daily < weekly < monthly. With only daily and monthly set,
 * daily < monthly. A broken order is reported on the LATER period ('limits.order' at
 * `deposit.weekly` when weekly <= daily), once per field even when it is out of order with both others.
 */

export { LIMIT_KINDS, LIMIT_PERIODS, limitOrderViolations, type LimitKind, type LimitPeriod } from './limitChecks.ts';

/**
 * An optional limit for one period. Inside a {@link LimitPeriods} object it is also checked against the
 * earlier periods (the order rule sits on the field it is reported on, see relatesTo in refinements.ts).
 */
export function limitAmount(period: LimitPeriod): Struct<string | null | undefined, null> {
  const amount = classified(
    string(),
    ['amount.format', 'amount.decimals', 'limits.positive', 'amount.max'],
    limitIssue,
  );
  const ordered = refine(amount, 'limits.order', (value, ctx) => {
    if (value === '' || limitIssue(value) !== null) return true;
    const parent: unknown = ctx.branch.length >= 2 ? ctx.branch[ctx.branch.length - 2] : undefined;
    return !limitOrderViolations(parent).includes(period);
  });
  return optional(nullable(ordered));
}

/** daily / weekly / monthly of one kind. */
export const LimitPeriods = object({
  daily: limitAmount('daily'),
  weekly: limitAmount('weekly'),
  monthly: limitAmount('monthly'),
});
export type LimitPeriods = Infer<typeof LimitPeriods>;

export const limitsFields = {
  deposit: optional(LimitPeriods),
  bet: optional(LimitPeriods),
  loss: optional(LimitPeriods),
};

/** Deposit, bet and loss limits; a kind left out is not changed. */
export const LimitsInput = object(limitsFields);
export type LimitsInput = Infer<typeof LimitsInput>;
