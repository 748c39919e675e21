import { describe, expect, it } from 'vitest';
import {
  AMOUNT_PATTERN,
  AMOUNT_REGEX,
  DEPOSIT_CONFIRMATIONS,
  MAX_STORABLE_UNITS,
  MAX_TRANSFER_AMOUNT,
  MIN_DEPOSIT_LTC,
  MIN_WITHDRAW_LTC,
  MONEY_DECIMALS,
  MoneyFormatError,
  SIGNED_AMOUNT_PATTERN,
  UNITS_PER_COIN,
  WITHDRAW_FEE_LTC,
  amountFormatIssue,
  compare,
  divRound,
  formatAmount,
  formatFixed,
  max,
  min,
  mulPercent,
  parseAmount,
  parseSignedAmount,
  sum,
  tryParseAmount,
  type MoneyFormatReason,
} from '../../src/money.ts';

describe('constants', () => {
  it('uses 8 decimals, 1e8 units per coin', () => {
    expect(MONEY_DECIMALS).toBe(8);
    expect(UNITS_PER_COIN).toBe(100_000_000n);
  });

  it('holds the SPEC §9 amounts in units', () => {
    expect(MAX_TRANSFER_AMOUNT).toBe(1_000_000_000_000n);
    expect(MIN_DEPOSIT_LTC).toBe(parseAmount('0.00005'));
    expect(MIN_DEPOSIT_LTC).toBe(5_000n);
    expect(MIN_WITHDRAW_LTC).toBe(parseAmount('0.03'));
    expect(WITHDRAW_FEE_LTC).toBe(parseAmount('0.000006'));
    expect(WITHDRAW_FEE_LTC).toBe(600n);
    expect(DEPOSIT_CONFIRMATIONS).toBe(6);
  });
});

describe('parseAmount', () => {
  it.each([
    ['0', 0n],
    ['1', 100_000_000n],
    ['10', 1_000_000_000n],
    ['0.5', 50_000_000n],
    ['0.00000001', 1n],
    ['0.12345678', 12_345_678n],
    ['1.5', 150_000_000n],
    ['10000', 1_000_000_000_000n],
    ['10000.00000000', 1_000_000_000_000n],
    ['0.00000000', 0n],
    ['123.40', 12_340_000_000n],
  ])('parses %j', (input, units) => {
    expect(parseAmount(input)).toBe(units);
  });

  it('parses the largest value with 22 integer digits and 8 decimals exactly', () => {
    const largest = `${'9'.repeat(22)}.99999999`;
    expect(parseAmount(largest)).toBe(MAX_STORABLE_UNITS);
    expect(formatAmount(parseAmount(largest))).toBe(largest);
  });

  it.each<[string, MoneyFormatReason]>([
    ['', 'empty'],
    ['-1', 'negative'],
    ['-0', 'negative'],
    ['-0.5', 'negative'],
    ['+1', 'format'],
    ['1e3', 'format'],
    ['1E3', 'format'],
    ['1.5e-3', 'format'],
    ['.5', 'format'],
    ['5.', 'format'],
    ['.', 'format'],
    ['-', 'format'],
    ['010', 'format'],
    ['00', 'format'],
    ['00.5', 'format'],
    [' 1', 'format'],
    ['1 ', 'format'],
    ['1 000', 'format'],
    ['1,5', 'format'],
    ['1.2.3', 'format'],
    ['abc', 'format'],
    ['0x10', 'format'],
    ['Infinity', 'format'],
    ['NaN', 'format'],
    ['１', 'format'], // full-width digit
    ['\t1', 'format'],
    ['1\n', 'format'],
    ['0.123456789', 'decimals'],
    ['10000.000000000', 'decimals'],
    ['0.000000000', 'decimals'],
    [`1${'0'.repeat(22)}`, 'tooLarge'], // 23 integer digits
  ])('rejects %j as %s', (input, reason) => {
    expect(amountFormatIssue(input)).toBe(reason);
    expect(tryParseAmount(input)).toBeNull();
    let caught: unknown;
    try {
      parseAmount(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MoneyFormatError);
    expect(caught).toMatchObject({ name: 'MoneyFormatError', input, reason });
  });

  it('accepts 8 decimals but not 9', () => {
    expect(parseAmount('1.12345678')).toBe(112_345_678n);
    expect(() => parseAmount('1.123456789')).toThrow(MoneyFormatError);
  });

  it('never goes through a float (values a double cannot hold)', () => {
    expect(parseAmount('9007199254740993')).toBe(900_719_925_474_099_300_000_000n);
    expect(parseAmount('0.30000000')).toBe(parseAmount('0.1') + parseAmount('0.2'));
  });

  it('tryParseAmount returns units for valid input', () => {
    expect(tryParseAmount('2.5')).toBe(250_000_000n);
  });
});

describe('parseSignedAmount', () => {
  it('accepts a leading minus', () => {
    expect(parseSignedAmount('-1.5')).toBe(-150_000_000n);
    expect(parseSignedAmount('-0.00000001')).toBe(-1n);
    expect(parseSignedAmount('-0')).toBe(0n);
    expect(parseSignedAmount('2')).toBe(200_000_000n);
  });

  it('reads sums past the 22 integer digits of one column exactly', () => {
    expect(parseSignedAmount(`1${'0'.repeat(22)}`)).toBe(10n ** 30n);
    expect(parseSignedAmount(`-${'9'.repeat(40)}.99999999`)).toBe(-(10n ** 48n - 1n));
    expect(formatAmount(parseSignedAmount(`${'9'.repeat(25)}.5`))).toBe(`${'9'.repeat(25)}.5`);
    expect(() => parseSignedAmount(`1${'0'.repeat(22)}.123456789`)).toThrow(/decimals/);
    expect(() => parseAmount(`1${'0'.repeat(22)}`)).toThrow(/tooLarge/);
  });

  it('still rejects bad amounts', () => {
    expect(() => parseSignedAmount('-')).toThrow(MoneyFormatError);
    expect(() => parseSignedAmount('--1')).toThrow(MoneyFormatError);
    expect(() => parseSignedAmount('-1e3')).toThrow(MoneyFormatError);
    expect(() => parseSignedAmount('-0.123456789')).toThrow(/decimals/);
    expect(() => parseSignedAmount('+1')).toThrow(MoneyFormatError);
  });
});

describe('AMOUNT_PATTERN', () => {
  it('is the documented string form and compiles to AMOUNT_REGEX', () => {
    expect(AMOUNT_PATTERN).toBe('^(0|[1-9][0-9]{0,21})(\\.[0-9]{1,8})?$');
    expect(AMOUNT_REGEX.source).toBe(AMOUNT_PATTERN);
  });

  it('agrees with parseAmount on every probe', () => {
    const probes = [
      '0', '1', '10000', '0.5', '10000.00000000', '0.12345678', '0.123456789', '', '-1', '+1', '1e3', '.5',
      '5.', '010', ' 1', 'abc', `${'9'.repeat(22)}.99999999`, `1${'0'.repeat(22)}`,
    ];
    for (const probe of probes) {
      expect(AMOUNT_REGEX.test(probe), probe).toBe(tryParseAmount(probe) !== null);
    }
  });

  it('SIGNED_AMOUNT_PATTERN agrees with parseSignedAmount', () => {
    const signed = new RegExp(SIGNED_AMOUNT_PATTERN);
    for (const probe of ['-1', '-0.5', '1', '--1', '-', '-1e3', '-.5']) {
      let parses = true;
      try {
        parseSignedAmount(probe);
      } catch {
        parses = false;
      }
      expect(signed.test(probe), probe).toBe(parses);
    }
  });
});

describe('formatAmount', () => {
  it.each([
    [0n, '0'],
    [1n, '0.00000001'],
    [150_000_000n, '1.5'],
    [200_000_000n, '2'],
    [12_345_678n, '0.12345678'],
    [1_000_000_000_000n, '10000'],
    [-150_000_000n, '-1.5'],
    [-1n, '-0.00000001'],
    [MAX_STORABLE_UNITS, `${'9'.repeat(22)}.99999999`],
  ])('formats %s as %j', (units, text) => {
    expect(formatAmount(units)).toBe(text);
  });

  it('keeps minDecimals', () => {
    expect(formatAmount(200_000_000n, { minDecimals: 2 })).toBe('2.00');
    expect(formatAmount(150_000_000n, { minDecimals: 2 })).toBe('1.50');
    expect(formatAmount(123_456_789n, { minDecimals: 2 })).toBe('1.23456789');
    expect(formatAmount(0n, { minDecimals: 8 })).toBe('0.00000000');
    expect(formatAmount(-5n * UNITS_PER_COIN, { minDecimals: 1 })).toBe('-5.0');
  });

  it('rejects a minDecimals outside 0..8', () => {
    expect(() => formatAmount(1n, { minDecimals: 9 })).toThrow(RangeError);
    expect(() => formatAmount(1n, { minDecimals: -1 })).toThrow(RangeError);
    expect(() => formatAmount(1n, { minDecimals: 1.5 })).toThrow(RangeError);
  });

  it('round-trips with parseAmount to the canonical form', () => {
    expect(formatAmount(parseAmount('10000.00000000'))).toBe('10000');
    expect(formatAmount(parseAmount('0.50'))).toBe('0.5');
    for (const text of ['0', '1', '0.1', '123.45678901', '99999.99999999']) {
      expect(formatAmount(parseAmount(text))).toBe(text);
    }
  });

  it('formatFixed always prints 8 decimals', () => {
    expect(formatFixed(0n)).toBe('0.00000000');
    expect(formatFixed(1n)).toBe('0.00000001');
    expect(formatFixed(1_000_000_000_000n)).toBe('10000.00000000');
    expect(formatFixed(-600n)).toBe('-0.00000600');
    expect(parseAmount(formatFixed(123_456_789n))).toBe(123_456_789n);
  });
});

describe('arithmetic', () => {
  it('mulPercent rounds as asked', () => {
    // 2.5 % of 1 unit = 0.025 units
    expect(mulPercent(1n, 250, 'down')).toBe(0n);
    expect(mulPercent(1n, 250, 'up')).toBe(1n);
    // 100 % and 0 % are exact
    expect(mulPercent(123n, 10_000n, 'down')).toBe(123n);
    expect(mulPercent(123n, 0, 'up')).toBe(0n);
    // 15 % of 10 coins
    expect(mulPercent(10n * UNITS_PER_COIN, 1500, 'down')).toBe(150_000_000n);
    // 33.33 % of 1 coin = 33_330_000 exactly; of 7 units = 2.3331 units
    expect(mulPercent(UNITS_PER_COIN, 3333, 'up')).toBe(33_330_000n);
    expect(mulPercent(7n, 3333, 'down')).toBe(2n);
    expect(mulPercent(7n, 3333, 'up')).toBe(3n);
    // above 100 %
    expect(mulPercent(3n, 15_000, 'down')).toBe(4n);
    expect(mulPercent(3n, 15_000, 'up')).toBe(5n);
  });

  it('mulPercent uses floor and ceiling for negative values', () => {
    expect(mulPercent(-1n, 250, 'down')).toBe(-1n);
    expect(mulPercent(-1n, 250, 'up')).toBe(0n);
  });

  it('mulPercent refuses fractional basis points', () => {
    expect(() => mulPercent(1n, 2.5, 'down')).toThrow(RangeError);
  });

  it('divRound', () => {
    expect(divRound(7n, 2n, 'down')).toBe(3n);
    expect(divRound(7n, 2n, 'up')).toBe(4n);
    expect(divRound(-7n, 2n, 'down')).toBe(-4n);
    expect(divRound(-7n, 2n, 'up')).toBe(-3n);
    expect(divRound(7n, -2n, 'down')).toBe(-4n);
    expect(divRound(8n, 2n, 'up')).toBe(4n);
    expect(() => divRound(1n, 0n, 'down')).toThrow(RangeError);
  });

  it('compare, min, max, sum', () => {
    expect(compare(1n, 2n)).toBe(-1);
    expect(compare(2n, 2n)).toBe(0);
    expect(compare(3n, 2n)).toBe(1);
    expect([3n, -1n, 2n].sort(compare)).toEqual([-1n, 2n, 3n]);
    expect(min(3n, -1n, 2n)).toBe(-1n);
    expect(max(3n, -1n, 2n)).toBe(3n);
    expect(min(5n)).toBe(5n);
    expect(sum([parseAmount('0.1'), parseAmount('0.2')])).toBe(parseAmount('0.3'));
    expect(sum([])).toBe(0n);
  });

  it('fee arithmetic stays exact', () => {
    const amount = parseAmount('0.03');
    expect(formatAmount(amount - WITHDRAW_FEE_LTC)).toBe('0.029994');
  });
});
