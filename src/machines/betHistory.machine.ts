import { assign, setup } from 'xstate';
import type { components } from '../api/schema.d.ts';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';
import { liveEventsNotProvided, type Wallet } from './live.ts';
import { dayStart } from './transactions.machine.ts';

/*
 * The bet history (SPEC §3: date and time, game, bet amount, multiplier, payout), the player's rounds in
 * every currency, newest first (GET /casino/get-transactions). FILTER sets the game and the days (from
 * and to, both included, in the player's time zone, as the wallet's transactions) and loads the first
 * page again, stopping the call in flight (its late answer is never shown); a "to" before "from" is
 * refused beside the field and nothing is asked: the rows, "Load more" and the reloads keep the last
 * filter accepted (`query`). The game is picked among the games of the rounds loaded so far (`games`,
 * which only grows, so the game picked stays offered). LOAD_MORE appends the next page while the count
 * says there are more (a round already listed is not listed twice). A balance that moves (LIVE.WALLETS:
 * a round was just played) or a stream back from a drop loads the first page again, a list on screen
 * staying there meanwhile (`shown.refreshing`).
 */

export type BetHistoryItem = components['schemas']['BetHistoryItem'];
export type GameRef = components['schemas']['GameRef'];

export const BET_HISTORY_PAGE_SIZE = 20;

export interface BetHistoryFilter {
  /** null: every game. */
  gameId: number | null;
  /** Days as the date input gives them (YYYY-MM-DD); '' for no bound. */
  from: string;
  to: string;
}

export interface BetHistoryRequest {
  page: number;
  limit: number;
  gameId?: number;
  startDate?: string;
  endDate?: string;
}

export interface BetHistoryPage {
  rows: BetHistoryItem[];
  count: number;
}

export interface BetHistoryContext {
  /** What the filter controls show: the player's last choice, accepted or refused. */
  filter: BetHistoryFilter;
  /** The filter of the rows shown and of every request: the last one accepted. */
  query: BetHistoryFilter;
  /** 'dateRange' when "to" is before "from" (then `filter` was refused and `query` kept). */
  filterError: 'dateRange' | null;
  page: number;
  rows: BetHistoryItem[];
  count: number;
  /** Every game of the rounds loaded so far, by name: what the game filter offers. */
  games: GameRef[];
  errorCode: ErrorCode | null;
}

export type BetHistoryEvent =
  | { type: 'FILTER'; filter: BetHistoryFilter }
  | { type: 'LOAD_MORE' }
  | { type: 'RETRY' }
  | { type: 'LIVE.WALLETS'; wallets: Wallet[] }
  | { type: 'LIVE.RECONNECTED' };

export const NO_FILTER: BetHistoryFilter = { gameId: null, from: '', to: '' };

/** The query of one page with the filter accepted: "from" inclusive, "to" includes its whole day. */
export function betHistoryRequest(context: Pick<BetHistoryContext, 'query'>, page: number): BetHistoryRequest {
  const startDate = dayStart(context.query.from);
  const endDate = dayStart(context.query.to, 1);
  return {
    page,
    limit: BET_HISTORY_PAGE_SIZE,
    ...(context.query.gameId !== null ? { gameId: context.query.gameId } : {}),
    ...(startDate ? { startDate } : {}),
    ...(endDate ? { endDate } : {}),
  };
}

/** Whether the rows shown are narrowed by a filter (the empty list then says nothing matches). */
export function isBetHistoryFiltered(filter: BetHistoryFilter): boolean {
  return filter.gameId !== null || filter.from !== '' || filter.to !== '';
}

export function hasMoreBets(context: Pick<BetHistoryContext, 'rows' | 'count'>): boolean {
  return context.rows.length < context.count;
}

/** The games known so far with those of new rows, each once, by name. */
export function mergeGames(games: readonly GameRef[], rows: readonly BetHistoryItem[]): GameRef[] {
  const byId = new Map(games.map((game) => [game.id, game]));
  for (const row of rows) if (!byId.has(row.game.id)) byId.set(row.game.id, row.game);
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** Back to the first page with the filter accepted, from whatever the list was doing (the call in flight stopped). */
const reload = { target: '#betHistory.loading' } as const;
const refresh = { target: '#betHistory.shown.refreshing' } as const;

export const betHistoryMachine = setup({
  types: {
    context: {} as BetHistoryContext,
    events: {} as BetHistoryEvent,
  },
  actors: {
    /** GET /casino/get-transactions */
    loadBetHistory: notProvided<BetHistoryPage, BetHistoryRequest>('loadBetHistory'),
    liveEvents: liveEventsNotProvided,
  },
  actions: {
    acceptFilter: assign((_, params: { filter: BetHistoryFilter }) => ({ filter: params.filter, query: params.filter, filterError: null })),
    refuseFilter: assign((_, params: { filter: BetHistoryFilter }) => ({ filter: params.filter, filterError: 'dateRange' as const })),
    storeFirstPage: assign(({ context }, params: { page: BetHistoryPage }) => ({
      page: 1,
      rows: params.page.rows,
      count: params.page.count,
      games: mergeGames(context.games, params.page.rows),
      errorCode: null,
    })),
    appendPage: assign(({ context }, params: { page: BetHistoryPage }) => {
      // A round that moved down onto this page (newer ones came meanwhile) is listed once.
      const known = new Set(context.rows.map((row) => row.roundId));
      const rows = [...context.rows, ...params.page.rows.filter((row) => !known.has(row.roundId))];
      return { page: context.page + 1, rows, count: params.page.count, games: mergeGames(context.games, params.page.rows), errorCode: null };
    }),
    /** An empty next page: the list ended sooner than its count said; nothing more to offer. */
    endList: assign(({ context }) => ({ count: context.rows.length, errorCode: null })),
    storeFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
  },
  guards: {
    backwards: (_, params: { filter: BetHistoryFilter }) => params.filter.from !== '' && params.filter.to !== '' && params.filter.to < params.filter.from,
    pageHasRows: (_, params: { page: BetHistoryPage }) => params.page.rows.length > 0,
    hasMore: ({ context }) => hasMoreBets(context),
  },
}).createMachine({
  id: 'betHistory',
  context: {
    filter: NO_FILTER,
    query: NO_FILTER,
    filterError: null,
    page: 0,
    rows: [],
    count: 0,
    games: [],
    errorCode: null,
  },
  invoke: { src: 'liveEvents' },
  on: {
    FILTER: [
      { guard: { type: 'backwards', params: ({ event }) => ({ filter: event.filter }) }, actions: { type: 'refuseFilter', params: ({ event }) => ({ filter: event.filter }) } },
      { ...reload, actions: { type: 'acceptFilter', params: ({ event }) => ({ filter: event.filter }) } },
    ],
    'LIVE.WALLETS': reload,
    'LIVE.RECONNECTED': reload,
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadBetHistory',
        input: ({ context }) => betHistoryRequest(context, 1),
        onDone: [
          {
            guard: { type: 'pageHasRows', params: ({ event }) => ({ page: event.output }) },
            target: 'shown',
            actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) },
          },
          { target: 'empty', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    empty: {},
    shown: {
      initial: 'idle',
      on: {
        'LIVE.WALLETS': refresh,
        'LIVE.RECONNECTED': refresh,
      },
      states: {
        idle: {
          on: {
            LOAD_MORE: { guard: 'hasMore', target: 'loadingMore' },
          },
        },
        loadingMore: {
          invoke: {
            src: 'loadBetHistory',
            input: ({ context }) => betHistoryRequest(context, context.page + 1),
            onDone: [
              {
                guard: { type: 'pageHasRows', params: ({ event }) => ({ page: event.output }) },
                target: 'idle',
                actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) },
              },
              { target: 'idle', actions: 'endList' },
            ],
            onError: { target: 'moreFailed', actions: { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
          },
        },
        moreFailed: {
          on: { RETRY: 'loadingMore' },
        },
        /** The first page again, the rows shown until it comes (a call to load more is stopped). */
        refreshing: {
          invoke: {
            src: 'loadBetHistory',
            input: ({ context }) => betHistoryRequest(context, 1),
            onDone: [
              {
                guard: { type: 'pageHasRows', params: ({ event }) => ({ page: event.output }) },
                target: 'idle',
                actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) },
              },
              { target: '#betHistory.empty', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
            ],
            onError: { target: '#betHistory.failed', actions: { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
          },
        },
      },
    },
  },
});
