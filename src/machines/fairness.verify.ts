import { verify, type HouseGame, type HouseGameParams } from '../fairness/games.ts';
import type { SeedPair } from '../fairness/random.ts';
import { ratioToFixed } from '../fairness/ratio.ts';
import { DEFAULT_SLOT_SKIN, type SlotSkin } from '../fairness/slot.ts';
import type { Bet, VerifiedBet } from './fairness.machine.ts';

/*
 * The /fairness page's recomputation (the fairness machine's `verifyBet`): src/fairness `verify` in the
 * browser (WebCrypto), its answer made plain data (multipliers as decimal text, the slot's symbols as
 * the skin draws them). A chunk of its own, loaded with the first bet verified.
 */

export async function verifyBet(bet: Bet): Promise<VerifiedBet> {
  const pair: SeedPair = bet.pair;
  // A slot bet without a skin is one of the Classic Slot, on the default skin.
  const params = bet.game === 'slot' ? { skin: (bet.params.skin as SlotSkin | null) ?? DEFAULT_SLOT_SKIN } : bet.params;
  const checked = await verify(bet.game as HouseGame, pair, params as unknown as HouseGameParams[HouseGame]);
  if (!checked.ok) return { ok: false, error: checked.error };
  const outcome = checked.outcome as unknown as Record<string, unknown>;
  const multiplier = outcome.multiplier as { num: bigint; den: bigint } | undefined;
  const skin = bet.game === 'slot' ? (params as unknown as HouseGameParams['slot']).skin : null;
  const grid = outcome.grid as number[][] | undefined;
  return {
    ok: true,
    serverSeedHash: checked.serverSeedHash,
    numbers: checked.numbers,
    outcome: {
      roll: outcome.roll as number | undefined,
      result: outcome.result as number | undefined,
      win: outcome.win as boolean | undefined,
      mines: outcome.mines as number[] | undefined,
      path: outcome.path as ('L' | 'R')[] | undefined,
      bucket: outcome.bucket as number | undefined,
      stops: outcome.stops as number[] | undefined,
      glyphs: grid && skin ? grid.map((row) => row.map((symbol) => skin.symbols[symbol]?.glyph ?? '?')) : undefined,
      multiplier: multiplier ? ratioToFixed(multiplier, 8) : null,
    },
  };
}
