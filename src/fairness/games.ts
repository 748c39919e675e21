/**
 * The five house games behind one name each, for code that handles any of them: the server's bet
 * endpoint (validate, draw the numbers, compute the outcome) and the /fairness page (recompute a past bet
 * from its revealed seeds).
 */
import { diceOutcome, diceParamsError, numbersNeeded as diceNumbersNeeded, type DiceOutcome, type DiceParams, type DiceParamsError } from './dice.ts';
import { limboOutcome, limboParamsError, numbersNeeded as limboNumbersNeeded, type LimboOutcome, type LimboParams, type LimboParamsError } from './limbo.ts';
import { minesOutcome, minesParamsError, numbersNeeded as minesNumbersNeeded, type MinesOutcome, type MinesParams, type MinesParamsError } from './mines.ts';
import { plinkoOutcome, plinkoParamsError, numbersNeeded as plinkoNumbersNeeded, type PlinkoOutcome, type PlinkoParams, type PlinkoParamsError } from './plinko.ts';
import { isClientSeed, isNonce, isServerSeed, randomIntegers, sha256Hex, type SeedPair } from './random.ts';
import { slotOutcome, slotParamsError, numbersNeeded as slotNumbersNeeded, type SlotOutcome, type SlotParams, type SlotParamsError } from './slot.ts';

export const HOUSE_GAMES = ['dice', 'limbo', 'mines', 'plinko', 'slot'] as const;
export type HouseGame = (typeof HOUSE_GAMES)[number];

export interface HouseGameParams {
  dice: DiceParams;
  limbo: LimboParams;
  mines: MinesParams;
  plinko: PlinkoParams;
  slot: SlotParams;
}

export interface HouseGameOutcome {
  dice: DiceOutcome;
  limbo: LimboOutcome;
  mines: MinesOutcome;
  plinko: PlinkoOutcome;
  slot: SlotOutcome;
}

export type HouseGameParamsError = DiceParamsError | LimboParamsError | MinesParamsError | PlinkoParamsError | SlotParamsError;

interface GameRules<P, O> {
  paramsError(params: P): HouseGameParamsError | null;
  numbersNeeded(params: P): number;
  outcome(numbers: number[], params: P): O;
}

const RULES: { [G in HouseGame]: GameRules<HouseGameParams[G], HouseGameOutcome[G]> } = {
  dice: { paramsError: diceParamsError, numbersNeeded: diceNumbersNeeded, outcome: diceOutcome },
  limbo: { paramsError: limboParamsError, numbersNeeded: limboNumbersNeeded, outcome: limboOutcome },
  mines: { paramsError: minesParamsError, numbersNeeded: minesNumbersNeeded, outcome: minesOutcome },
  plinko: { paramsError: plinkoParamsError, numbersNeeded: plinkoNumbersNeeded, outcome: plinkoOutcome },
  slot: { paramsError: slotParamsError, numbersNeeded: slotNumbersNeeded, outcome: slotOutcome },
};

export function isHouseGame(name: string): name is HouseGame {
  return (HOUSE_GAMES as readonly string[]).includes(name);
}

/** The game's error code for these parameters ('dice.chance', 'plinko.rows', …), or null when playable. */
export function paramsError<G extends HouseGame>(game: G, params: HouseGameParams[G]): HouseGameParamsError | null {
  const rules: GameRules<HouseGameParams[G], HouseGameOutcome[G]> = RULES[game];
  return rules.paramsError(params);
}

/** How many random numbers one bet of the game reads. */
export function numbersNeeded<G extends HouseGame>(game: G, params: HouseGameParams[G]): number {
  const rules: GameRules<HouseGameParams[G], HouseGameOutcome[G]> = RULES[game];
  return rules.numbersNeeded(params);
}

/** The outcome of one bet from its numbers (already drawn), pure. */
export function outcome<G extends HouseGame>(game: G, numbers: number[], params: HouseGameParams[G]): HouseGameOutcome[G] {
  const rules: GameRules<HouseGameParams[G], HouseGameOutcome[G]> = RULES[game];
  return rules.outcome(numbers, params);
}

/** Why a bet cannot be recomputed: a seed or nonce code, or the game's parameter code. */
export type VerifyError = 'seed.server' | 'seed.client' | 'seed.nonce' | HouseGameParamsError;

export type Verified<G extends HouseGame> =
  | {
      ok: true;
      /** SHA-256 of the revealed server seed: it must equal the hash shown before the bet. */
      serverSeedHash: string;
      /** The numbers the bet read, in order. */
      numbers: number[];
      outcome: HouseGameOutcome[G];
    }
  | { ok: false; error: VerifyError };

/**
 * Recomputes a bet from its seed pair and nonce (and, for the slot, the title's skin in `params`): what
 * the /fairness page shows next to what the server recorded. Bad input is an error code, not a throw.
 */
export async function verify<G extends HouseGame>(game: G, pair: SeedPair, params: HouseGameParams[G]): Promise<Verified<G>> {
  if (!isServerSeed(pair.serverSeed)) return { ok: false, error: 'seed.server' };
  if (!isClientSeed(pair.clientSeed)) return { ok: false, error: 'seed.client' };
  if (!isNonce(pair.nonce)) return { ok: false, error: 'seed.nonce' };
  const error = paramsError(game, params);
  if (error !== null) return { ok: false, error };
  const numbers = await randomIntegers(pair, numbersNeeded(game, params));
  return { ok: true, serverSeedHash: await sha256Hex(pair.serverSeed), numbers, outcome: outcome(game, numbers, params) };
}
