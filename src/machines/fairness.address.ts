import type { components } from '../api/schema.d.ts';

/*
 * The /fairness page's address: a bet to recompute, as the bet history links it ("Verify") and as a player
 * may share it. Only light code here (no hashing, no skins): the bet history imports it to build its links,
 * and the /fairness page to read them into the fairness machine's input.
 *
 *   /fairness?game=dice&serverSeed=…&clientSeed=…&nonce=7&target=49.50&direction=over&hash=…&outcome=50.12
 *
 * Parameters per game: dice `target` (49.50) and `direction` (under|over), limbo `target` (2.00), mines
 * `mines` (how many), plinko `rows` and `risk`, slot `skin` (the title's skin as JSON; none: the default
 * skin). `hash` is the server seed's hash shown before the bet, `outcome` what the bet drew, in the words
 * of {@link outcomeSummary}.
 */

export type HouseFairness = components['schemas']['HouseFairness'];
export type FairnessGame = components['schemas']['HouseEngine'];

export const FAIRNESS_GAMES: readonly FairnessGame[] = ['dice', 'limbo', 'mines', 'plinko', 'slot'];

/** What the /fairness form holds: text as typed, every game's parameters kept while another is picked. */
export interface FairnessForm {
  game: FairnessGame;
  serverSeed: string;
  clientSeed: string;
  nonce: string;
  /** Dice: the target, 0.01 to 99.99. */
  diceTarget: string;
  diceDirection: 'under' | 'over';
  /** Limbo: the target multiplier, 1.01 and up. */
  limboTarget: string;
  mineCount: string;
  plinkoRows: string;
  plinkoRisk: 'low' | 'medium' | 'high';
  /** The slot title's skin as JSON; empty for the default skin (the Classic Slot's). */
  slotSkin: string;
  /** The server seed hash shown before the bet; empty: not compared. */
  expectedHash: string;
  /** What the bet drew ({@link outcomeSummary}); empty: not compared. */
  expectedOutcome: string;
}

export const EMPTY_FAIRNESS_FORM: FairnessForm = {
  game: 'dice',
  serverSeed: '',
  clientSeed: '',
  nonce: '0',
  diceTarget: '50.00',
  diceDirection: 'over',
  limboTarget: '2.00',
  mineCount: '3',
  plinkoRows: '16',
  plinkoRisk: 'low',
  slotSkin: '',
  expectedHash: '',
  expectedOutcome: '',
};

/** Hundredths as the page writes them: 4950 → '49.50'. */
export function hundredthsText(value: number): string {
  return (value / 100).toFixed(2);
}

/**
 * A bet's outcome in a few characters, the same for what the server recorded and what the page recomputes:
 * the dice roll (50.12), the limbo result (1.98), the mines' tiles in order (3,7,12), the plinko path
 * (LRRLLRRL), the slot's reel stops (3,17,8,0,21). Null when there is nothing to compare (a Mines round
 * still open).
 */
export function outcomeSummary(
  game: FairnessGame,
  outcome: { roll?: number; result?: number; mines?: readonly number[] | null; path?: readonly string[]; stops?: readonly number[] },
): string | null {
  switch (game) {
    case 'dice':
      return outcome.roll === undefined ? null : hundredthsText(outcome.roll);
    case 'limbo':
      return outcome.result === undefined ? null : hundredthsText(outcome.result);
    case 'mines':
      return outcome.mines ? [...outcome.mines].sort((a, b) => a - b).join(',') : null;
    case 'plinko':
      return outcome.path ? outcome.path.join('') : null;
    case 'slot':
      return outcome.stops ? outcome.stops.join(',') : null;
  }
}

/** The /fairness link of a house bet whose server seed was revealed; null before the rotation. */
export function fairnessLink(fairness: HouseFairness): string | null {
  if (fairness.serverSeed === null) return null;
  const params = new URLSearchParams({ game: fairness.engine, serverSeed: fairness.serverSeed, clientSeed: fairness.clientSeed, nonce: String(fairness.nonce) });
  const p = fairness.params as { target?: number; direction?: string; mineCount?: number; rows?: number; risk?: string };
  if (fairness.engine === 'dice' && p.target !== undefined) {
    params.set('target', hundredthsText(p.target));
    params.set('direction', p.direction ?? 'over');
  }
  if (fairness.engine === 'limbo' && p.target !== undefined) params.set('target', hundredthsText(p.target));
  if (fairness.engine === 'mines' && p.mineCount !== undefined) params.set('mines', String(p.mineCount));
  if (fairness.engine === 'plinko' && p.rows !== undefined) {
    params.set('rows', String(p.rows));
    params.set('risk', p.risk ?? 'low');
  }
  if (fairness.engine === 'slot' && fairness.slotSkin) params.set('skin', JSON.stringify(fairness.slotSkin));
  params.set('hash', fairness.serverSeedHash);
  const outcome = outcomeSummary(fairness.engine, fairness.outcome as Parameters<typeof outcomeSummary>[1]);
  if (outcome !== null) params.set('outcome', outcome);
  return `/fairness?${params.toString()}`;
}

function isGame(value: string | null): value is FairnessGame {
  return (FAIRNESS_GAMES as readonly (string | null)[]).includes(value);
}

/** The form an address prefills: what it names, the rest as on an empty form. */
export function fairnessFormOf(search: string): FairnessForm {
  const q = new URLSearchParams(search);
  const text = (name: string, fallback: string) => q.get(name) ?? fallback;
  const game = q.get('game');
  const form: FairnessForm = {
    ...EMPTY_FAIRNESS_FORM,
    game: isGame(game) ? game : EMPTY_FAIRNESS_FORM.game,
    serverSeed: text('serverSeed', ''),
    clientSeed: text('clientSeed', ''),
    nonce: text('nonce', EMPTY_FAIRNESS_FORM.nonce),
    mineCount: text('mines', EMPTY_FAIRNESS_FORM.mineCount),
    plinkoRows: text('rows', EMPTY_FAIRNESS_FORM.plinkoRows),
    slotSkin: text('skin', ''),
    expectedHash: text('hash', ''),
    expectedOutcome: text('outcome', ''),
  };
  const direction = q.get('direction');
  if (direction === 'under' || direction === 'over') form.diceDirection = direction;
  const risk = q.get('risk');
  if (risk === 'low' || risk === 'medium' || risk === 'high') form.plinkoRisk = risk;
  const target = q.get('target');
  if (target !== null && form.game === 'dice') form.diceTarget = target;
  if (target !== null && form.game === 'limbo') form.limboTarget = target;
  return form;
}
