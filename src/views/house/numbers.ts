/**
 * A decimal the player typed with at most two decimals ("49.5", "2", "1.01") as an integer count of
 * hundredths (4950, 200, 101), read as text so no float rounds it; NaN for anything else.
 */
export function hundredthsOf(text: string): number {
  const match = /^\s*(\d{1,9})(?:[.,](\d{0,2}))?\s*$/.exec(text);
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Hundredths as the player reads them: 4950 → "49.50". */
export function hundredthsText(value: number): string {
  if (!Number.isFinite(value)) return '';
  const whole = Math.trunc(value / 100);
  const rest = Math.abs(value % 100);
  return `${whole}.${String(rest).padStart(2, '0')}`;
}
