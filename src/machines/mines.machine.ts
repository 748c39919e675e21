import { assign, setup } from 'xstate';
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
 * Mines on its own page (/house/mines.html, in a frame of /play/SESSION): the table loads, and a round
 * still open from before is resumed; the player picks the amount and the number of mines (1 to 24) and
 * starts a round (the stake is placed), then reveals tiles of the 5 × 5 board one at a time: a safe tile
 * raises what a cash out pays, a mine ends the round with nothing. Cashing out (after at least one safe
 * tile) or revealing the last safe tile ends it paid. The end is animated briefly (`resultShown`), then
 * stated in words, with the mines shown. The seed panel beside it is a flow of its own
 * (houseSeeds.machine.ts), told of each round; the page lets it rotate between rounds only (the server
 * refuses while a round is open: its board would be known).
 */

export interface MinesInput {
  sessionId: string;
}

export interface MinesContext extends MinesInput {
  table: HouseTable | null;
  amount: string;
  amountError: AmountCode | null;
  mineCount: number;
  /** The round in play, or the one that just ended. */
  round: HouseRound | null;
  history: HouseRound[];
  balance: string | null;
  errorCode: ErrorCode | null;
  fieldErrors: ServerFieldError[];
}

export type MinesEvent =
  | { type: 'AMOUNT.CHANGE'; value: string }
  | { type: 'AMOUNT.HALVE' }
  | { type: 'AMOUNT.DOUBLE' }
  /** 1 to 24, as the page's choice offers them (the server checks again: mines.count). */
  | { type: 'MINES.CHANGE'; mineCount: number }
  | { type: 'START' }
  | { type: 'REVEAL'; tile: number }
  | { type: 'CASH_OUT' }
  | { type: 'RETRY' };

const storeRound = {
  type: 'storeRound' as const,
  params: ({ event }: { event: { output: HouseRound } }) => ({ round: event.output }),
};
const ended = {
  target: '#mines.showing',
  actions: [
    { type: 'storeEnded' as const, params: ({ event }: { event: { output: HouseRound } }) => ({ round: event.output }) },
    { type: 'announceRound' as const, params: ({ event }: { event: { output: HouseRound } }) => ({ round: event.output }) },
  ],
};
const storeFailure = {
  type: 'storeFailure' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
};

export const minesMachine = setup({
  types: {
    context: {} as MinesContext,
    events: {} as MinesEvent,
    input: {} as MinesInput,
  },
  actors: {
    /** GET /house/{sessionId} */
    loadHouseTable: notProvided<HouseTable, { sessionId: string }>('loadHouseTable'),
    /** POST /house/{sessionId}/mines */
    startMines: notProvided<HouseRound, { sessionId: string; amount: string; mineCount: number }>('startMines'),
    /** POST /house/{sessionId}/mines/reveal */
    revealMinesTile: notProvided<HouseRound, { sessionId: string; tile: number }>('revealMinesTile'),
    /** POST /house/{sessionId}/mines/cash-out */
    cashOutMines: notProvided<HouseRound, { sessionId: string }>('cashOutMines'),
  },
  actions: {
    /** Tells the game page a real-money round was settled. */
    announceRound: (_, _params: { round: HouseRound }) => {},
    storeTable: assign(({ context }, params: { table: HouseTable }) => ({
      table: params.table,
      balance: params.table.balance,
      round: params.table.openRound,
      amount: context.table === null ? (params.table.openRound?.amount ?? openingAmount(params.table)) : context.amount,
      errorCode: null,
      fieldErrors: [],
    })),
    setAmount: assign((_, params: { value: string }) => ({ amount: params.value, amountError: null, errorCode: null })),
    halveAmount: assign(({ context }) => ({ amount: halveAmount(context.amount, context.table), amountError: null, errorCode: null })),
    doubleAmount: assign(({ context }) => ({ amount: doubleAmount(context.amount, context.table), amountError: null, errorCode: null })),
    setMineCount: assign((_, params: { mineCount: number }) => ({ mineCount: params.mineCount, fieldErrors: [], errorCode: null })),
    markAmount: assign(({ context }) => ({ amountError: amountCode(context.amount, context.table) })),
    clearFailure: assign({ errorCode: null, fieldErrors: [], amountError: null }),
    storeRound: assign((_, params: { round: HouseRound }) => ({ round: params.round, balance: params.round.balance ?? null })),
    storeEnded: assign(({ context }, params: { round: HouseRound }) => ({
      round: params.round,
      history: withResult(context.history, params.round),
      balance: params.round.balance,
    })),
    storeFailure: assign((_, params: { error: unknown }) => failureOf(params.error)),
  },
  guards: {
    amountInvalid: ({ context }) => amountCode(context.amount, context.table) !== null,
    hasOpenRound: (_, params: { table: HouseTable }) => params.table.openRound !== null,
    roundOpen: (_, params: { round: HouseRound }) => params.round.state === 'open',
  },
  delays: {
    /** How long the board's end is animated before it is stated in words (0 for less motion). */
    resultShown: 900,
  },
}).createMachine({
  id: 'mines',
  context: ({ input }) => ({
    ...input,
    table: null,
    amount: '',
    amountError: null,
    mineCount: 3,
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
        onDone: [
          {
            guard: { type: 'hasOpenRound', params: ({ event }) => ({ table: event.output }) },
            target: 'open',
            actions: { type: 'storeTable', params: ({ event }) => ({ table: event.output }) },
          },
          { target: 'idle', actions: { type: 'storeTable', params: ({ event }) => ({ table: event.output }) } },
        ],
        onError: { target: 'unavailable', actions: storeFailure },
      },
    },
    unavailable: {
      on: { RETRY: { target: 'loading', actions: 'clearFailure' } },
    },
    /** Between rounds: the amount, the number of mines, Start; the board shows the last round's end. */
    idle: {
      on: {
        'AMOUNT.CHANGE': { actions: { type: 'setAmount', params: ({ event }) => ({ value: event.value }) } },
        'AMOUNT.HALVE': { actions: 'halveAmount' },
        'AMOUNT.DOUBLE': { actions: 'doubleAmount' },
        'MINES.CHANGE': { actions: { type: 'setMineCount', params: ({ event }) => ({ mineCount: event.mineCount }) } },
        START: [
          { guard: 'amountInvalid', actions: 'markAmount' },
          { target: 'starting', actions: 'clearFailure' },
        ],
      },
    },
    starting: {
      invoke: {
        src: 'startMines',
        input: ({ context }) => ({ sessionId: context.sessionId, amount: context.amount.trim(), mineCount: context.mineCount }),
        onDone: { target: 'open', actions: storeRound },
        onError: { target: 'idle', actions: storeFailure },
      },
    },
    /** A round in play: reveal a tile, or cash out once a safe tile is revealed. */
    open: {
      on: {
        REVEAL: { target: 'revealing', actions: 'clearFailure' },
        CASH_OUT: { target: 'cashingOut', actions: 'clearFailure' },
      },
    },
    revealing: {
      invoke: {
        src: 'revealMinesTile',
        input: ({ context, event }) => ({ sessionId: context.sessionId, tile: event.type === 'REVEAL' ? event.tile : -1 }),
        onDone: [
          { guard: { type: 'roundOpen', params: ({ event }) => ({ round: event.output }) }, target: 'open', actions: storeRound },
          ended,
        ],
        onError: { target: 'open', actions: storeFailure },
      },
    },
    cashingOut: {
      invoke: {
        src: 'cashOutMines',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: ended,
        onError: { target: 'open', actions: storeFailure },
      },
    },
    /** The round ended (a mine, a cash out, the last safe tile): the board opens, then the result in words. */
    showing: {
      after: { resultShown: 'idle' },
    },
  },
});
