import { randomIntegers } from '../../src/fairness/random.ts';
import { payout } from '../../src/fairness/ratio.ts';
import { DEFAULT_SLOT_SKIN, numbersNeeded, slotOutcome, slotParamsError, type SlotSkin } from '../../src/fairness/slot.ts';
import { formatAmount } from '../../src/money.ts';
import { HouseGameError } from './errors.ts';
import type { InstantEngine } from './engines.ts';

/**
 * The slot engine: every slot title of the catalogue is a skin of it (games.slot_skin, made by the seed
 * from the title and its return); a title without one plays the default skin. A spin takes no parameters
 * but the stake, spread evenly over the skin's paylines.
 */
export function skinOf(stored: unknown): SlotSkin {
  return (stored as SlotSkin | null) ?? DEFAULT_SLOT_SKIN;
}

export const slotEngine: InstantEngine = {
  params(_body, stored) {
    // A broken skin is the catalogue's fault, not the player's.
    if (slotParamsError({ skin: skinOf(stored) }) !== null) throw new HouseGameError('INTERNAL_SERVER_ERROR');
    return {};
  },
  async play(pair, _params, stored) {
    const params = { skin: skinOf(stored) };
    const outcome = slotOutcome(await randomIntegers(pair, numbersNeeded(params)), params);
    return {
      outcome: {
        stops: outcome.stops,
        grid: outcome.grid,
        lines: outcome.lines.map((win) => ({ line: win.line, symbol: win.symbol, count: win.count, multiplier: formatAmount(payout(100_000_000n, win.pay)) })),
      },
      multiplier: outcome.multiplier,
    };
  },
};
