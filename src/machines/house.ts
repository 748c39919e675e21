import type { components } from '../api/schema.d.ts';
import { formatAmount, parseAmount, tryParseAmount } from '../money.ts';
import type { ErrorCode } from './effects.ts';
import { toFailure, type ServerFieldError } from './failure.ts';

/*
 * What the house games' pages (houseTable.machine.ts, mines.machine.ts, houseSeeds.machine.ts) share: the
 * table, round and seed types of openapi.yaml, and the bet amount (a decimal string checked with
 * src/money.ts, halved and doubled in units of 1e-8 within the table's limits, never as a float).
 */

export type HouseTable = components['schemas']['HouseTable'];
export type HouseRound = components['schemas']['HouseRound'];
/** The seed pair and nonce a round was played with. */
export type HouseSeeds = components['schemas']['HouseSeeds'];
/** The active seed pair and the next one, as the table shows them. */
export type HouseSeedPairs = components['schemas']['HouseSeedPairs'];
export type RevealedSeedPair = components['schemas']['RevealedSeedPair'];
export type SeedRotation = { revealed: RevealedSeedPair; seeds: HouseSeedPairs };
export type HouseEngine = components['schemas']['HouseEngine'];

/** The last results a page lists. */
export const HISTORY_LENGTH = 8;

/** Why the bet amount cannot be played, as a rule code of src/rules (its message is in the catalogue). */
export type AmountCode = 'amount.format' | 'amount.decimals' | 'amount.positive' | 'amount.max';

/** The amount's problem against the table's limits, or null when the server may be asked. */
export function amountCode(amount: string, table: Pick<HouseTable, 'minBet' | 'maxBet'> | null): AmountCode | null {
  const units = tryParseAmount(amount.trim());
  if (units === null) return 'amount.format';
  if (units <= 0n) return 'amount.positive';
  if (table === null) return null;
  const min = parseAmount(table.minBet);
  if (units % min !== 0n) return 'amount.decimals';
  if (units > parseAmount(table.maxBet)) return 'amount.max';
  if (units < min) return 'amount.positive';
  return null;
}

function clampUnits(units: bigint, table: Pick<HouseTable, 'minBet' | 'maxBet'>): bigint {
  const min = parseAmount(table.minBet);
  const max = parseAmount(table.maxBet);
  const stepped = (units / min) * min;
  return stepped < min ? min : stepped > max ? max : stepped;
}

/** ½: half the amount, rounded down to the table's step, at least its minimum; an unreadable amount is left as it is. */
export function halveAmount(amount: string, table: Pick<HouseTable, 'minBet' | 'maxBet'> | null): string {
  const units = tryParseAmount(amount.trim());
  if (units === null || table === null) return amount;
  return formatAmount(clampUnits(units / 2n, table));
}

/** 2×: twice the amount, at most the table's maximum. */
export function doubleAmount(amount: string, table: Pick<HouseTable, 'minBet' | 'maxBet'> | null): string {
  const units = tryParseAmount(amount.trim());
  if (units === null || table === null) return amount;
  return formatAmount(clampUnits(units * 2n, table));
}

/** The amount a table opens with: 1 of play money, 0.001 of a real currency, within the table's limits. */
export function openingAmount(table: HouseTable): string {
  return formatAmount(clampUnits(table.demo ? 100_000_000n : 100_000n, table));
}

/** The failure of a call, as the pages keep it: its code, and its per-field codes (shown beside their controls). */
export function failureOf(error: unknown): { errorCode: ErrorCode | null; fieldErrors: ServerFieldError[] } {
  const failure = toFailure(error);
  return { errorCode: failure.code, fieldErrors: [...failure.fields] };
}

/** The last results, newest first. */
export function withResult(history: readonly HouseRound[], round: HouseRound): HouseRound[] {
  return [round, ...history].slice(0, HISTORY_LENGTH);
}
