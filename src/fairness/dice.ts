/**
 * Dice (docs/fairness.md, "Dice"): one number N gives a roll from 0.00 to 100.00,
 * roll = floor(N × 10001 / 2^32) / 100. The player bets the roll lands under or over a target;
 * the multiplier is 99 / (win chance in percent), a 1 % house edge.
 */
import { NUMBER_RANGE } from './random.ts';
import { ratio, type Ratio } from './ratio.ts';

/** Rolls are counted in hundredths: 0 to 10000 stand for 0.00 to 100.00. */
export const DICE_ROLL_MAX = 10_000;
/** Win chance bounds, in hundredths of a percent: 0.01 % to 98 %. */
export const DICE_CHANCE_MIN = 1;
export const DICE_CHANCE_MAX = 9_800;

export type DiceDirection = 'under' | 'over';

export interface DiceParams {
  /** Hundredths: 4950 is 49.50. */
  target: number;
  /** 'under' wins when roll < target, 'over' when roll > target; a roll equal to the target loses. */
  direction: DiceDirection;
}

export interface DiceOutcome {
  /** Hundredths, 0 to 10000. */
  roll: number;
  win: boolean;
  /** The bet's multiplier, paid when `win` (the bet is lost otherwise). */
  multiplier: Ratio;
}

export type DiceParamsError = 'dice.target' | 'dice.direction' | 'dice.chance';

/** Win chance in hundredths of a percent, as the player sees it: under 49.50 is 49.50 %, over 49.50 is 50.50 %. */
export function diceChance(params: DiceParams): number {
  return params.direction === 'under' ? params.target : DICE_ROLL_MAX - params.target;
}

/** The error code of a bet's parameters, or null when they are playable. */
export function diceParamsError(params: DiceParams): DiceParamsError | null {
  if (params.direction !== 'under' && params.direction !== 'over') return 'dice.direction';
  if (!Number.isInteger(params.target) || params.target < 0 || params.target > DICE_ROLL_MAX) return 'dice.target';
  const chance = diceChance(params);
  if (chance < DICE_CHANCE_MIN || chance > DICE_CHANCE_MAX) return 'dice.chance';
  return null;
}

/** 99 / (chance in percent) = 9900 / (chance in hundredths of a percent). */
export function diceMultiplier(params: DiceParams): Ratio {
  return ratio(9_900, diceChance(params));
}

export function numbersNeeded(_params: DiceParams): number {
  return 1;
}

/** floor(N × 10001 / 2^32): N × 10001 < 2^46 and the division is by a power of two, so a double computes it exactly. */
export function diceRoll(n: number): number {
  return Math.floor((n * (DICE_ROLL_MAX + 1)) / NUMBER_RANGE);
}

export function diceOutcome(numbers: number[], params: DiceParams): DiceOutcome {
  const [n] = numbers;
  if (n === undefined) throw new RangeError('Dice needs one number');
  const roll = diceRoll(n);
  const win = params.direction === 'under' ? roll < params.target : roll > params.target;
  return { roll, win, multiplier: diceMultiplier(params) };
}

/**
 * The exact return to player of a bet: (how many of the 2^32 numbers win) / 2^32 × multiplier.
 * The 10001 rolls do not split 2^32 numbers evenly, so this is close to, not exactly, 99 %.
 *   under T: roll < T  ⟺ N × 10001 < T × 2^32        → ceil(T × 2^32 / 10001) numbers
 *   over T:  roll > T  ⟺ N × 10001 ≥ (T + 1) × 2^32  → 2^32 − ceil((T + 1) × 2^32 / 10001) numbers
 */
export function diceReturnToPlayer(params: DiceParams): Ratio {
  const range = BigInt(NUMBER_RANGE);
  const rolls = BigInt(DICE_ROLL_MAX + 1);
  const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;
  const target = BigInt(params.target);
  const winning = params.direction === 'under' ? ceilDiv(target * range, rolls) : range - ceilDiv((target + 1n) * range, rolls);
  const m = diceMultiplier(params);
  return ratio(winning * m.num, range * m.den);
}
