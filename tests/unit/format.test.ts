import { describe, expect, it } from 'vitest';
import { LOCALES, formatAmount, formatDate, formatNumber } from '../../src/format.ts';
import { LANGUAGES } from '../../src/i18n/index.ts';

// Expected strings are written out as Node 20's ICU formats them; the unit follows a no-break space.
const NBSP = '\u00a0';

describe('formatAmount', () => {
  it('groups the integer part and keeps all 8 decimals, per language', () => {
    expect(formatAmount('1234567.12345678', 'LTC', 'en')).toBe(`1,234,567.12345678${NBSP}LTC`);
    expect(formatAmount('1234567.12345678', 'LTC', 'pt')).toBe(`1.234.567,12345678${NBSP}LTC`);
    expect(formatAmount('1234567.12345678', 'LTC', 'es')).toBe(`1.234.567,12345678${NBSP}LTC`);
  });

  it('follows each locale’s grouping rules (Spanish leaves four-digit numbers ungrouped)', () => {
    expect(formatAmount('1234.5', 'LTC', 'en')).toBe(`1,234.5${NBSP}LTC`);
    expect(formatAmount('1234.5', 'LTC', 'pt')).toBe(`1.234,5${NBSP}LTC`);
    expect(formatAmount('1234.5', 'LTC', 'es')).toBe(`1234,5${NBSP}LTC`);
    expect(formatAmount('10000', 'LTC', 'es')).toBe(`10.000${NBSP}LTC`);
  });

  it('never rounds: amounts beyond a float’s precision survive digit for digit', () => {
    // 2^53 + 1 and 22 integer digits with 8 decimals: a float would change both.
    expect(formatAmount('9007199254740993.00000001', 'BTC', 'en')).toBe(`9,007,199,254,740,993.00000001${NBSP}BTC`);
    expect(formatAmount('9999999999999999999999.99999999', 'BTC', 'en')).toBe(`9,999,999,999,999,999,999,999.99999999${NBSP}BTC`);
    expect(formatAmount('9999999999999999999999.99999999', 'BTC', 'pt')).toBe(`9.999.999.999.999.999.999.999,99999999${NBSP}BTC`);
    expect(formatAmount('0.1', '', 'en')).toBe('0.1');
    expect(formatAmount('0.30000000', '', 'en')).toBe('0.3');
    expect(formatAmount('0.00000001', 'LTC', 'en')).toBe(`0.00000001${NBSP}LTC`);
    expect(formatAmount('0.00000001', 'LTC', 'es')).toBe(`0,00000001${NBSP}LTC`);
    expect(formatAmount('0.000006', 'LTC', 'pt')).toBe(`0,000006${NBSP}LTC`);
  });

  it('round-trips every 8-decimal amount it formats in English', () => {
    for (const amount of ['0.12345678', '10000.00000001', '0.00005', '123456789.87654321', '1.10000001']) {
      const shown = formatAmount(amount, '', 'en').replaceAll(',', '');
      expect(shown).toBe(amount.replace(/\.?0+$/, ''));
    }
  });

  it('drops trailing zeros, or pads to a minimum when asked', () => {
    expect(formatAmount('10000.00000000', 'LTC', 'en')).toBe(`10,000${NBSP}LTC`);
    expect(formatAmount('0.50000000', 'LTC', 'pt')).toBe(`0,5${NBSP}LTC`);
    expect(formatAmount('0', 'LTC', 'en')).toBe(`0${NBSP}LTC`);
    expect(formatAmount('10', 'USDT', 'en', { minimumFractionDigits: 2 })).toBe(`10.00${NBSP}USDT`);
    expect(formatAmount('10.5', 'USDT', 'es', { minimumFractionDigits: 2 })).toBe(`10,50${NBSP}USDT`);
    expect(formatAmount('0.12345678', 'LTC', 'en', { minimumFractionDigits: 2 })).toBe(`0.12345678${NBSP}LTC`);
  });

  it('writes a signed ledger amount with the locale minus, and no "-0"', () => {
    expect(formatAmount('-1234.5', 'LTC', 'en')).toBe(`-1,234.5${NBSP}LTC`);
    expect(formatAmount('-1234.5', 'LTC', 'pt')).toBe(`-1.234,5${NBSP}LTC`);
    expect(formatAmount('-0.5', '', 'es')).toBe('-0,5');
    expect(formatAmount('-0.00000000', '', 'en')).toBe('0');
  });

  it('returns what is not a plain decimal unchanged', () => {
    for (const value of ['', 'abc', '1e3', '.5', '5.', '1,5', '+1', 'NaN']) expect(formatAmount(value, 'LTC', 'en')).toBe(value);
  });
});

describe('formatDate', () => {
  const instant = '2024-03-05T14:07:09Z';

  it('writes a date in each language', () => {
    expect(formatDate(instant, 'en', 'date', { timeZone: 'UTC' })).toBe('Mar 5, 2024');
    expect(formatDate(instant, 'pt', 'date', { timeZone: 'UTC' })).toBe('5 de mar. de 2024');
    expect(formatDate(instant, 'es', 'date', { timeZone: 'UTC' })).toBe('5 mar 2024');
  });

  it('writes a date and time in each language', () => {
    expect(formatDate(instant, 'en', 'datetime', { timeZone: 'UTC' })).toBe('Mar 5, 2024, 2:07 PM');
    expect(formatDate(instant, 'pt', 'datetime', { timeZone: 'UTC' })).toBe('5 de mar. de 2024, 14:07');
    expect(formatDate(instant, 'es', 'datetime', { timeZone: 'UTC' })).toBe('5 mar 2024, 14:07');
  });

  it('shows an instant in the given zone', () => {
    expect(formatDate('2024-03-05T23:30:00Z', 'en', 'datetime', { timeZone: 'Asia/Tokyo' })).toBe('Mar 6, 2024, 8:30 AM');
    expect(formatDate('2024-03-05T01:30:00Z', 'pt', 'date', { timeZone: 'America/Sao_Paulo' })).toBe('4 de mar. de 2024');
  });

  it('keeps a calendar date (date of birth) on its day in any zone', () => {
    for (const timeZone of ['UTC', 'Asia/Tokyo', 'America/Los_Angeles', undefined]) {
      expect(formatDate('1990-01-15', 'en', 'date', { timeZone })).toBe('Jan 15, 1990');
      expect(formatDate('1990-01-15', 'es', 'date', { timeZone })).toBe('15 ene 1990');
    }
  });

  it('returns an unreadable value unchanged', () => {
    expect(formatDate('not a date', 'en', 'date')).toBe('not a date');
    expect(formatDate('', 'pt', 'datetime')).toBe('');
    expect(formatDate('2024-13-45', 'es', 'date')).toBe('2024-13-45');
    expect(formatDate('05/03/2024', 'en', 'date')).toBe('05/03/2024');
  });
});

describe('formatNumber', () => {
  it('groups counts per language', () => {
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatNumber(1234567, 'pt')).toBe('1.234.567');
    expect(formatNumber(1234567, 'es')).toBe('1.234.567');
    expect(formatNumber(1234, 'es')).toBe('1234');
    expect(formatNumber(0, 'en')).toBe('0');
    expect(formatNumber(12345n, 'pt')).toBe('12.345');
  });

  it('has a locale for every language', () => {
    for (const language of LANGUAGES) expect(LOCALES[language]).toBe(language);
  });
});
