import { assign, setup } from 'xstate';
import type { SlotSkin } from '../fairness/slot.ts';
import type { VerifyError } from '../fairness/games.ts';
import { notProvided } from './effects.ts';
import { outcomeSummary, type FairnessForm, type FairnessGame } from './fairness.address.ts';

/*
 * The /fairness page: a house game's bet recomputed in the browser from its seeds and nonce (src/fairness
 * `verify`, WebCrypto; the `verifyBet` actor), for all five games, and checked against what the casino
 * showed and recorded: the server seed's SHA-256 against the hash shown before the bet, the result
 * against the one recorded (both optional). The form comes filled in from the address (the bet history's
 * "Verify"): a bet with its server seed is verified at once. Any change goes back to editing; a form that
 * cannot be read (a nonce that is no number, a target out of range, a skin that is no JSON, a seed of the
 * wrong shape) is refused with the field's code, before or by the library. A browser that cannot hash
 * (WebCrypto needs a secure page) fails with Retry.
 */

export type FairnessField = keyof FairnessForm;

/** A bet as the library takes it. */
export interface Bet {
  game: FairnessGame;
  pair: { serverSeed: string; clientSeed: string; nonce: number };
  params: Record<string, unknown>;
}

/** What the recomputation drew, as plain data: each game fills its own fields. */
export interface BetOutcome {
  /** Dice: the roll, hundredths. */
  roll?: number;
  /** Limbo: the result, hundredths. */
  result?: number;
  /** Dice and Limbo: whether the bet won. */
  win?: boolean;
  /** Mines: the mined tiles (0 to 24, row by row), in the order drawn. */
  mines?: number[];
  /** Plinko: the path, L or R per row, and the bucket it ends in. */
  path?: ('L' | 'R')[];
  bucket?: number;
  /** Slot: each reel's stop and the symbols shown, rows × reels. */
  stops?: number[];
  glyphs?: string[][];
  /** The multiplier paid (decimal text); null for Mines, whose pay depends on the tiles revealed. */
  multiplier: string | null;
}

export type VerifiedBet = { ok: true; serverSeedHash: string; numbers: number[]; outcome: BetOutcome } | { ok: false; error: VerifyError };

export type Check = 'match' | 'mismatch' | 'none';

export interface FairnessResult {
  game: FairnessGame;
  serverSeedHash: string;
  numbers: number[];
  outcome: BetOutcome;
  /** The result in a few characters, as the bet history records it (fairness.address.ts outcomeSummary). */
  summary: string | null;
  hashCheck: Check;
  outcomeCheck: Check;
}

export interface FairnessInput {
  form: FairnessForm;
}

export interface FairnessContext {
  form: FairnessForm;
  /** Opened from a link naming the bet's server seed, not yet verified: verified at once. */
  fromLink: boolean;
  result: FairnessResult | null;
  error: VerifyError | null;
}

export type FairnessEvent = { type: 'CHANGE'; field: FairnessField; value: string } | { type: 'VERIFY' } | { type: 'RETRY' };

/** '49.50' (or '49,50') → 4950; null when it is not a number with up to two decimals. */
function hundredths(text: string): number | null {
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function wholeNumber(text: string): number | null {
  return /^\d{1,10}$/.test(text.trim()) ? Number(text.trim()) : null;
}

/** The bet the form describes, or the code of the first field that cannot be read. */
export function betOf(form: FairnessForm): Bet | { error: VerifyError } {
  const nonce = wholeNumber(form.nonce);
  if (nonce === null) return { error: 'seed.nonce' };
  const pair = { serverSeed: form.serverSeed.trim(), clientSeed: form.clientSeed.trim(), nonce };
  switch (form.game) {
    case 'dice': {
      const target = hundredths(form.diceTarget);
      return target === null ? { error: 'dice.target' } : { game: 'dice', pair, params: { target, direction: form.diceDirection } };
    }
    case 'limbo': {
      const target = hundredths(form.limboTarget);
      return target === null ? { error: 'limbo.target' } : { game: 'limbo', pair, params: { target } };
    }
    case 'mines': {
      const mineCount = wholeNumber(form.mineCount);
      return mineCount === null ? { error: 'mines.count' } : { game: 'mines', pair, params: { mineCount } };
    }
    case 'plinko': {
      const rows = wholeNumber(form.plinkoRows);
      return rows === null ? { error: 'plinko.rows' } : { game: 'plinko', pair, params: { rows, risk: form.plinkoRisk } };
    }
    case 'slot': {
      // No skin: the default one (the Classic Slot's), which the recomputation brings with the library.
      if (form.slotSkin.trim() === '') return { game: 'slot', pair, params: { skin: null } };
      try {
        return { game: 'slot', pair, params: { skin: JSON.parse(form.slotSkin) as SlotSkin } };
      } catch {
        return { error: 'slot.skin' };
      }
    }
  }
}

function check(expected: string, actual: string | null): Check {
  const wanted = expected.replace(/\s+/g, '').toLowerCase();
  if (wanted === '') return 'none';
  return actual !== null && wanted === actual.toLowerCase() ? 'match' : 'mismatch';
}

/** The recomputed bet beside what the casino showed and recorded. */
export function resultOf(form: FairnessForm, verified: Extract<VerifiedBet, { ok: true }>): FairnessResult {
  const summary = outcomeSummary(form.game, verified.outcome);
  return {
    game: form.game,
    serverSeedHash: verified.serverSeedHash,
    numbers: verified.numbers,
    outcome: verified.outcome,
    summary,
    hashCheck: check(form.expectedHash, verified.serverSeedHash),
    outcomeCheck: check(form.expectedOutcome, summary),
  };
}

export const fairnessMachine = setup({
  types: {
    context: {} as FairnessContext,
    events: {} as FairnessEvent,
    input: {} as FairnessInput,
  },
  actors: {
    /** src/fairness verify, in the browser (WebCrypto): no casino API call. */
    verifyBet: notProvided<VerifiedBet, Bet>('verifyBet'),
  },
  actions: {
    change: assign(({ context }, params: { field: FairnessField; value: string }) => ({
      form: { ...context.form, [params.field]: params.value },
      result: null,
      error: null,
    })),
    storeResult: assign(({ context }, params: { verified: Extract<VerifiedBet, { ok: true }> }) => ({ result: resultOf(context.form, params.verified), error: null })),
    storeError: assign((_, params: { error: VerifyError }) => ({ error: params.error, result: null })),
    clear: assign({ error: null, result: null }),
    linkTaken: assign({ fromLink: false }),
  },
  guards: {
    prefilled: ({ context }) => context.fromLink,
    unreadable: ({ context }) => 'error' in betOf(context.form),
    verified: (_, params: { verified: VerifiedBet }) => params.verified.ok,
  },
}).createMachine({
  id: 'fairness',
  context: ({ input }) => ({ form: input.form, fromLink: input.form.serverSeed.trim() !== '', result: null, error: null }),
  initial: 'editing',
  on: {
    CHANGE: { target: '.editing', actions: { type: 'change', params: ({ event }) => ({ field: event.field, value: event.value }) } },
  },
  states: {
    editing: {
      // A link from the bet history names the whole bet: it is verified without a click, once.
      always: { guard: 'prefilled', target: 'checking', actions: 'linkTaken' },
      on: { VERIFY: { target: 'checking' } },
    },
    /** The form read into a bet, or refused at the first field that cannot be. */
    checking: {
      always: [
        {
          guard: 'unreadable',
          target: 'invalid',
          actions: { type: 'storeError', params: ({ context }) => ({ error: (betOf(context.form) as { error: VerifyError }).error }) },
        },
        { target: 'verifying' },
      ],
    },
    verifying: {
      entry: 'clear',
      invoke: {
        src: 'verifyBet',
        input: ({ context }) => betOf(context.form) as Bet,
        onDone: [
          {
            guard: { type: 'verified', params: ({ event }) => ({ verified: event.output }) },
            target: 'verified',
            actions: { type: 'storeResult', params: ({ event }) => ({ verified: event.output as Extract<VerifiedBet, { ok: true }> }) },
          },
          { target: 'invalid', actions: { type: 'storeError', params: ({ event }) => ({ error: (event.output as Extract<VerifiedBet, { ok: false }>).error }) } },
        ],
        onError: { target: 'failed' },
      },
    },
    /** The recomputed bet, and whether it matches. */
    verified: {
      on: { VERIFY: { target: 'checking' } },
    },
    /** A field that cannot be read: its message beside it. */
    invalid: {
      on: { VERIFY: { target: 'checking' } },
    },
    /** The browser could not compute (no WebCrypto outside a secure page). */
    failed: {
      on: { RETRY: { target: 'checking' } },
    },
  },
});
