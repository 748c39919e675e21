import { type Struct } from 'superstruct';
import { amountFormatIssue, MAX_TRANSFER_AMOUNT, parseAmount } from '../money.ts';
import type { RuleCode } from './codes.ts';
import { classified, requiredText } from './refinements.ts';

/*
 * SPEC §5 deposit and withdrawal amounts: required, numeric, greater than 0, at most 10000, at most
 * 8 decimals. The amount is a decimal string in the form src/money.ts accepts ("0.5", "10000",
 * "10000.00000000"); exactly one code per bad value, the most basic first:
 *   '' or blank                         -> required
 *   "abc", "1e3", " 1", "+1", ".5", "5.", "010", "1,5" -> amount.format
 *   "0.123456789" (digits, 9+ decimals) -> amount.decimals (even when the value itself would be fine)
 *   "0", "0.00000000", "-5"             -> amount.positive
 *   "10000.00000001", 23-digit numbers  -> amount.max
 */

export interface AmountRuleOptions {
  /** Largest accepted value in units, inclusive; default: whatever NUMERIC(30,8) holds. */
  maxUnits?: bigint;
  /** Code for zero and negative values. */
  positiveCode?: 'amount.positive' | 'limits.positive';
}

/** The single problem of an amount string, or null when it is a valid positive amount. */
export function amountIssue(value: string, options: AmountRuleOptions = {}): RuleCode | null {
  const positiveCode = options.positiveCode ?? 'amount.positive';
  if (value.trim() === '') return 'required';
  switch (amountFormatIssue(value)) {
    case 'empty':
      return 'required';
    case 'format':
      return 'amount.format';
    case 'decimals':
      return 'amount.decimals';
    case 'negative':
      return positiveCode;
    case 'tooLarge':
      return 'amount.max';
    case null:
      break;
  }
  const units = parseAmount(value);
  if (units <= 0n) return positiveCode;
  if (options.maxUnits !== undefined && units > options.maxUnits) return 'amount.max';
  return null;
}

/** A required positive amount string with the given ceiling. */
export function createAmount(options: AmountRuleOptions = {}): Struct<string, null> {
  const positiveCode = options.positiveCode ?? 'amount.positive';
  return classified(
    requiredText([]),
    ['amount.format', 'amount.decimals', positiveCode, 'amount.max'],
    (value) => amountIssue(value, options),
  );
}

/** Deposit and withdraw amount: > 0, <= 10000, <= 8 decimals. */
export const TransferAmount = createAmount({ maxUnits: MAX_TRANSFER_AMOUNT });

/** {@link amountIssue} with the transfer ceiling, for live feedback in the SPA. */
export function transferAmountIssue(value: string): RuleCode | null {
  return amountIssue(value, { maxUnits: MAX_TRANSFER_AMOUNT });
}
