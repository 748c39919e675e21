/**
 * Exact multipliers. A multiplier (×1.98, ×0.3, a slot spin's ×0.45) and a return to player are
 * rationals of two bigints, so a payout is computed once, exactly, and rounded once, down, on the
 * amount itself: the house never pays a fraction of a unit that a float rounded up.
 */

export interface Ratio {
  num: bigint;
  den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/**
 * num/den in lowest terms with a positive denominator, so two equal ratios have equal fields
 * (tests and logs compare them as they are).
 */
export function ratio(num: bigint | number, den: bigint | number = 1n): Ratio {
  let n = BigInt(num);
  let d = BigInt(den);
  if (d === 0n) throw new RangeError('A ratio cannot have a zero denominator');
  if (d < 0n) [n, d] = [-n, -d];
  const divisor = gcd(n, d);
  return divisor > 1n ? { num: n / divisor, den: d / divisor } : { num: n, den: d };
}

export const ZERO: Ratio = { num: 0n, den: 1n };
export const ONE: Ratio = { num: 1n, den: 1n };

export function addRatios(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function multiplyRatios(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.num, a.den * b.den);
}

/** -1, 0 or 1 as a is below, equal to or above b (both with positive denominators, as ratio() makes them). */
export function compareRatios(a: Ratio, b: Ratio): -1 | 0 | 1 {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** What a bet of `betUnits` (units of 1e-8) wins at multiplier `m`: floor(bet × num / den). */
export function payout(betUnits: bigint, m: Ratio): bigint {
  if (betUnits < 0n) throw new RangeError('A bet cannot be negative');
  if (m.num < 0n || m.den <= 0n) throw new RangeError('A multiplier is a non-negative ratio with a positive denominator');
  return (betUnits * m.num) / m.den;
}

/**
 * A non-negative ratio written with exactly `decimals` decimals, rounded down, for display:
 * ratioToFixed({ num: 99n, den: 49n }, 2) === '2.02'. Rounded down so a shown multiplier or return
 * never promises more than is paid.
 */
export function ratioToFixed(m: Ratio, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`decimals must be a non-negative integer, got ${decimals}`);
  if (m.num < 0n || m.den <= 0n) throw new RangeError('ratioToFixed shows non-negative ratios with a positive denominator');
  const scaled = (m.num * 10n ** BigInt(decimals)) / m.den;
  if (decimals === 0) return scaled.toString();
  const digits = scaled.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
