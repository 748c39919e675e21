/**
 * Money is never a JavaScript float.
 *
 * - At the edges (HTTP payloads, form inputs, NUMERIC(30,8) columns) an amount is a decimal string with
 *   at most 8 decimals.
 * - Inside, it is a bigint count of units of 1e-8 of a coin (for LTC: litoshi-like "satoshi" units).
 *
 * Accepted input form (the one {@link AMOUNT_PATTERN} describes, so OpenAPI, the SPA and the server agree):
 *   "0", "10", "0.5", "10000.00000000"
 * Rejected on purpose:
 *   ""           empty
 *   "-1", "+1"   signs (amounts at the edges are non-negative; direction is carried by the operation)
 *   "1e3"        exponents
 *   ".5", "5."   a bare point: require a digit on both sides so the value is unambiguous when read back
 *   "010"        leading zeros: one canonical spelling per integer part
 *   " 1", "1 "   whitespace: callers trim on purpose, we never do silently
 *   "1,5"        locale separators
 *   "1.123456789" more than 8 decimals (never rounded silently)
 *   more than 22 integer digits (the NUMERIC(30,8) column holds 22)
 */

export const MONEY_DECIMALS = 8;
export const UNITS_PER_COIN = 100_000_000n;

/** Integer digits that fit NUMERIC(30,8): 30 - 8. */
export const MAX_INTEGER_DIGITS = 22;

/** Largest amount a NUMERIC(30,8) column holds, in units: 10^30 - 1. */
export const MAX_STORABLE_UNITS = 10n ** 30n - 1n;

/**
 * Non-negative decimal string with up to 8 decimals and no leading zeros. String form for
 * OpenAPI / JSON-schema `pattern` reuse; {@link AMOUNT_REGEX} is the compiled one.
 */
export const AMOUNT_PATTERN = '^(0|[1-9][0-9]{0,21})(\\.[0-9]{1,8})?$';
export const AMOUNT_REGEX = new RegExp(AMOUNT_PATTERN);

/** Like {@link AMOUNT_PATTERN} but an optional leading '-' is allowed (ledger deltas, stored balances). */
export const SIGNED_AMOUNT_PATTERN = '^-?(0|[1-9][0-9]{0,21})(\\.[0-9]{1,8})?$';

/** Why a string is not an amount; stable, so callers can map it to their own codes. */
export type MoneyFormatReason =
  | 'empty' // "" (after nothing: whitespace-only is 'format')
  | 'negative' // "-5", "-0.1": well-formed digits but signed negative
  | 'format' // anything else not shaped like a plain decimal: "+5", "1e3", ".5", "5.", "010", " 5", "abc"
  | 'decimals' // digits-only decimal with more than 8 decimals: "0.123456789"
  | 'tooLarge'; // digits-only with more than 22 integer digits

export class MoneyFormatError extends Error {
  override readonly name = 'MoneyFormatError';
  constructor(
    readonly input: string,
    readonly reason: MoneyFormatReason,
  ) {
    super(`Invalid amount ${JSON.stringify(input)}: ${reason}`);
  }
}

/** Plain digits with an optional fraction, any length, leading zeros allowed: used to tell reasons apart. */
const LOOSE_DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/;

/**
 * Why `s` is not a non-negative amount, or null when it is one. Never throws.
 * The order of checks decides the single reason reported: empty, negative, format, decimals, tooLarge.
 */
export function amountFormatIssue(s: string): MoneyFormatReason | null {
  if (s === '') return 'empty';
  if (s.startsWith('-') && LOOSE_DECIMAL.test(s.slice(1))) return 'negative';
  const loose = LOOSE_DECIMAL.exec(s);
  if (loose === null) return 'format';
  const intPart = loose[1] ?? '';
  const fracPart = loose[2] ?? '';
  if (fracPart.length > MONEY_DECIMALS) return 'decimals';
  if (intPart.length > 1 && intPart.startsWith('0')) return 'format';
  if (intPart.length > MAX_INTEGER_DIGITS) return 'tooLarge';
  return null;
}

/** Parses a non-negative amount string (see the module comment) into units. Throws {@link MoneyFormatError}. */
export function parseAmount(s: string): bigint {
  const issue = amountFormatIssue(s);
  if (issue !== null) throw new MoneyFormatError(s, issue);
  const [intPart = '0', fracPart = ''] = s.split('.');
  return BigInt(intPart) * UNITS_PER_COIN + BigInt(fracPart.padEnd(MONEY_DECIMALS, '0'));
}

/** {@link parseAmount} that returns null instead of throwing. */
export function tryParseAmount(s: string): bigint | null {
  return amountFormatIssue(s) === null ? parseAmount(s) : null;
}

/** Units of a well-formed decimal (any number of integer digits, up to 8 decimals). */
function unitsOf(s: string): bigint {
  const [intPart = '0', fracPart = ''] = s.split('.');
  return BigInt(intPart) * UNITS_PER_COIN + BigInt(fracPart.padEnd(MONEY_DECIMALS, '0'));
}

/**
 * Parses an amount that may carry a leading '-' (stored balances, ledger deltas, and sums of them read
 * from the database). "-0" parses as 0n. Unlike {@link parseAmount} it takes any number of integer
 * digits: a SQL sum of NUMERIC(30,8) columns may pass the 22 a single column holds, and a bigint holds
 * it exactly. Throws {@link MoneyFormatError}; a '-' followed by a bad amount reports the bad amount's
 * reason.
 */
export function parseSignedAmount(s: string): bigint {
  const negative = s.startsWith('-');
  const rest = negative ? s.slice(1) : s;
  const issue = amountFormatIssue(rest);
  if (issue !== null && issue !== 'tooLarge') throw new MoneyFormatError(s, negative && issue === 'empty' ? 'format' : issue);
  const units = unitsOf(rest);
  return negative ? -units : units;
}

export interface FormatOptions {
  /** Keep at least this many decimals (0–8). Default 0: "2", "1.5", "0.00000001". */
  minDecimals?: number;
}

/**
 * Canonical decimal string for units: trailing zeros trimmed down to `minDecimals`, a leading '-' for
 * negative values. `formatAmount(parseAmount(s))` is `s` without redundant trailing zeros.
 */
export function formatAmount(units: bigint, opts: FormatOptions = {}): string {
  const minDecimals = opts.minDecimals ?? 0;
  if (!Number.isInteger(minDecimals) || minDecimals < 0 || minDecimals > MONEY_DECIMALS) {
    throw new RangeError(`minDecimals must be an integer from 0 to ${MONEY_DECIMALS}, got ${minDecimals}`);
  }
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const intPart = (abs / UNITS_PER_COIN).toString();
  let fracPart = (abs % UNITS_PER_COIN).toString().padStart(MONEY_DECIMALS, '0');
  let end = fracPart.length;
  while (end > minDecimals && fracPart[end - 1] === '0') end -= 1;
  fracPart = fracPart.slice(0, end);
  return `${negative ? '-' : ''}${intPart}${fracPart === '' ? '' : `.${fracPart}`}`;
}

/** Always 8 decimals ("0.00000000"), the NUMERIC(30,8) text form. */
export function formatFixed(units: bigint): string {
  return formatAmount(units, { minDecimals: MONEY_DECIMALS });
}

export type Rounding = 'up' | 'down';

/** 100% in basis points. */
export const BASIS_POINTS_PER_WHOLE = 10_000n;

/**
 * `units * basisPoints / 10000`, rounded explicitly: 'down' is floor (towards -infinity), 'up' is
 * ceiling (towards +infinity). For non-negative amounts that is "never pay out more than owed" ('down')
 * and "never charge less than owed" ('up').
 * `basisPoints`: 1 bp = 0.01 %, so 250 = 2.5 %, 10000 = 100 %. Must be an integer.
 */
export function mulPercent(units: bigint, basisPoints: bigint | number, rounding: Rounding): bigint {
  if (typeof basisPoints === 'number' && !Number.isSafeInteger(basisPoints)) {
    throw new RangeError(`basisPoints must be a safe integer, got ${basisPoints}`);
  }
  return divRound(units * BigInt(basisPoints), BASIS_POINTS_PER_WHOLE, rounding);
}

/** Integer division with an explicit rounding: 'down' = floor, 'up' = ceiling. */
export function divRound(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero');
  const quotient = numerator / denominator; // truncates towards zero
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const exactIsPositive = numerator < 0n === denominator < 0n;
  if (rounding === 'down') return exactIsPositive ? quotient : quotient - 1n;
  return exactIsPositive ? quotient + 1n : quotient;
}

/** -1, 0 or 1, for sorting: `amounts.sort(compare)`. */
export function compare(a: bigint, b: bigint): -1 | 0 | 1 {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function min(first: bigint, ...rest: bigint[]): bigint {
  return rest.reduce((acc, v) => (v < acc ? v : acc), first);
}

export function max(first: bigint, ...rest: bigint[]): bigint {
  return rest.reduce((acc, v) => (v > acc ? v : acc), first);
}

export function sum(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const v of values) total += v;
  return total;
}

// SPEC §9 business constants, in units.

/** Deposit and withdraw amount ceiling: 10000 coins. */
export const MAX_TRANSFER_AMOUNT = 10_000n * UNITS_PER_COIN;
/**
 * Largest amount one call of a provider may carry (a deposit notification, a game wallet bet or win):
 * 9999999999.99999999, just under 10^10 coins. Far above any real transfer or win, and far inside what
 * NUMERIC(30,8) holds (10^22), so no balance or sum a provider can push overflows a column in practice.
 * openapi.yaml's ProviderAmount spells it as {@link PROVIDER_AMOUNT_PATTERN}.
 */
export const MAX_PROVIDER_AMOUNT = 10n ** 10n * UNITS_PER_COIN - 1n;
/** {@link AMOUNT_PATTERN} with at most 10 integer digits: amounts up to {@link MAX_PROVIDER_AMOUNT}. */
export const PROVIDER_AMOUNT_PATTERN = '^(0|[1-9][0-9]{0,9})(\\.[0-9]{1,8})?$';
/** 0.00005 LTC; smaller deposits are neither credited nor refunded. */
export const MIN_DEPOSIT_LTC = 5_000n;
/** 0.03 LTC. */
export const MIN_WITHDRAW_LTC = 3_000_000n;
/** 0.000006 LTC. */
export const WITHDRAW_FEE_LTC = 600n;
/** Deposits are credited after this many network confirmations. */
export const DEPOSIT_CONFIRMATIONS = 6;
