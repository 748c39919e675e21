import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diceChance, diceOutcome, diceParamsError, diceReturnToPlayer, numbersNeeded as diceNumbers, type DiceParams } from '../../../src/fairness/dice.ts';
import { limboOutcome, limboParamsError, limboReturnToPlayer, numbersNeeded as limboNumbers } from '../../../src/fairness/limbo.ts';
import { ratio, ratioToFixed } from '../../../src/fairness/ratio.ts';
import { hmacNumbers, PAIR, percent, TWO_32 } from './vectors.ts';

const MAX_N = 2 ** 32 - 1;

/** roll = floor(N × 10001 / 2^32), in hundredths: the formula, in bigints. */
const rollOf = (n: number): number => Number((BigInt(n) * 10001n) / TWO_32);
/** result = floor(99 × 2^32 / N) in hundredths, 1.00 to 1,000,000.00, N = 0 the most. */
const limboOf = (n: number): number => {
  if (n === 0) return 100_000_000;
  const raw = Number((99n * TWO_32) / BigInt(n));
  return Math.min(100_000_000, Math.max(100, raw));
};

/** The smallest N (0 to 2^32) for which `reached(N)` holds, `reached` false then true as N grows. */
function firstN(reached: (n: number) => boolean): number {
  let low = 0;
  let high = 2 ** 32;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (reached(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

describe('dice', () => {
  it('rolls the fixed vector as the formula says', () => {
    const numbers = hmacNumbers(PAIR.serverSeed, PAIR.clientSeed, PAIR.nonce, 1);
    const roll = rollOf(numbers[0] ?? -1);
    expect(roll).toBe(1445); // 620919225 × 10001 / 2^32 = 1445.83…: a roll of 14.45
    const under: DiceParams = { target: 5000, direction: 'under' };
    expect(diceOutcome(numbers, under)).toEqual({ roll, win: true, multiplier: { num: 99n, den: 50n } });
    expect(diceOutcome(numbers, { target: 1445, direction: 'under' }).win).toBe(false);
    expect(diceOutcome(numbers, { target: 1446, direction: 'under' }).win).toBe(true);
    expect(diceOutcome(numbers, { target: 1445, direction: 'over' }).win).toBe(false);
    expect(diceOutcome(numbers, { target: 1444, direction: 'over' })).toEqual({ roll, win: true, multiplier: ratio(9900, 10000 - 1444) });
    expect(diceNumbers(under)).toBe(1);
  });

  it('rolls 0.00 at N = 0 and 100.00 at N = 2^32 − 1', () => {
    expect(diceOutcome([0], { target: 1, direction: 'under' })).toEqual({ roll: 0, win: true, multiplier: { num: 9900n, den: 1n } });
    expect(diceOutcome([MAX_N], { target: 9999, direction: 'over' })).toEqual({ roll: 10000, win: true, multiplier: { num: 9900n, den: 1n } });
    expect(diceOutcome([MAX_N], { target: 9800, direction: 'under' }).win).toBe(false);
  });

  it('rolls as the formula for any number', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_N }), (n) => diceOutcome([n], { target: 5000, direction: 'over' }).roll === rollOf(n)));
  });

  it('accepts targets in hundredths with a win chance from 0.01 % to 98 %', () => {
    expect(diceParamsError({ target: 1, direction: 'under' })).toBeNull();
    expect(diceParamsError({ target: 9800, direction: 'under' })).toBeNull();
    expect(diceParamsError({ target: 200, direction: 'over' })).toBeNull();
    expect(diceParamsError({ target: 9999, direction: 'over' })).toBeNull();
    expect(diceParamsError({ target: 0, direction: 'under' })).toBe('dice.chance');
    expect(diceParamsError({ target: 9801, direction: 'under' })).toBe('dice.chance');
    expect(diceParamsError({ target: 199, direction: 'over' })).toBe('dice.chance');
    expect(diceParamsError({ target: 10000, direction: 'over' })).toBe('dice.chance');
    expect(diceParamsError({ target: 49.5, direction: 'under' })).toBe('dice.target');
    expect(diceParamsError({ target: 10001, direction: 'over' })).toBe('dice.target');
    expect(diceParamsError({ target: -1, direction: 'over' })).toBe('dice.target');
    expect(diceParamsError({ target: 5000, direction: 'sideways' as 'over' })).toBe('dice.direction');
    expect(diceChance({ target: 4950, direction: 'over' })).toBe(5050);
  });

  it('returns exactly the winning share of the 2^32 numbers times 99 / chance, just under 99 %', () => {
    const check = (params: DiceParams): void => {
      const winning =
        params.direction === 'under' ? firstN((n) => rollOf(n) >= params.target) : 2 ** 32 - firstN((n) => rollOf(n) >= params.target + 1);
      const chance = BigInt(diceChance(params));
      const expected = ratio(BigInt(winning) * 9900n, TWO_32 * chance);
      const rtp = diceReturnToPlayer(params);
      expect(rtp).toEqual(expected);
      const shown = percent(rtp.num, rtp.den, 4);
      expect(Number(shown)).toBeGreaterThanOrEqual(98.98);
      expect(Number(shown)).toBeLessThanOrEqual(99);
    };
    for (const chance of [1, 2, 100, 4950, 5000, 9800]) {
      check({ target: chance, direction: 'under' });
      check({ target: 10000 - chance, direction: 'over' });
    }
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9800 }), fc.boolean(), (chance, under) => {
        check(under ? { target: chance, direction: 'under' } : { target: 10000 - chance, direction: 'over' });
      }),
      { numRuns: 200 },
    );
    // The common bet: under 50.00 returns 98.9901… %, a 1 % edge less the one roll in 10001 the 2^32 numbers cannot split.
    expect(ratioToFixed(diceReturnToPlayer({ target: 5000, direction: 'under' }), 6)).toBe('0.989901');
  });
});

describe('limbo', () => {
  it('plays the fixed vector as the formula says', () => {
    const numbers = hmacNumbers(PAIR.serverSeed, PAIR.clientSeed, PAIR.nonce, 1);
    const result = limboOf(numbers[0] ?? -1);
    expect(result).toBe(684); // 99 × 2^32 / 620919225 = 684.79…: ×6.84
    expect(limboOutcome(numbers, { target: 684 })).toEqual({ result, win: true, multiplier: { num: 171n, den: 25n } });
    expect(limboOutcome(numbers, { target: 685 })).toEqual({ result, win: false, multiplier: { num: 137n, den: 20n } });
    expect(limboNumbers({ target: 200 })).toBe(1);
  });

  it('gives the maximum at N = 0 and at the smallest numbers, the minimum at the largest', () => {
    expect(limboOutcome([0], { target: 100_000_000 })).toMatchObject({ result: 100_000_000, win: true });
    expect(limboOutcome([1], { target: 100_000_000 })).toMatchObject({ result: 100_000_000, win: true });
    expect(limboOutcome([4252], { target: 100_000_000 })).toMatchObject({ result: 100_000_000, win: true });
    expect(limboOutcome([4253], { target: 100_000_000 })).toMatchObject({ result: 99_976_901, win: false });
    expect(limboOutcome([MAX_N], { target: 101 })).toMatchObject({ result: 100, win: false });
    // 99 × 2^32 / 200 = 2126008811.52: the last number that reaches ×2.00 and the first that does not.
    expect(limboOutcome([2126008811], { target: 200 })).toMatchObject({ result: 200, win: true });
    expect(limboOutcome([2126008812], { target: 200 })).toMatchObject({ result: 199, win: false });
  });

  it('computes the result as the formula for any number', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_N }), (n) => limboOutcome([n], { target: 200 }).result === limboOf(n)));
  });

  it('accepts targets from 1.01 to 1,000,000.00 in hundredths', () => {
    expect(limboParamsError({ target: 101 })).toBeNull();
    expect(limboParamsError({ target: 100_000_000 })).toBeNull();
    for (const bad of [100, 100_000_001, 150.5, Number.NaN, -200]) expect(limboParamsError({ target: bad }), String(bad)).toBe('limbo.target');
  });

  it('returns exactly the winning share of the 2^32 numbers times the target', () => {
    const check = (target: number): void => {
      // The result never rises as N grows: count the numbers before the first that misses the target.
      const winning = firstN((n) => limboOf(n) < target);
      expect(limboReturnToPlayer({ target })).toEqual(ratio(BigInt(winning) * BigInt(target), TWO_32 * 100n));
    };
    for (const target of [101, 200, 1000, 9900, 100_000, 1_000_000, 100_000_000]) check(target);
    fc.assert(fc.property(fc.integer({ min: 101, max: 100_000_000 }), check), { numRuns: 200 });
    // A hair over 99 %: the winning numbers are 0 to floor(99 × 2^32 / T), one more than 99 % × 2^32 / T
    // rounded down, which weighs most at the largest targets.
    const shown = (target: number): string => percent(limboReturnToPlayer({ target }).num, limboReturnToPlayer({ target }).den, 8);
    expect(shown(200)).toBe('99.00000002');
    expect(shown(100_000_000)).toBe('99.02287274');
  });
});
