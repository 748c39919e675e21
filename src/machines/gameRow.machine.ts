import { assign, setup } from 'xstate';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';
import type { GamesPage, GamesRequest } from './gameList.machine.ts';

/*
 * A lobby row (DESIGN.md): the first games of one category, and whether there are more for "View all".
 * The whole grid of a category, with its filters and pages, is a gameList; a row only ever shows its one
 * short page, so it stays this small (it is in the lobby's first load).
 */

export interface GameRowInput {
  categoryId: number;
  limit: number;
}

export interface GameRowContext extends GameRowInput, GamesPage {
  errorCode: ErrorCode | null;
}

export type GameRowEvent = { type: 'RETRY' };

export const gameRowMachine = setup({
  types: {
    context: {} as GameRowContext,
    events: {} as GameRowEvent,
    input: {} as GameRowInput,
  },
  actors: {
    /** GET /casino/get-all-games */
    loadGames: notProvided<GamesPage, GamesRequest>('loadGames'),
  },
  guards: {
    hasRows: (_, params: { page: GamesPage }) => params.page.rows.length > 0,
  },
}).createMachine({
  id: 'gameRow',
  context: ({ input }) => ({ ...input, rows: [], count: 0, errorCode: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadGames',
        input: ({ context }) => ({ page: 1, limit: context.limit, categoryId: context.categoryId }),
        onDone: [
          {
            guard: { type: 'hasRows', params: ({ event }) => ({ page: event.output }) },
            target: 'shown',
            actions: assign({ rows: ({ event }) => event.output.rows, count: ({ event }) => event.output.count }),
          },
          { target: 'empty' },
        ],
        onError: { target: 'failed', actions: assign({ errorCode: ({ event }) => toFailure(event.error).code }) },
      },
    },
    shown: {},
    /** A category without games: the lobby leaves its row out. */
    empty: {},
    failed: { on: { RETRY: 'loading' } },
  },
});
