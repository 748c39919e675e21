import { diceOutcome, diceParamsError, numbersNeeded as diceNumbers, type DiceDirection, type DiceParams } from '../../src/fairness/dice.ts';
import { limboOutcome, limboParamsError, numbersNeeded as limboNumbers, type LimboParams } from '../../src/fairness/limbo.ts';
import { plinkoOutcome, plinkoParamsError, numbersNeeded as plinkoNumbers, type PlinkoParams, type PlinkoRisk } from '../../src/fairness/plinko.ts';
import { randomIntegers, type SeedPair } from '../../src/fairness/random.ts';
import { ZERO, type Ratio } from '../../src/fairness/ratio.ts';
import { badHouseRequest } from './errors.ts';
import { slotEngine } from './slot-engine.ts';

/**
 * The house engines as the provider plays them: each reads its parameters from a request body (checked by
 * the outcome library's own validator), draws the numbers it needs from the round's seed pair and nonce,
 * and says what the round pays. The outcome is stored and answered as plain JSON (the library's ratios
 * become decimal multipliers), so the bet history and the player can recompute it from the seeds.
 */

export type HouseEngine = 'dice' | 'limbo' | 'mines' | 'plinko' | 'slot';

/** The JSON parameters and outcome of a round as stored and answered. */
export type Json = Record<string, unknown>;

export interface InstantEngine {
  /** The parameters from a request body (already shaped by openapi.yaml); refuses out-of-range ones (400). */
  params(body: Json, skin: unknown): Json;
  /** The outcome of the round the seeds name, and its multiplier (ZERO for a loss). */
  play(pair: SeedPair, params: Json, skin: unknown): Promise<{ outcome: Json; multiplier: Ratio }>;
}

/** The body member each library validator code is about ('dice.chance': the target sets the chance). */
const PARAM_FIELDS: Record<string, string> = {
  'dice.target': 'target',
  'dice.chance': 'target',
  'dice.direction': 'direction',
  'limbo.target': 'target',
  'plinko.rows': 'rows',
  'plinko.risk': 'risk',
};

/** A library validator's code as a field error of the body (400). */
function refuseParams(code: string | null): void {
  if (code !== null) throw badHouseRequest(PARAM_FIELDS[code] ?? '', code);
}

const dice: InstantEngine = {
  params(body) {
    const params: DiceParams = { target: body.target as number, direction: body.direction as DiceDirection };
    refuseParams(diceParamsError(params));
    return { target: params.target, direction: params.direction };
  },
  async play(pair, params) {
    const p = params as unknown as DiceParams;
    const outcome = diceOutcome(await randomIntegers(pair, diceNumbers(p)), p);
    return { outcome: { roll: outcome.roll, win: outcome.win }, multiplier: outcome.win ? outcome.multiplier : ZERO };
  },
};

const limbo: InstantEngine = {
  params(body) {
    const params: LimboParams = { target: body.target as number };
    refuseParams(limboParamsError(params));
    return { target: params.target };
  },
  async play(pair, params) {
    const p = params as unknown as LimboParams;
    const outcome = limboOutcome(await randomIntegers(pair, limboNumbers(p)), p);
    return { outcome: { result: outcome.result, win: outcome.win }, multiplier: outcome.win ? outcome.multiplier : ZERO };
  },
};

const plinko: InstantEngine = {
  params(body) {
    const params: PlinkoParams = { rows: body.rows as number, risk: body.risk as PlinkoRisk };
    refuseParams(plinkoParamsError(params));
    return { rows: params.rows, risk: params.risk };
  },
  async play(pair, params) {
    const p = params as unknown as PlinkoParams;
    const outcome = plinkoOutcome(await randomIntegers(pair, plinkoNumbers(p)), p);
    // Every bucket pays its multiplier, below ×1 too.
    return { outcome: { path: outcome.path, bucket: outcome.bucket }, multiplier: outcome.multiplier };
  },
};

export const INSTANT_ENGINES: Record<Exclude<HouseEngine, 'mines'>, InstantEngine> = { dice, limbo, plinko, slot: slotEngine };
