import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addRatios, ratio, ZERO, type Ratio } from '../../../src/fairness/ratio.ts';
import {
  DEFAULT_SLOT_SKIN,
  numbersNeeded,
  SLOT_PAYLINES,
  SLOT_THEMES,
  slotOutcome,
  slotParamsError,
  slotReturnToPlayer,
  slotSkin,
  type SlotSkin,
} from '../../../src/fairness/slot.ts';
import { hmacNumbers, PAIR, percent, TWO_32 } from './vectors.ts';

/** A payline's pay in hundredths of the line bet, by the rule: reel 1's symbol repeated from reel 1, 3 or more. */
function linePay(skin: SlotSkin, symbols: number[]): { symbol: number; count: number; pay: number } {
  const symbol = symbols[0] ?? -1;
  let count = 0;
  while (count < symbols.length && symbols[count] === symbol) count += 1;
  return { symbol, count, pay: count >= 3 ? (skin.paytable[symbol]?.[count - 3] ?? 0) : 0 };
}

/** The exact return, counted another way: every combination of one symbol per reel, weighted by its stops. */
function returnBySymbols(skin: SlotSkin): Ratio {
  const counts = skin.reels.map((strip) => skin.symbols.map((_, symbol) => BigInt(strip.filter((s) => s === symbol).length)));
  const all = skin.reels.reduce((product, strip) => product * BigInt(strip.length), 1n);
  let weighted = 0n;
  const walk = (reel: number, symbols: number[], weight: bigint): void => {
    if (weight === 0n) return;
    if (reel === 5) {
      weighted += weight * BigInt(linePay(skin, symbols).pay);
      return;
    }
    skin.symbols.forEach((_, symbol) => walk(reel + 1, [...symbols, symbol], weight * (counts[reel]?.[symbol] ?? 0n)));
  };
  walk(0, [], 1n);
  return ratio(weighted, 100n * all);
}

describe('the slot', () => {
  it('spins the fixed vector as the rules say', () => {
    const skin = DEFAULT_SLOT_SKIN;
    const numbers = hmacNumbers(PAIR.serverSeed, PAIR.clientSeed, PAIR.nonce, 5);
    const stops = numbers.map((n, reel) => Number((BigInt(n) * BigInt(skin.reels[reel]?.length ?? 0)) / TWO_32));
    expect(stops).toEqual(numbers.map((n) => Math.floor(n / 2 ** 27))); // 32-stop strips: the top five bits
    const grid = [0, 1, 2].map((row) => skin.reels.map((strip, reel) => strip[((stops[reel] ?? 0) + row) % strip.length] ?? -1));
    const lines = skin.paylines.flatMap((rows, line) => {
      const win = linePay(
        skin,
        rows.map((row, reel) => grid[row]?.[reel] ?? -1),
      );
      return win.pay > 0 ? [{ line, symbol: win.symbol, count: win.count, pay: ratio(win.pay, 100 * skin.paylines.length) }] : [];
    });
    const multiplier = lines.reduce((sum, line) => addRatios(sum, line.pay), ZERO);
    expect(slotOutcome(numbers, { skin })).toEqual({ stops, grid, lines, multiplier });
    expect(numbersNeeded({ skin })).toBe(5);
  });

  it('pays a line left to right from reel 1 only, and adds the lines up over the bet', () => {
    // Four-stop strips of two symbols: reel r shows symbol 0 on rows 0 and 1 at stop 0.
    const skin: SlotSkin = {
      theme: 'test',
      symbols: [
        { key: 'a', glyph: 'A' },
        { key: 'b', glyph: 'B' },
      ],
      reels: Array.from({ length: 5 }, () => [0, 0, 1, 1]),
      paylines: [
        [0, 0, 0, 0, 0],
        [1, 1, 1, 1, 1],
        [2, 2, 2, 2, 2],
        [0, 0, 0, 2, 2],
      ],
      paytable: [
        [100, 200, 500],
        [10, 20, 50],
      ],
    };
    const at = (stop: number): number => stop * 2 ** 30; // the first number of that stop on a 4-stop strip
    const outcome = slotOutcome([at(0), at(0), at(0), at(0), at(0)], { skin });
    expect(outcome.grid).toEqual([
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [1, 1, 1, 1, 1],
    ]);
    expect(outcome.lines).toEqual([
      { line: 0, symbol: 0, count: 5, pay: ratio(500, 400) },
      { line: 1, symbol: 0, count: 5, pay: ratio(500, 400) },
      { line: 2, symbol: 1, count: 5, pay: ratio(50, 400) },
      { line: 3, symbol: 0, count: 3, pay: ratio(100, 400) },
    ]);
    expect(outcome.multiplier).toEqual(ratio(500 + 500 + 50 + 100, 400));
    // A break on reel 1 pays nothing, even with five of a kind after it.
    const broken = slotOutcome([at(2), at(0), at(0), at(0), at(0)], { skin });
    expect(broken.lines.find((line) => line.line === 0)).toBeUndefined();
  });

  it('returns exactly the average of every stop combination', () => {
    const skin: SlotSkin = {
      theme: 'test',
      symbols: [
        { key: 'a', glyph: 'A' },
        { key: 'b', glyph: 'B' },
        { key: 'c', glyph: 'C' },
      ],
      reels: [
        [0, 1, 2, 0],
        [1, 0, 0, 2],
        [2, 2, 0, 1],
        [0, 1, 1, 1],
        [0, 2, 1, 0],
      ],
      paylines: SLOT_PAYLINES.slice(0, 7).map((line) => [...line]),
      paytable: [
        [30, 90, 400],
        [40, 100, 900],
        [50, 250, 1000],
      ],
    };
    let total = ZERO;
    for (let combination = 0; combination < 4 ** 5; combination += 1) {
      const numbers = [0, 1, 2, 3, 4].map((reel) => Math.floor(combination / 4 ** reel) % 4).map((stop) => stop * 2 ** 30 + 12345);
      total = addRatios(total, slotOutcome(numbers, { skin }).multiplier);
    }
    expect(slotReturnToPlayer(skin)).toEqual(ratio(total.num, total.den * 4n ** 5n));
    expect(slotReturnToPlayer(skin)).toEqual(returnBySymbols(skin));
  });

  it('refuses a skin it could not play or whose return would not be exact', () => {
    const good = DEFAULT_SLOT_SKIN;
    expect(slotParamsError({ skin: good })).toBeNull();
    const bad: SlotSkin[] = [
      { ...good, reels: good.reels.slice(0, 4) },
      { ...good, reels: [good.reels[0]?.slice(0, 30) ?? [], ...good.reels.slice(1)] }, // 30 stops: not a power of two
      { ...good, reels: [[...(good.reels[0] ?? []).slice(0, 31), 99], ...good.reels.slice(1)] },
      { ...good, paylines: [] },
      { ...good, paylines: [[0, 1, 2, 3, 0]] },
      { ...good, paytable: good.paytable.slice(1) },
      { ...good, paytable: [[1, 2], ...good.paytable.slice(1)] },
      { ...good, paytable: [[-1, 2, 3], ...good.paytable.slice(1)] },
      { ...good, symbols: [] },
    ];
    for (const skin of bad) expect(slotParamsError({ skin })).toBe('slot.skin');
  });
});

describe('slot skins', () => {
  it('are the same for the same seed and return, and differ between seeds', () => {
    expect(slotSkin(1234, 9600)).toEqual(slotSkin(1234, 9600));
    expect(slotSkin(1, 9650)).toEqual(DEFAULT_SLOT_SKIN);
    const skins = Array.from({ length: 20 }, (_, seed) => JSON.stringify(slotSkin(seed, 9600).reels));
    expect(new Set(skins).size).toBe(20);
  });

  it('for many seeds, are well formed and return at most the declared rtp and within 0.5 percentage point of it', () => {
    const themes = new Set<string>();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 9400, max: 9849 }), (seed, rtpHundredths) => {
        const skin = slotSkin(seed, rtpHundredths);
        themes.add(skin.theme);
        expect(slotParamsError({ skin })).toBeNull();
        expect(skin.symbols).toHaveLength(8);
        expect(new Set(skin.symbols.map((s) => s.key)).size).toBe(8);
        const themeKeys = (SLOT_THEMES[skin.theme] ?? []).map((s) => s.key);
        expect(skin.symbols.every((s) => themeKeys.includes(s.key))).toBe(true);
        for (const strip of skin.reels) {
          expect(strip).toHaveLength(32);
          for (let symbol = 0; symbol < 8; symbol += 1) expect(strip).toContain(symbol); // five of a kind can happen for every symbol
        }
        expect([10, 20]).toContain(skin.paylines.length);
        for (const [three, four, five] of skin.paytable) {
          expect(three).toBeGreaterThan(0);
          expect(three).toBeLessThanOrEqual(four ?? 0);
          expect(four).toBeLessThanOrEqual(five ?? 0);
        }
        const rtp = slotReturnToPlayer(skin);
        const declared = ratio(rtpHundredths, 10_000);
        expect(rtp.num * declared.den).toBeLessThanOrEqual(declared.num * rtp.den);
        // 0.5 percentage point is the promise; the tuning lands within 0.001.
        expect((declared.num * rtp.den - rtp.num * declared.den) * 100_000n).toBeLessThanOrEqual(rtp.den * declared.den);
      }),
      { numRuns: 300 },
    );
    expect(themes.size).toBeGreaterThanOrEqual(5);
  });

  it('have the return the symbol-by-symbol count gives (default skin and a few generated ones)', () => {
    for (const [seed, rtpHundredths] of [
      [1, 9650],
      [7, 9400],
      [42, 9849],
      [2024, 9700],
    ] as const) {
      const skin = slotSkin(seed, rtpHundredths);
      const rtp = slotReturnToPlayer(skin);
      expect(rtp).toEqual(returnBySymbols(skin));
      expect(Number(percent(rtp.num, rtp.den, 4))).toBeLessThanOrEqual(rtpHundredths / 100);
      expect(Number(percent(rtp.num, rtp.den, 4))).toBeGreaterThan(rtpHundredths / 100 - 0.5);
    }
    expect(percent(slotReturnToPlayer(DEFAULT_SLOT_SKIN).num, slotReturnToPlayer(DEFAULT_SLOT_SKIN).den, 4)).toBe('96.4999');
  });

  it('refuse a seed that is not an integer and a return out of range', () => {
    expect(() => slotSkin(1.5, 9600)).toThrow(RangeError);
    expect(() => slotSkin(1, 9901)).toThrow(RangeError);
    expect(() => slotSkin(1, 8499)).toThrow(RangeError);
  });
});
