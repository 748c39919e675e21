import { assign, setup } from 'xstate';
import type { components } from '../api/schema.d.ts';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';
import { liveEventsNotProvided, type DepositActivity, type Wallet } from './live.ts';

/*
 * The wallet's Transactions tab (SPEC §3: id, type, date, amount, status, before and after balance),
 * newest first (GET /user/get-transactions), of the dialog's currency. FILTER sets the type and the
 * days (from and to, both included, in the player's time zone) and loads the first page again; a "to"
 * before "from" is refused beside the field and nothing is asked: the rows, "Load more" and the reloads
 * keep the last filter accepted (`query`) until the player mends it. Changing the filter stops the call
 * in flight (its late answer is never shown). LOAD_MORE appends the next page while the count says there
 * are more. A balance that moves (LIVE.WALLETS), a deposit of this currency that settles (LIVE.DEPOSIT:
 * one under the minimum is listed without moving a balance) or a stream back from a drop loads the first
 * page again with the filter accepted, whatever the list was doing, so a new movement shows without a
 * reload: a list on screen stays there meanwhile (`shown.refreshing`) and is replaced by the answer.
 */

export type Transaction = components['schemas']['Transaction'];
export type TransactionType = components['schemas']['TransactionType'];

export const TRANSACTION_TYPES: readonly TransactionType[] = ['deposit', 'withdraw', 'casino', 'bonus', 'referral'];
export const TRANSACTIONS_PAGE_SIZE = 20;

export interface TransactionFilter {
  /** null: every type. */
  type: TransactionType | null;
  /** Days as the date input gives them (YYYY-MM-DD); '' for no bound. */
  from: string;
  to: string;
}

export interface TransactionsRequest {
  page: number;
  limit: number;
  currencyCode: string;
  type?: TransactionType;
  startDate?: string;
  endDate?: string;
}

export interface TransactionsPage {
  rows: Transaction[];
  count: number;
}

export interface TransactionsInput {
  currencyCode: string;
}

export interface TransactionsContext {
  currencyCode: string;
  /** What the filter controls show: the player's last choice, accepted or refused. */
  filter: TransactionFilter;
  /** The filter of the rows shown and of every request: the last one accepted. */
  query: TransactionFilter;
  /** 'dateRange' when "to" is before "from" (then `filter` was refused and `query` kept). */
  filterError: 'dateRange' | null;
  page: number;
  rows: Transaction[];
  count: number;
  errorCode: ErrorCode | null;
}

export type TransactionsEvent =
  | { type: 'FILTER'; filter: TransactionFilter }
  | { type: 'LOAD_MORE' }
  | { type: 'RETRY' }
  | { type: 'LIVE.WALLETS'; wallets: Wallet[] }
  | { type: 'LIVE.DEPOSIT'; deposit: DepositActivity }
  | { type: 'LIVE.RECONNECTED' };

/** Local midnight of a YYYY-MM-DD day, `days` later, as an instant; null for a day that is not one. */
export function dayStart(day: string, days = 0): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The query of one page with the filter accepted: "from" inclusive, "to" includes its whole day. */
export function transactionsRequest(context: Pick<TransactionsContext, 'currencyCode' | 'query'>, page: number): TransactionsRequest {
  const startDate = dayStart(context.query.from);
  const endDate = dayStart(context.query.to, 1);
  return {
    page,
    limit: TRANSACTIONS_PAGE_SIZE,
    currencyCode: context.currencyCode,
    ...(context.query.type ? { type: context.query.type } : {}),
    ...(startDate ? { startDate } : {}),
    ...(endDate ? { endDate } : {}),
  };
}

/** Whether the rows shown are narrowed by a filter (the empty list then says nothing matches). */
export function isFiltered(filter: TransactionFilter): boolean {
  return filter.type !== null || filter.from !== '' || filter.to !== '';
}

export function hasMoreTransactions(context: Pick<TransactionsContext, 'rows' | 'count'>): boolean {
  return context.rows.length < context.count;
}

/**
 * Back to the first page with the filter accepted, from whatever the list was doing: `loading` is entered
 * again (its call in flight stopped) while the root's live subscription stays (no `reenter`).
 */
const reload = { target: '#transactions.loading' } as const;
const refresh = { target: '#transactions.shown.refreshing' } as const;

export const transactionsMachine = setup({
  types: {
    context: {} as TransactionsContext,
    events: {} as TransactionsEvent,
    input: {} as TransactionsInput,
  },
  actors: {
    /** GET /user/get-transactions */
    loadTransactions: notProvided<TransactionsPage, TransactionsRequest>('loadTransactions'),
    liveEvents: liveEventsNotProvided,
  },
  actions: {
    acceptFilter: assign((_, params: { filter: TransactionFilter }) => ({ filter: params.filter, query: params.filter, filterError: null })),
    refuseFilter: assign((_, params: { filter: TransactionFilter }) => ({ filter: params.filter, filterError: 'dateRange' as const })),
    storeFirstPage: assign((_, params: { page: TransactionsPage }) => ({ page: 1, rows: params.page.rows, count: params.page.count, errorCode: null })),
    appendPage: assign(({ context }, params: { page: TransactionsPage }) => {
      // A row that moved down onto this page (newer ones came meanwhile) is listed once.
      const known = new Set(context.rows.map((row) => row.transactionId));
      const rows = [...context.rows, ...params.page.rows.filter((row) => !known.has(row.transactionId))];
      return { page: context.page + 1, rows, count: params.page.count, errorCode: null };
    }),
    /** An empty next page: the list ended sooner than its count said (rows gone meanwhile); nothing more to offer. */
    endList: assign(({ context }) => ({ count: context.rows.length, errorCode: null })),
    storeFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
  },
  guards: {
    backwards: (_, params: { filter: TransactionFilter }) => params.filter.from !== '' && params.filter.to !== '' && params.filter.to < params.filter.from,
    pageHasRows: (_, params: { page: TransactionsPage }) => params.page.rows.length > 0,
    hasMore: ({ context }) => hasMoreTransactions(context),
    /** A deposit of this list's currency credited or found under the minimum: a row came or changed. */
    settledHere: ({ context }, params: { deposit: DepositActivity }) =>
      params.deposit.currencyCode === context.currencyCode && params.deposit.status !== 'pending',
  },
}).createMachine({
  id: 'transactions',
  context: ({ input }) => ({
    currencyCode: input.currencyCode,
    filter: { type: null, from: '', to: '' },
    query: { type: null, from: '', to: '' },
    filterError: null,
    page: 0,
    rows: [],
    count: 0,
    errorCode: null,
  }),
  invoke: { src: 'liveEvents' },
  on: {
    FILTER: [
      { guard: { type: 'backwards', params: ({ event }) => ({ filter: event.filter }) }, actions: { type: 'refuseFilter', params: ({ event }) => ({ filter: event.filter }) } },
      { ...reload, actions: { type: 'acceptFilter', params: ({ event }) => ({ filter: event.filter }) } },
    ],
    'LIVE.WALLETS': reload,
    'LIVE.DEPOSIT': { ...reload, guard: { type: 'settledHere', params: ({ event }) => ({ deposit: event.deposit }) } },
    'LIVE.RECONNECTED': reload,
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadTransactions',
        input: ({ context }) => transactionsRequest(context, 1),
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
        'LIVE.DEPOSIT': { ...refresh, guard: { type: 'settledHere', params: ({ event }) => ({ deposit: event.deposit }) } },
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
            src: 'loadTransactions',
            input: ({ context }) => transactionsRequest(context, context.page + 1),
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
            src: 'loadTransactions',
            input: ({ context }) => transactionsRequest(context, 1),
            onDone: [
              {
                guard: { type: 'pageHasRows', params: ({ event }) => ({ page: event.output }) },
                target: 'idle',
                actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) },
              },
              { target: '#transactions.empty', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
            ],
            onError: { target: '#transactions.failed', actions: { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
          },
        },
      },
    },
  },
});
