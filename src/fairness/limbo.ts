/**
 * Limbo (docs/fairness.md, "Limbo"): one number N gives a result multiplier
 * floor(99 × 2^32 / N) / 100, at least 1.00 and at most 1,000,000.00 (N = 0 gives the most). The player
 * names a target multiplier and wins it when the result is at least the target.
 */
import { NUMBER_RANGE } from './random.ts';
import { ratio, type Ratio } from './ratio.ts';

/** Results and targets are counted in hundredths: 100 is ×1.00. */
export const LIMBO_RESULT_MIN = 100;
export const LIMBO_RESULT_MAX = 100_000_000;
export const LIMBO_TARGET_MIN = 101;
export const LIMBO_TARGET_MAX = LIMBO_RESULT_MAX;

/** 99 × 2^32: with the result in hundredths, 0.99 / (N / 2^32) × 100. */
const EDGE_NUMERATOR = 99 * NUMBER_RANGE;

export interface LimboParams {
  /** Hundredths: 200 is ×2.00, from 101 (×1.01) to 100000000 (×1,000,000.00). */
  target: number;
}

export interface LimboOutcome {
  /** Hundredths, 100 to 100000000. */
  result: number;
  win: boolean;
  /** The target as a multiplier, paid when `win`. */
  multiplier: Ratio;
}

export type LimboParamsError = 'limbo.target';

export function limboParamsError(params: LimboParams): LimboParamsError | null {
  const { target } = params;
  return Number.isInteger(target) && target >= LIMBO_TARGET_MIN && target <= LIMBO_TARGET_MAX ? null : 'limbo.target';
}

export function numbersNeeded(_params: LimboParams): number {
  return 1;
}

/**
 * The result in hundredths. 99 × 2^32 < 2^39, so the double quotient is off by far less than the 1 / N
 * that separates a fraction from the next integer, and floor() gives the exact integer quotient.
 */
export function limboResult(n: number): number {
  if (n === 0) return LIMBO_RESULT_MAX;
  return Math.min(LIMBO_RESULT_MAX, Math.max(LIMBO_RESULT_MIN, Math.floor(EDGE_NUMERATOR / n)));
}

export function limboOutcome(numbers: number[], params: LimboParams): LimboOutcome {
  const [n] = numbers;
  if (n === undefined) throw new RangeError('Limbo needs one number');
  const result = limboResult(n);
  return { result, win: result >= params.target, multiplier: ratio(params.target, 100) };
}

/**
 * The exact return to player at a target T (hundredths): the winning numbers are N = 0 (the maximum)
 * and every N ≥ 1 with floor(99 × 2^32 / N) ≥ T, i.e. N ≤ 99 × 2^32 / T; that is
 * floor(99 × 2^32 / T) + 1 numbers, each paying T / 100. N = 0 makes it a hair above 99 % at high targets.
 */
export function limboReturnToPlayer(params: LimboParams): Ratio {
  const target = BigInt(params.target);
  const winning = BigInt(EDGE_NUMERATOR) / target + 1n;
  return ratio(winning * target, BigInt(NUMBER_RANGE) * 100n);
}
