import { assign, setup } from 'xstate';
import { diceParamsError, type DiceDirection } from '../fairness/dice.ts';
import { limboParamsError } from '../fairness/limbo.ts';
import { plinkoParamsError, type PlinkoRisk } from '../fairness/plinko.ts';
import type { ErrorCode } from './effects.ts';
import { notProvided } from './effects.ts';
import type { ServerFieldError } from './failure.ts';
import {
  amountCode,
  doubleAmount,
  failureOf,
  halveAmount,
  openingAmount,
  withResult,
  type AmountCode,
  type HouseRound,
  type HouseTable,
} from './house.ts';

/*
 * A house game played in one call (Dice, Limbo, Plinko, the slot), on its own page (/house/ENGINE.html,
 * in a frame of the game page /play/SESSION): the table loads (GET /house/SESSION: balance, stake limits,
 * seeds, the slot's skin), the player sets the amount (½ and 2× within the table's limits) and the game's
 * parameters, plays, the result shows briefly as an animation (`resultShown`) and then in words, and joins
 * the last results. A refusal keeps its code (and the server's per-field codes, shown beside their
 * controls). The seed panel beside it is a flow of its own (houseSeeds.machine.ts), told of each round.
 */

export type InstantEngine = 'dice' | 'limbo' | 'plinko' | 'slot';

export interface HouseTableInput {
  sessionId: string;
  /** The page's game: dice.html plays Dice. */
  engine: InstantEngine;
}

export interface DiceChoice {
  /** Hundredths: 5000 is 50.00. */
  target: number;
  direction: DiceDirection;
}

export interface HouseTableContext extends HouseTableInput {
  table: HouseTable | null;
  /** What the bet field holds, as typed. */
  amount: string;
  amountError: AmountCode | null;
  dice: DiceChoice;
  /** Hundredths: 200 is ×2.00. */
  limbo: { target: number };
  plinko: { rows: number; risk: PlinkoRisk };
  /** The round just played, newest first in `history`. */
  round: HouseRound | null;
  history: HouseRound[];
  /** The balance as the last answer gave it (null: a win the wallet still owes). */
  balance: string | null;
  errorCode: ErrorCode | null;
  /** Per-field codes: the server's, or the page's own check of the parameters (`target`, `rows`). */
  fieldErrors: ServerFieldError[];
}

export type HouseTableEvent =
  | { type: 'AMOUNT.CHANGE'; value: string }
  | { type: 'AMOUNT.HALVE' }
  | { type: 'AMOUNT.DOUBLE' }
  | { type: 'DICE.CHANGE'; target: number; direction: DiceDirection }
  | { type: 'LIMBO.CHANGE'; target: number }
  | { type: 'PLINKO.CHANGE'; rows: number; risk: PlinkoRisk }
  | { type: 'PLAY' }
  | { type: 'RETRY' };

export interface PlayRequest<TParams> {
  sessionId: string;
  amount: string;
  params: TParams;
}

/** The parameters' own problem, as the server would name it, or null. */
function paramsFieldErrors(context: HouseTableContext): ServerFieldError[] {
  if (context.engine === 'dice') {
    const code = diceParamsError(context.dice);
    return code === null ? [] : [{ field: code === 'dice.direction' ? 'direction' : 'target', code }];
  }
  if (context.engine === 'limbo') {
    const code = limboParamsError(context.limbo);
    return code === null ? [] : [{ field: 'target', code }];
  }
  if (context.engine === 'plinko') {
    const code = plinkoParamsError(context.plinko);
    return code === null ? [] : [{ field: code === 'plinko.risk' ? 'risk' : 'rows', code }];
  }
  return [];
}

const request = <TParams>(context: HouseTableContext, params: TParams): PlayRequest<TParams> => ({
  sessionId: context.sessionId,
  amount: context.amount.trim(),
  params,
});

const played = {
  target: '#houseTable.showing',
  actions: [
    { type: 'storeRound' as const, params: ({ event }: { event: { output: HouseRound } }) => ({ round: event.output }) },
    { type: 'announceRound' as const, params: ({ event }: { event: { output: HouseRound } }) => ({ round: event.output }) },
  ],
};
const refused = {
  target: '#houseTable.idle',
  actions: { type: 'storeFailure' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
};

export const houseTableMachine = setup({
  types: {
    context: {} as HouseTableContext,
    events: {} as HouseTableEvent,
    input: {} as HouseTableInput,
  },
  actors: {
    /** GET /house/{sessionId} */
    loadHouseTable: notProvided<HouseTable, { sessionId: string }>('loadHouseTable'),
    /** POST /house/{sessionId}/dice */
    playDice: notProvided<HouseRound, PlayRequest<DiceChoice>>('playDice'),
    /** POST /house/{sessionId}/limbo */
    playLimbo: notProvided<HouseRound, PlayRequest<{ target: number }>>('playLimbo'),
    /** POST /house/{sessionId}/plinko */
    playPlinko: notProvided<HouseRound, PlayRequest<{ rows: number; risk: PlinkoRisk }>>('playPlinko'),
    /** POST /house/{sessionId}/slot */
    playSlot: notProvided<HouseRound, PlayRequest<Record<string, never>>>('playSlot'),
  },
  actions: {
    /** Tells the game page a real-money round was settled (its balance pill follows the wallet anyway). */
    announceRound: (_, _params: { round: HouseRound }) => {},
    storeTable: assign(({ context }, params: { table: HouseTable }) => ({
      table: params.table,
      balance: params.table.balance,
      amount: context.table === null ? openingAmount(params.table) : context.amount,
      errorCode: null,
      fieldErrors: [],
    })),
    setAmount: assign((_, params: { value: string }) => ({ amount: params.value, amountError: null, errorCode: null })),
    halveAmount: assign(({ context }) => ({ amount: halveAmount(context.amount, context.table), amountError: null, errorCode: null })),
    doubleAmount: assign(({ context }) => ({ amount: doubleAmount(context.amount, context.table), amountError: null, errorCode: null })),
    setDice: assign((_, params: DiceChoice) => ({ dice: params, fieldErrors: [], errorCode: null })),
    setLimbo: assign((_, params: { target: number }) => ({ limbo: params, fieldErrors: [], errorCode: null })),
    setPlinko: assign((_, params: { rows: number; risk: PlinkoRisk }) => ({ plinko: params, fieldErrors: [], errorCode: null })),
    markAmount: assign(({ context }) => ({ amountError: amountCode(context.amount, context.table) })),
    markParams: assign(({ context }) => ({ fieldErrors: paramsFieldErrors(context) })),
    clearFailure: assign({ errorCode: null, fieldErrors: [], amountError: null }),
    storeRound: assign(({ context }, params: { round: HouseRound }) => ({
      round: params.round,
      history: withResult(context.history, params.round),
      balance: params.round.balance,
    })),
    storeFailure: assign((_, params: { error: unknown }) => failureOf(params.error)),
  },
  guards: {
    amountInvalid: ({ context }) => amountCode(context.amount, context.table) !== null,
    paramsInvalid: ({ context }) => paramsFieldErrors(context).length > 0,
    isDice: ({ context }) => context.engine === 'dice',
    isLimbo: ({ context }) => context.engine === 'limbo',
    isPlinko: ({ context }) => context.engine === 'plinko',
  },
  delays: {
    /** How long the result is animated before it is stated in words (0 for players who ask for less motion). */
    resultShown: 900,
  },
}).createMachine({
  id: 'houseTable',
  context: ({ input }) => ({
    ...input,
    table: null,
    amount: '',
    amountError: null,
    dice: { target: 5000, direction: 'under' },
    limbo: { target: 200 },
    plinko: { rows: 12, risk: 'medium' },
    round: null,
    history: [],
    balance: null,
    errorCode: null,
    fieldErrors: [],
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadHouseTable',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: { target: 'idle', actions: { type: 'storeTable', params: ({ event }) => ({ table: event.output }) } },
        onError: { target: 'unavailable', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** The table did not load: the reason, and Retry. */
    unavailable: {
      on: { RETRY: { target: 'loading', actions: 'clearFailure' } },
    },
    idle: {
      on: {
        'AMOUNT.CHANGE': { actions: { type: 'setAmount', params: ({ event }) => ({ value: event.value }) } },
        'AMOUNT.HALVE': { actions: 'halveAmount' },
        'AMOUNT.DOUBLE': { actions: 'doubleAmount' },
        'DICE.CHANGE': { actions: { type: 'setDice', params: ({ event }) => ({ target: event.target, direction: event.direction }) } },
        'LIMBO.CHANGE': { actions: { type: 'setLimbo', params: ({ event }) => ({ target: event.target }) } },
        'PLINKO.CHANGE': { actions: { type: 'setPlinko', params: ({ event }) => ({ rows: event.rows, risk: event.risk }) } },
        PLAY: [
          { guard: 'amountInvalid', actions: 'markAmount' },
          { guard: 'paramsInvalid', actions: 'markParams' },
          { guard: 'isDice', target: 'playing.dice', actions: 'clearFailure' },
          { guard: 'isLimbo', target: 'playing.limbo', actions: 'clearFailure' },
          { guard: 'isPlinko', target: 'playing.plinko', actions: 'clearFailure' },
          { target: 'playing.slot', actions: 'clearFailure' },
        ],
      },
    },
    /** The round is asked for: one call per engine. */
    playing: {
      initial: 'dice',
      states: {
        dice: {
          invoke: {
            src: 'playDice',
            input: ({ context }) => request(context, context.dice),
            onDone: played,
            onError: refused,
          },
        },
        limbo: {
          invoke: {
            src: 'playLimbo',
            input: ({ context }) => request(context, context.limbo),
            onDone: played,
            onError: refused,
          },
        },
        plinko: {
          invoke: {
            src: 'playPlinko',
            input: ({ context }) => request(context, context.plinko),
            onDone: played,
            onError: refused,
          },
        },
        slot: {
          invoke: {
            src: 'playSlot',
            input: ({ context }) => request(context, {}),
            onDone: played,
            onError: refused,
          },
        },
      },
    },
    /** The result is animated (the roll, the multiplier, the ball, the reels), then stated in words. */
    showing: {
      after: { resultShown: 'idle' },
    },
  },
});
