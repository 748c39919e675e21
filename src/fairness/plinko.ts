/**
 * Plinko (docs/fairness.md, "Plinko"): a ball falls through 8 to 16 rows of pegs, one number per row:
 * N < 2^31 (a number below one half) steps left, otherwise right, so every step is an exact coin toss.
 * It lands in bucket 0 to `rows`, the number of right steps, with chance C(rows, bucket) / 2^rows, and
 * pays that bucket's multiplier from the table of the rows and the risk the player picked.
 */
import { ratio, type Ratio } from './ratio.ts';

export const PLINKO_ROWS_MIN = 8;
export const PLINKO_ROWS_MAX = 16;
export const PLINKO_RISKS = ['low', 'medium', 'high'] as const;
export type PlinkoRisk = (typeof PLINKO_RISKS)[number];

/** Half of 2^32: a number at or above it stands for a value of at least 1/2 and steps right. */
const RIGHT_FROM = 2 ** 31;

/*
 * Multipliers in hundredths per bucket, from the left edge to the right (each table is symmetric).
 * Designed, not copied: a centre multiplier per risk (×0.5, ×0.4, ×0.2), an edge multiplier per risk
 * that grows geometrically with the rows (low ×5.5 → ×16, medium ×13 → ×110, high ×29 → ×1000), the
 * buckets between on the curve centre^(1 − x^p) × edge^(x^p) (x the distance from the centre, 0 to 1,
 * p chosen so the return is 99 %), rounded down to two significant digits, then raised a step (or, last,
 * half a step) at a time while the exact return stays at or below 99 %. Every table returns 98.82 % to
 * 99.00 % (docs/fairness.md).
 */
export const PLINKO_TABLES: Record<PlinkoRisk, Record<number, readonly number[]>> = {
  low: {
    8: [560, 280, 130, 80, 50, 80, 130, 280, 560],
    9: [680, 340, 180, 90, 60, 60, 90, 180, 340, 680],
    10: [775, 380, 210, 120, 70, 60, 70, 120, 210, 380, 775],
    11: [835, 470, 270, 140, 90, 60, 60, 90, 140, 270, 470, 835],
    12: [1000, 540, 310, 190, 110, 70, 50, 70, 110, 190, 310, 540, 1000],
    13: [1200, 660, 380, 210, 140, 80, 60, 60, 80, 140, 210, 380, 660, 1200],
    14: [1250, 750, 420, 260, 170, 100, 70, 50, 70, 100, 170, 260, 420, 750, 1250],
    15: [1500, 870, 530, 320, 190, 120, 80, 60, 60, 80, 120, 190, 320, 530, 870, 1500],
    16: [1600, 960, 600, 360, 230, 140, 100, 70, 50, 70, 100, 140, 230, 360, 600, 960, 1600],
  },
  medium: {
    8: [1300, 370, 130, 60, 40, 60, 130, 370, 1300],
    9: [1700, 520, 200, 80, 40, 40, 80, 200, 520, 1700],
    10: [2400, 690, 260, 100, 60, 40, 60, 100, 260, 690, 2400],
    11: [2900, 950, 340, 140, 70, 50, 50, 70, 140, 340, 950, 2900],
    12: [4300, 1200, 480, 190, 90, 60, 40, 60, 90, 190, 480, 1200, 4300],
    13: [5200, 1600, 630, 260, 130, 60, 50, 50, 60, 130, 260, 630, 1600, 5200],
    14: [6700, 2300, 860, 370, 160, 90, 50, 40, 50, 90, 160, 370, 860, 2300, 6700],
    15: [8600, 3000, 1100, 470, 210, 110, 60, 50, 50, 60, 110, 210, 470, 1100, 3000, 8600],
    16: [11000, 3900, 1600, 630, 280, 140, 70, 60, 40, 60, 70, 140, 280, 630, 1600, 3900, 11000],
  },
  high: {
    8: [2900, 495, 110, 30, 30, 30, 110, 495, 2900],
    9: [4600, 780, 170, 60, 20, 20, 60, 170, 780, 4600],
    10: [7100, 1300, 270, 80, 30, 20, 30, 80, 270, 1300, 7100],
    11: [11000, 1900, 435, 120, 50, 20, 20, 50, 120, 435, 1900, 11000],
    12: [18000, 3000, 670, 190, 60, 30, 20, 30, 60, 190, 670, 3000, 18000],
    13: [27000, 4850, 1000, 290, 90, 30, 30, 30, 30, 90, 290, 1000, 4850, 27000],
    14: [41000, 7600, 1600, 420, 140, 50, 30, 20, 30, 50, 140, 420, 1600, 7600, 41000],
    15: [67500, 11000, 2500, 660, 200, 70, 30, 30, 30, 30, 70, 200, 660, 2500, 11000, 67500],
    16: [100000, 18000, 4000, 990, 290, 100, 40, 30, 30, 30, 40, 100, 290, 990, 4000, 18000, 100000],
  },
};

export interface PlinkoParams {
  /** 8 to 16. */
  rows: number;
  risk: PlinkoRisk;
}

export type PlinkoStep = 'L' | 'R';

export interface PlinkoOutcome {
  /** One step per row, top to bottom. */
  path: PlinkoStep[];
  /** 0 (left edge) to `rows` (right edge): the number of right steps. */
  bucket: number;
  /** Paid whatever the bucket: below ×1 the player gets part of the bet back. */
  multiplier: Ratio;
}

export type PlinkoParamsError = 'plinko.rows' | 'plinko.risk';

export function plinkoParamsError(params: PlinkoParams): PlinkoParamsError | null {
  if (!PLINKO_RISKS.includes(params.risk)) return 'plinko.risk';
  const { rows } = params;
  return Number.isInteger(rows) && rows >= PLINKO_ROWS_MIN && rows <= PLINKO_ROWS_MAX ? null : 'plinko.rows';
}

/** The multipliers of a table in hundredths, left edge to right edge. */
export function plinkoTable(params: PlinkoParams): readonly number[] {
  const table = PLINKO_TABLES[params.risk]?.[params.rows];
  if (table === undefined) throw new RangeError(`No plinko table for ${params.rows} rows at ${params.risk} risk`);
  return table;
}

export function numbersNeeded(params: PlinkoParams): number {
  return params.rows;
}

export function plinkoOutcome(numbers: number[], params: PlinkoParams): PlinkoOutcome {
  if (numbers.length < params.rows) throw new RangeError(`Plinko with ${params.rows} rows needs ${params.rows} numbers`);
  const path = numbers.slice(0, params.rows).map((n): PlinkoStep => (n >= RIGHT_FROM ? 'R' : 'L'));
  const bucket = path.filter((step) => step === 'R').length;
  return { path, bucket, multiplier: ratio(plinkoTable(params)[bucket] ?? 0, 100) };
}

/** Σ C(rows, b) × multiplier(b) / 2^rows, exactly. */
export function plinkoReturnToPlayer(params: PlinkoParams): Ratio {
  const table = plinkoTable(params);
  let weighted = 0n;
  let pathsToBucket = 1n; // C(rows, 0)
  table.forEach((hundredths, bucket) => {
    weighted += pathsToBucket * BigInt(hundredths);
    pathsToBucket = (pathsToBucket * BigInt(params.rows - bucket)) / BigInt(bucket + 1);
  });
  return ratio(weighted, 100n * 2n ** BigInt(params.rows));
}
