import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minesMultiplier, minesOutcome, minesParamsError, minesReturnToPlayer, numbersNeeded as minesNumbers } from '../../../src/fairness/mines.ts';
import {
  numbersNeeded as plinkoNumbers,
  PLINKO_RISKS,
  PLINKO_TABLES,
  plinkoOutcome,
  plinkoParamsError,
  plinkoReturnToPlayer,
  type PlinkoRisk,
} from '../../../src/fairness/plinko.ts';
import { ratio } from '../../../src/fairness/ratio.ts';
import { hmacNumbers, PAIR, percent, TWO_32 } from './vectors.ts';

const uint32 = fc.integer({ min: 0, max: 2 ** 32 - 1 });

/** The draw, written again: number i picks floor(N × free / 2^32) among the free tiles in ascending order. */
function drawMines(numbers: number[], mineCount: number): number[] {
  const free = Array.from({ length: 25 }, (_, tile) => tile);
  const mines: number[] = [];
  for (let i = 0; i < mineCount; i += 1) {
    const index = Number((BigInt(numbers[i] ?? -1) * BigInt(free.length)) / TWO_32);
    mines.push(free[index] ?? -1);
    free.splice(index, 1);
  }
  return mines;
}

function choose(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 1; i <= k; i += 1) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
}

describe('mines', () => {
  it('draws the fixed vector as the rule says', () => {
    const numbers = hmacNumbers(PAIR.serverSeed, PAIR.clientSeed, PAIR.nonce, 24);
    // 620919225 × 25 / 2^32 = 3.61: tile 3; 1190448068 × 24 / 2^32 = 6.65: index 6 of 0, 1, 2, 4, 5, 6, 7, …: tile 7;
    // 1165305317 × 23 / 2^32 = 6.24: index 6 of 0, 1, 2, 4, 5, 6, 8, …: tile 8.
    expect(minesOutcome(numbers, { mineCount: 3 })).toEqual({ mines: [3, 7, 8] });
    expect(minesOutcome(numbers, { mineCount: 3 }).mines).toEqual(drawMines(numbers, 3));
    expect(minesOutcome(numbers, { mineCount: 24 }).mines).toEqual(drawMines(numbers, 24));
    expect(minesNumbers({ mineCount: 24 })).toBe(24);
  });

  it('never puts two mines on one tile, whatever the numbers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 24 }), fc.array(uint32, { minLength: 24, maxLength: 24 }), (mineCount, numbers) => {
        const { mines } = minesOutcome(numbers, { mineCount });
        expect(mines).toHaveLength(mineCount);
        expect(new Set(mines).size).toBe(mineCount);
        expect(mines.every((tile) => Number.isInteger(tile) && tile >= 0 && tile <= 24)).toBe(true);
        expect(mines).toEqual(drawMines(numbers, mineCount));
      }),
    );
    // The extremes of every draw: all zeros take the lowest free tile, all maxima the highest.
    expect(minesOutcome(Array<number>(24).fill(0), { mineCount: 24 }).mines).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(minesOutcome(Array<number>(24).fill(2 ** 32 - 1), { mineCount: 24 }).mines).toEqual(Array.from({ length: 24 }, (_, i) => 24 - i));
  });

  it('accepts 1 to 24 mines', () => {
    expect(minesParamsError({ mineCount: 1 })).toBeNull();
    expect(minesParamsError({ mineCount: 24 })).toBeNull();
    for (const bad of [0, 25, 2.5, Number.NaN]) expect(minesParamsError({ mineCount: bad }), String(bad)).toBe('mines.count');
  });

  it('pays 0.99 × C(25, k) / C(25 − m, k) after k safe tiles', () => {
    expect(minesMultiplier(1, 1)).toEqual({ num: 33n, den: 32n }); // ×1.03125
    expect(minesMultiplier(24, 1)).toEqual({ num: 99n, den: 4n }); // ×24.75
    expect(minesMultiplier(3, 22)).toEqual({ num: 2277n, den: 1n }); // 0.99 × C(25, 22)
    expect(minesMultiplier(12, 13)).toEqual(ratio(99n * 5_200_300n, 100n)); // 0.99 × C(25, 13)
    expect(() => minesMultiplier(3, 0)).toThrow(RangeError);
    expect(() => minesMultiplier(3, 23)).toThrow(RangeError);
    for (let m = 1; m <= 24; m += 1) {
      for (let k = 1; k <= 25 - m; k += 1) {
        expect(minesMultiplier(m, k)).toEqual(ratio(99n * choose(25, k), 100n * choose(25 - m, k)));
        // Survive k picks on a fair board, then cash out: exactly 99 %.
        expect(minesReturnToPlayer(m, k)).toEqual({ num: 99n, den: 100n });
      }
    }
  });

  it('gives every free tile a share of the 2^32 numbers within one number of the others (the bound docs/fairness.md uses)', () => {
    for (let free = 2; free <= 25; free += 1) {
      const f = BigInt(free);
      const first = (index: bigint): bigint => (index * TWO_32 + f - 1n) / f; // smallest N with floor(N × free / 2^32) ≥ index
      const shares = Array.from({ length: free }, (_, i) => first(BigInt(i) + 1n) - first(BigInt(i)));
      expect(shares.reduce((a, b) => a + b, 0n)).toBe(TWO_32);
      expect(shares.every((share) => share === TWO_32 / f || share === TWO_32 / f + 1n)).toBe(true);
    }
  });
});

/** Σ C(n, b) × multiplier, over 100 × 2^n, as a percentage truncated to 4 decimals: written here from the tables. */
const DECLARED_RTP: Record<PlinkoRisk, Record<number, string>> = {
  low: { 8: '98.9843', 9: '98.9843', 10: '98.9941', 11: '98.9990', 12: '98.9892', 13: '98.9990', 14: '98.9978', 15: '98.9996', 16: '98.9999' },
  medium: { 8: '98.9062', 9: '98.9843', 10: '98.9062', 11: '98.9746', 12: '98.9892', 13: '98.9916', 14: '98.9953', 15: '98.9978', 16: '98.9892' },
  high: { 8: '98.9843', 9: '98.8281', 10: '98.9648', 11: '98.9892', 12: '98.9843', 13: '98.9819', 14: '98.9416', 15: '98.9813', 16: '98.9859' },
};

describe('plinko', () => {
  it('drops the fixed vector as the rule says: a number below 2^31 steps left', () => {
    const numbers = hmacNumbers(PAIR.serverSeed, PAIR.clientSeed, PAIR.nonce, 16);
    const path = numbers.map((n) => (n < 2 ** 31 ? 'L' : 'R'));
    const bucket = path.filter((step) => step === 'R').length;
    expect(path.slice(0, 4)).toEqual(['L', 'L', 'L', 'R']); // 620919225, 1190448068, 1165305317, 3941309808
    const outcome = plinkoOutcome(numbers, { rows: 16, risk: 'high' });
    expect(outcome).toEqual({ path, bucket, multiplier: ratio(PLINKO_TABLES.high[16]?.[bucket] ?? -1, 100) });
    expect(plinkoOutcome(numbers, { rows: 8, risk: 'low' }).path).toEqual(path.slice(0, 8));
    expect(plinkoNumbers({ rows: 12, risk: 'medium' })).toBe(12);
  });

  it('lands in the bucket that counts the right steps, the edges at 2^31 − 1 and 2^31', () => {
    expect(plinkoOutcome(Array<number>(8).fill(2 ** 31 - 1), { rows: 8, risk: 'high' })).toMatchObject({ bucket: 0, multiplier: { num: 29n, den: 1n } });
    expect(plinkoOutcome(Array<number>(16).fill(2 ** 31), { rows: 16, risk: 'high' })).toMatchObject({ bucket: 16, multiplier: { num: 1000n, den: 1n } });
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 16 }), fc.constantFrom(...PLINKO_RISKS), fc.array(uint32, { minLength: 16, maxLength: 16 }), (rows, risk, numbers) => {
        const { path, bucket } = plinkoOutcome(numbers, { rows, risk });
        expect(path).toHaveLength(rows);
        expect(bucket).toBe(path.filter((step) => step === 'R').length);
      }),
    );
  });

  it('accepts 8 to 16 rows and three risks', () => {
    expect(plinkoParamsError({ rows: 8, risk: 'low' })).toBeNull();
    expect(plinkoParamsError({ rows: 16, risk: 'high' })).toBeNull();
    expect(plinkoParamsError({ rows: 7, risk: 'low' })).toBe('plinko.rows');
    expect(plinkoParamsError({ rows: 17, risk: 'low' })).toBe('plinko.rows');
    expect(plinkoParamsError({ rows: 12.5, risk: 'low' })).toBe('plinko.rows');
    expect(plinkoParamsError({ rows: 12, risk: 'extreme' as 'low' })).toBe('plinko.risk');
  });

  it('has a symmetric table per rows and risk, rising to the edges, returning its declared value at most 99 %', () => {
    for (const risk of PLINKO_RISKS) {
      for (let rows = 8; rows <= 16; rows += 1) {
        const table = PLINKO_TABLES[risk][rows] ?? [];
        expect(table).toHaveLength(rows + 1);
        expect([...table].reverse()).toEqual(table);
        for (let b = 1; b <= rows / 2; b += 1) expect(table[b] ?? 0).toBeLessThanOrEqual(table[b - 1] ?? 0);
        const weighted = table.reduce((sum, m, b) => sum + choose(rows, b) * BigInt(m), 0n);
        const den = 100n * 2n ** BigInt(rows);
        const rtp = plinkoReturnToPlayer({ rows, risk });
        expect(rtp).toEqual(ratio(weighted, den));
        expect(percent(rtp.num, rtp.den, 4), `${risk} ${rows}`).toBe(DECLARED_RTP[risk][rows]);
        expect(rtp.num * 100n).toBeLessThanOrEqual(99n * rtp.den);
      }
    }
  });
});
