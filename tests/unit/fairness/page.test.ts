import { describe, expect, it } from 'vitest';
import { outcome as gameOutcome, type HouseGame, type HouseGameParams } from '../../../src/fairness/games.ts';
import { DEFAULT_SLOT_SKIN, slotSkin } from '../../../src/fairness/slot.ts';
import { fairnessFormOf, fairnessLink, type HouseFairness } from '../../../src/machines/fairness.address.ts';
import { betOf, resultOf, type Bet } from '../../../src/machines/fairness.machine.ts';
import { verifyBet } from '../../../src/machines/fairness.verify.ts';
import { hmacNumbers, PAIR, sha256 } from './vectors.ts';

/*
 * The /fairness page's whole path without a browser: a bet as the bet history gives it (its outcome drawn
 * here from an independent HMAC stream), its Verify link, the form that link fills in, the bet the
 * machine reads from it and the recomputation through src/fairness: for every game, seed and result
 * match; a tampered nonce does not; a form that cannot be read says which field.
 */

const COUNTS: Record<HouseGame, number> = { dice: 1, limbo: 1, mines: 24, plinko: 16, slot: 5 };

/** A recorded round, as server/games records it and the bet history returns it. */
function recorded(game: HouseGame, params: Record<string, unknown>, libraryParams: HouseGameParams[HouseGame], skin: HouseFairness['slotSkin'] = null): HouseFairness {
  const drawn = gameOutcome(game, hmacNumbers(PAIR.serverSeed, PAIR.clientSeed, PAIR.nonce, COUNTS[game]), libraryParams) as unknown as Record<string, unknown>;
  const { multiplier: _multiplier, lines: _lines, ...outcome } = drawn;
  return {
    engine: game,
    serverSeedHash: sha256(PAIR.serverSeed),
    clientSeed: PAIR.clientSeed,
    nonce: PAIR.nonce,
    serverSeed: PAIR.serverSeed,
    params: params as HouseFairness['params'],
    outcome: (game === 'mines' ? { revealed: [], mines: outcome.mines, end: 'busted' } : outcome) as HouseFairness['outcome'],
    slotSkin: skin,
  };
}

const SKIN = slotSkin(20260501, 9600);
const ROUNDS: [string, HouseFairness][] = [
  ['dice', recorded('dice', { target: 4950, direction: 'over' }, { target: 4950, direction: 'over' })],
  ['limbo', recorded('limbo', { target: 250 }, { target: 250 })],
  ['mines', recorded('mines', { mineCount: 5 }, { mineCount: 5 })],
  ['plinko', recorded('plinko', { rows: 12, risk: 'high' }, { rows: 12, risk: 'high' })],
  ['a slot title', recorded('slot', {}, { skin: SKIN }, SKIN)],
];

describe('the /fairness page, from the bet history link to the verdict', () => {
  it.each(ROUNDS)('verifies a %s bet from its Verify link', async (_name, fairness) => {
    const link = fairnessLink(fairness)!;
    expect(link.startsWith('/fairness?')).toBe(true);
    const form = fairnessFormOf(link.slice('/fairness'.length));
    const bet = betOf(form) as Bet;
    expect(bet.game).toBe(fairness.engine);
    const verified = await verifyBet(bet);
    if (!verified.ok) throw new Error(verified.error);
    const result = resultOf(form, verified);
    expect(result.serverSeedHash).toBe(fairness.serverSeedHash);
    expect(result).toMatchObject({ hashCheck: 'match', outcomeCheck: 'match' });

    const tampered = { ...form, nonce: String(PAIR.nonce + 1) };
    const again = await verifyBet(betOf(tampered) as Bet);
    if (!again.ok) throw new Error(again.error);
    expect(resultOf(tampered, again)).toMatchObject({ hashCheck: 'match', outcomeCheck: 'mismatch' });
  });

  it('has no link before the rotation reveals the server seed', () => {
    expect(fairnessLink({ ...ROUNDS[0]![1], serverSeed: null })).toBeNull();
  });

  it('plays an empty skin as the default one, and says which field cannot be read', async () => {
    const form = { ...fairnessFormOf(''), game: 'slot' as const, serverSeed: PAIR.serverSeed, clientSeed: PAIR.clientSeed, nonce: String(PAIR.nonce) };
    const verified = await verifyBet(betOf(form) as Bet);
    if (!verified.ok) throw new Error(verified.error);
    const expected = gameOutcome('slot', hmacNumbers(PAIR.serverSeed, PAIR.clientSeed, PAIR.nonce, 5), { skin: DEFAULT_SLOT_SKIN });
    expect(verified.outcome.stops).toEqual(expected.stops);
    expect(verified.outcome.glyphs?.[0]?.[0]).toBe(DEFAULT_SLOT_SKIN.symbols[expected.grid[0]![0]!]!.glyph);

    expect(betOf({ ...form, nonce: 'seven' })).toEqual({ error: 'seed.nonce' });
    expect(betOf({ ...form, slotSkin: '{not json' })).toEqual({ error: 'slot.skin' });
    expect(betOf({ ...form, game: 'dice', diceTarget: '49.505' })).toEqual({ error: 'dice.target' });
    expect(await verifyBet(betOf({ ...form, serverSeed: 'short' }) as Bet)).toEqual({ ok: false, error: 'seed.server' });
    expect(await verifyBet(betOf({ ...form, game: 'mines', mineCount: '25' }) as Bet)).toEqual({ ok: false, error: 'mines.count' });
  });
});
