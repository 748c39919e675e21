import { amountFormatIssue, parseAmount } from '../money.ts';
import type { RuleCode } from './codes.ts';

/*
 * The SPEC §5 limit rules as plain functions (./limits.ts builds the server's struct on them, with the
 * codes and the order described there). The SPA's limits form checks with these alone, so its chunk does
 * not carry the structs' machinery.
 */

export const LIMIT_KINDS = ['deposit', 'bet', 'loss'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
export const LIMIT_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];

/**
 * The single problem of one limit, or null: '' is no limit; whitespace only is set but not a number
 * ('amount.format'); zero or negative is 'limits.positive'; up to 8 decimals, the NUMERIC(30,8) range.
 */
export function limitIssue(value: string): RuleCode | null {
  if (value === '') return null;
  if (value.trim() === '') return 'amount.format';
  switch (amountFormatIssue(value)) {
    case 'empty':
    case 'format':
      return 'amount.format';
    case 'decimals':
      return 'amount.decimals';
    case 'negative':
      return 'limits.positive';
    case 'tooLarge':
      return 'amount.max';
    case null:
      break;
  }
  return parseAmount(value) <= 0n ? 'limits.positive' : null;
}

function periodValue(value: unknown, period: LimitPeriod): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field: unknown = (value as Record<string, unknown>)[period];
  return typeof field === 'string' ? field : undefined;
}

/** The later periods whose limit is not above every earlier set limit (only valid limits count). */
export function limitOrderViolations(value: unknown): LimitPeriod[] {
  const limits: { period: LimitPeriod; units: bigint }[] = [];
  for (const period of LIMIT_PERIODS) {
    const raw = periodValue(value, period);
    if (raw === undefined || raw === '' || limitIssue(raw) !== null) continue;
    limits.push({ period, units: parseAmount(raw) });
  }
  return limits
    .filter((limit, index) => limits.slice(0, index).some((earlier) => earlier.units >= limit.units))
    .map((limit) => limit.period);
}

/** The codes of each period of one kind ('' values pass), as the struct of ./limits.ts reports them. */
export function limitPeriodCodes(values: Partial<Record<LimitPeriod, string>>): Record<LimitPeriod, RuleCode[]> {
  const late = limitOrderViolations(values);
  const codes = {} as Record<LimitPeriod, RuleCode[]>;
  for (const period of LIMIT_PERIODS) {
    const issue = limitIssue(values[period] ?? '');
    codes[period] = issue ? [issue] : late.includes(period) ? ['limits.order'] : [];
  }
  return codes;
}
