/**
 * Mines (docs/fairness.md, "Mines"): a 5 × 5 board (tiles 0 to 24, row by row from the top left) with
 * 1 to 24 mines. The player reveals tiles one at a time and may cash out after any safe one; a mine
 * ends the round with nothing. The whole board is drawn when the bet is placed, from `mineCount` numbers:
 * number i picks one of the 25 − i tiles still free, floor(N_i × (25 − i) / 2^32) counting through them in
 * ascending tile order, so no tile is drawn twice.
 */
import { NUMBER_RANGE } from './random.ts';
import { ratio, type Ratio } from './ratio.ts';

export const MINES_TILES = 25;
export const MINES_COUNT_MIN = 1;
export const MINES_COUNT_MAX = 24;

export interface MinesParams {
  /** 1 to 24. */
  mineCount: number;
}

export interface MinesOutcome {
  /** The mined tiles (0 to 24), in the order they were drawn. */
  mines: number[];
}

export type MinesParamsError = 'mines.count';

export function minesParamsError(params: MinesParams): MinesParamsError | null {
  const { mineCount } = params;
  return Number.isInteger(mineCount) && mineCount >= MINES_COUNT_MIN && mineCount <= MINES_COUNT_MAX ? null : 'mines.count';
}

export function numbersNeeded(params: MinesParams): number {
  return params.mineCount;
}

export function minesOutcome(numbers: number[], params: MinesParams): MinesOutcome {
  if (numbers.length < params.mineCount) throw new RangeError(`Mines with ${params.mineCount} mines needs ${params.mineCount} numbers`);
  const free = Array.from({ length: MINES_TILES }, (_, tile) => tile);
  const mines: number[] = [];
  for (let i = 0; i < params.mineCount; i += 1) {
    // N × (25 − i) < 2^37, and the division is by a power of two: exact in a double.
    const index = Math.floor(((numbers[i] ?? 0) * free.length) / NUMBER_RANGE);
    mines.push(...free.splice(index, 1));
  }
  return { mines };
}

function choose(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i += 1) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

function checkReveals(mineCount: number, safeReveals: number): void {
  if (!Number.isInteger(mineCount) || mineCount < MINES_COUNT_MIN || mineCount > MINES_COUNT_MAX) throw new RangeError(`No board has ${mineCount} mines`);
  if (!Number.isInteger(safeReveals) || safeReveals < 1 || safeReveals > MINES_TILES - mineCount) {
    throw new RangeError(`With ${mineCount} mines a player reveals 1 to ${MINES_TILES - mineCount} safe tiles, not ${safeReveals}`);
  }
}

/**
 * The cash-out multiplier after `safeReveals` safe tiles: 0.99 × C(25, k) / C(25 − m, k), the inverse of
 * the chance that k tiles picked on a fair board are all safe, less 1 %. Exact: ×1.03125 is paid as such.
 */
export function minesMultiplier(mineCount: number, safeReveals: number): Ratio {
  checkReveals(mineCount, safeReveals);
  return ratio(99n * choose(MINES_TILES, safeReveals), 100n * choose(MINES_TILES - mineCount, safeReveals));
}

/**
 * The return of cashing out after `safeReveals` safe tiles on a uniformly drawn board:
 * P(k safe) × multiplier = C(25 − m, k) / C(25, k) × 0.99 × C(25, k) / C(25 − m, k) = 99 %, whichever tiles
 * are picked, and however the player decides when to stop. The draw's floor(N × r / 2^32) gives each of
 * the r free tiles a chance within a factor 1 ± r / 2^32 of 1 / r, so a real board's chance is within
 * 1 ± 1.4 × 10^-7 of a uniform one's, and any way of playing returns 99 % ± 0.000014 percentage points.
 */
export function minesReturnToPlayer(mineCount: number, safeReveals: number): Ratio {
  checkReveals(mineCount, safeReveals);
  const survival = ratio(choose(MINES_TILES - mineCount, safeReveals), choose(MINES_TILES, safeReveals));
  const m = minesMultiplier(mineCount, safeReveals);
  return ratio(survival.num * m.num, survival.den * m.den);
}
