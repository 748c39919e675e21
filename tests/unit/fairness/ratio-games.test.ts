import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { diceOutcome } from '../../../src/fairness/dice.ts';
import { HOUSE_GAMES, isHouseGame, numbersNeeded, outcome, paramsError, verify, type HouseGame, type HouseGameParams } from '../../../src/fairness/games.ts';
import { limboOutcome } from '../../../src/fairness/limbo.ts';
import { minesOutcome } from '../../../src/fairness/mines.ts';
import { plinkoOutcome } from '../../../src/fairness/plinko.ts';
import { addRatios, compareRatios, multiplyRatios, payout, ratio, ratioToFixed } from '../../../src/fairness/ratio.ts';
import { DEFAULT_SLOT_SKIN, slotOutcome } from '../../../src/fairness/slot.ts';
import { hmacNumbers, PAIR, sha256 } from './vectors.ts';

describe('ratios', () => {
  it('are kept in lowest terms with a positive denominator', () => {
    expect(ratio(9900, 5000)).toEqual({ num: 99n, den: 50n });
    expect(ratio(3n, -6n)).toEqual({ num: -1n, den: 2n });
    expect(ratio(0, 7)).toEqual({ num: 0n, den: 1n });
    expect(() => ratio(1, 0)).toThrow(RangeError);
    expect(addRatios(ratio(1, 3), ratio(1, 6))).toEqual({ num: 1n, den: 2n });
    expect(multiplyRatios(ratio(2, 3), ratio(9, 4))).toEqual({ num: 3n, den: 2n });
    expect(compareRatios(ratio(99, 100), ratio(98, 99))).toBe(1);
    expect(compareRatios(ratio(1, 2), ratio(2, 4))).toBe(0);
  });

  it('pay floor(bet × num / den) in units of 1e-8', () => {
    expect(payout(100_000_000n, ratio(99, 50))).toBe(198_000_000n); // 1 coin at ×1.98
    expect(payout(1n, ratio(99, 50))).toBe(1n); // 1.98 units: the fraction stays with the house
    expect(payout(3n, ratio(1, 3))).toBe(1n);
    expect(payout(0n, ratio(1000, 1))).toBe(0n);
    expect(payout(123_456_789n, ratio(33, 32))).toBe(127_314_813n); // 127314813.65…
    expect(() => payout(-1n, ratio(2, 1))).toThrow(RangeError);
  });

  it('are shown with fixed decimals, rounded down', () => {
    expect(ratioToFixed(ratio(99, 49), 2)).toBe('2.02');
    expect(ratioToFixed(ratio(2, 3), 4)).toBe('0.6666');
    expect(ratioToFixed(ratio(1, 200), 2)).toBe('0.00');
    expect(ratioToFixed(ratio(1_000_000, 1), 2)).toBe('1000000.00');
    expect(ratioToFixed(ratio(7, 2), 0)).toBe('3');
  });
});

describe('the games dispatcher', () => {
  const PARAMS: HouseGameParams = {
    dice: { target: 5000, direction: 'under' },
    limbo: { target: 200 },
    mines: { mineCount: 5 },
    plinko: { rows: 12, risk: 'medium' },
    slot: { skin: DEFAULT_SLOT_SKIN },
  };

  it('recomputes each game from the seeds as its own module does', async () => {
    const numbers = hmacNumbers(PAIR.serverSeed, PAIR.clientSeed, PAIR.nonce, 16);
    const expected = {
      dice: diceOutcome(numbers, PARAMS.dice),
      limbo: limboOutcome(numbers, PARAMS.limbo),
      mines: minesOutcome(numbers, PARAMS.mines),
      plinko: plinkoOutcome(numbers, PARAMS.plinko),
      slot: slotOutcome(numbers, PARAMS.slot),
    };
    const needed = { dice: 1, limbo: 1, mines: 5, plinko: 12, slot: 5 };
    const check = async <G extends HouseGame>(game: G): Promise<void> => {
      expect(numbersNeeded(game, PARAMS[game])).toBe(needed[game]);
      expect(outcome(game, numbers, PARAMS[game])).toEqual(expected[game]);
      expect(await verify(game, PAIR, PARAMS[game])).toEqual({
        ok: true,
        serverSeedHash: sha256(PAIR.serverSeed),
        numbers: numbers.slice(0, needed[game]),
        outcome: expected[game],
      });
    };
    for (const game of HOUSE_GAMES) await check(game);
  });

  it('answers bad input with a code', async () => {
    expect(await verify('dice', { ...PAIR, serverSeed: 'nope' }, PARAMS.dice)).toEqual({ ok: false, error: 'seed.server' });
    expect(await verify('dice', { ...PAIR, clientSeed: '' }, PARAMS.dice)).toEqual({ ok: false, error: 'seed.client' });
    expect(await verify('dice', { ...PAIR, nonce: -3 }, PARAMS.dice)).toEqual({ ok: false, error: 'seed.nonce' });
    expect(await verify('limbo', PAIR, { target: 100 })).toEqual({ ok: false, error: 'limbo.target' });
    expect(await verify('plinko', PAIR, { rows: 20, risk: 'low' })).toEqual({ ok: false, error: 'plinko.rows' });
    expect(await verify('slot', PAIR, { skin: { ...DEFAULT_SLOT_SKIN, reels: [] } })).toEqual({ ok: false, error: 'slot.skin' });
    expect(paramsError('mines', { mineCount: 25 })).toBe('mines.count');
    expect(paramsError('dice', { target: 9900, direction: 'under' })).toBe('dice.chance');
    expect(isHouseGame('plinko')).toBe(true);
    expect(isHouseGame('roulette')).toBe(false);
  });
});

describe('the fairness library boundary (eslint.config.js)', () => {
  const eslint = new ESLint();
  const problems = async (code: string): Promise<string[]> => {
    const [result] = await eslint.lintText(code, { filePath: 'src/fairness/dice.ts' });
    return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
  };

  it.each([
    "import { createHmac } from 'node:crypto';\nexport const x = createHmac;",
    "import { createHmac } from 'crypto';\nexport const x = createHmac;",
    "import { readFile } from 'fs/promises';\nexport const x = readFile;",
    "import { useState } from 'react';\nexport const x = useState;",
    "import { en } from '../i18n/en.ts';\nexport const x = en;",
    "import { createApiClient } from '../api/client.ts';\nexport const x = createApiClient;",
    "import { appMachine } from '../machines/app.machine.ts';\nexport const x = appMachine;",
    "import { App } from '../views/App.tsx';\nexport const x = App;",
  ])('refuses %s', async (code) => {
    expect(await problems(code)).toContain('no-restricted-imports');
  });

  it('allows its own modules and money', async () => {
    expect(await problems("import { ratio } from './ratio.ts';\nimport { parseAmount } from '../money.ts';\nexport const x = [ratio, parseAmount];")).toEqual([]);
  });
});
