/**
 * Dates, amounts and counts written for the interface language. Amounts are decimal strings (up to 8
 * decimals, src/money.ts) and never pass through a JavaScript float: the integer part is grouped by Intl
 * from a bigint, the decimals are copied from the string.
 */
import { format as tempoFormat } from '@formkit/tempo';
import type { Language } from './i18n/index.ts';

/** The Intl / tempo locale of each interface language. */
export const LOCALES: Readonly<Record<Language, string>> = { en: 'en', pt: 'pt', es: 'es' };

export type DateStyle = 'date' | 'datetime';

export interface DateFormatOptions {
  /** IANA zone to show instants in; the device's zone when absent. Calendar dates (YYYY-MM-DD) never shift. */
  timeZone?: string;
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_START = /^\d{4}-\d{2}-\d{2}/;

/**
 * 'date': "Mar 5, 2024" / "5 de mar. de 2024" / "5 mar 2024"; 'datetime' adds the time ("2:07 PM", "14:07").
 * An unreadable value is shown as it came rather than breaking the screen.
 */
export function formatDate(iso: string, language: Language, style: DateStyle = 'date', options: DateFormatOptions = {}): string {
  const format = style === 'date' ? ({ date: 'medium' } as const) : ({ date: 'medium', time: 'short' } as const);
  // A birth date has no instant: read as local midnight and shown without a zone, so it stays the same day.
  const tz = CALENDAR_DATE.test(iso) ? undefined : options.timeZone;
  // tempo reads '' as "now": only a value that starts like an ISO date and parses is formatted.
  if (!ISO_DATE_START.test(iso) || Number.isNaN(Date.parse(iso))) return iso;
  try {
    return tempoFormat({ date: iso, format, locale: LOCALES[language], ...(tz ? { tz } : {}) });
  } catch {
    return iso;
  }
}

interface NumberSymbols {
  integer: Intl.NumberFormat;
  decimal: string;
  minus: string;
}

const symbolsCache = new Map<Language, NumberSymbols>();

/** The locale's decimal separator and minus sign, learnt from Intl once per language. */
function numberSymbols(language: Language): NumberSymbols {
  let symbols = symbolsCache.get(language);
  if (!symbols) {
    const locale = LOCALES[language];
    const parts = new Intl.NumberFormat(locale).formatToParts(-1234.5);
    symbols = {
      integer: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
      decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
      minus: parts.find((part) => part.type === 'minusSign')?.value ?? '-',
    };
    symbolsCache.set(language, symbols);
  }
  return symbols;
}

const DECIMAL_STRING = /^(-?)(\d+)(?:\.(\d+))?$/;

export interface AmountFormatOptions {
  /** Decimals always shown, padding with zeros ("10" → "10.00" with 2); default 0. Never rounds. */
  minimumFractionDigits?: number;
}

/**
 * "1234567.12345678" LTC in en → "1,234,567.12345678 LTC", in pt and es → "1.234.567,12345678 LTC".
 * Every significant decimal is kept and trailing zeros are dropped ("0.50000000" → "0.5"); nothing is
 * rounded. The code follows the number after a no-break space; pass '' for the number alone. A string that
 * is not a plain decimal is returned unchanged.
 */
export function formatAmount(
  amount: string,
  currencyCode: string,
  language: Language,
  options: AmountFormatOptions = {},
): string {
  const match = DECIMAL_STRING.exec(amount.trim());
  if (!match) return amount;
  const [, sign = '', integerDigits = '0', fractionDigits = ''] = match;
  const symbols = numberSymbols(language);
  const minimum = Math.max(0, Math.floor(options.minimumFractionDigits ?? 0));
  const fraction = fractionDigits.replace(/0+$/, '').padEnd(minimum, '0');
  const isZero = /^0*$/.test(integerDigits) && fraction.replace(/0/g, '') === '';
  let text = symbols.integer.format(BigInt(integerDigits));
  if (fraction) text += symbols.decimal + fraction;
  if (sign && !isZero) text = symbols.minus + text;
  return currencyCode ? `${text}\u00a0${currencyCode}` : text;
}

/** A count (games, friends referred, unread notifications) with the locale's grouping. */
export function formatNumber(n: number | bigint, language: Language): string {
  return new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: 0 }).format(n);
}
