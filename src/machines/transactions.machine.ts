import { assign, setup } from 'xstate';
import type { components } from '../api/schema.d.ts';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';
import { liveEventsNotProvided, type Wallet } from './live.ts';

/*
 * The wallet's Transactions tab (SPEC §3: id, type, date, amount, status, before and after balance),
 * newest first (GET /user/get-transactions), of the dialog's currency. FILTER sets the type and the
 * days (from and to, both included, in the player's time zone) and loads the first page again; a "to"
 * before "from" is refused beside the field and nothing is asked. LOAD_MORE appends the next page while
 * the count says there are more. A balance that moves (LIVE.WALLETS) or a stream back from a drop loads
 * the first page again, so a new movement shows without a reload.
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
  filter: TransactionFilter;
  /** 'dateRange' when "to" is before "from". */
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
  | { type: 'LIVE.RECONNECTED' };

/** Local midnight of a YYYY-MM-DD day, `days` later, as an instant; null for a day that is not one. */
function dayStart(day: string, days = 0): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The query of one page with the filter: "to" includes its whole day. */
export function transactionsRequest(context: Pick<TransactionsContext, 'currencyCode' | 'filter'>, page: number): TransactionsRequest {
  const startDate = dayStart(context.filter.from);
  const endDate = dayStart(context.filter.to, 1);
  return {
    page,
    limit: TRANSACTIONS_PAGE_SIZE,
    currencyCode: context.currencyCode,
    ...(context.filter.type ? { type: context.filter.type } : {}),
    ...(startDate ? { startDate } : {}),
    ...(endDate ? { endDate } : {}),
  };
}

export function hasMoreTransactions(context: Pick<TransactionsContext, 'rows' | 'count'>): boolean {
  return context.rows.length < context.count;
}

const reload = { target: '#transactions.loading' } as const;

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
    storeFilter: assign((_, params: { filter: TransactionFilter }) => ({ filter: params.filter, filterError: null })),
    refuseFilter: assign((_, params: { filter: TransactionFilter }) => ({ filter: params.filter, filterError: 'dateRange' as const })),
    storeFirstPage: assign((_, params: { page: TransactionsPage }) => ({ page: 1, rows: params.page.rows, count: params.page.count, errorCode: null })),
    appendPage: assign(({ context }, params: { page: TransactionsPage }) => {
      const known = new Set(context.rows.map((row) => row.transactionId));
      const rows = [...context.rows, ...params.page.rows.filter((row) => !known.has(row.transactionId))];
      // An empty page means the list ended early: nothing more to offer.
      return { page: context.page + 1, rows, count: params.page.rows.length === 0 ? rows.length : params.page.count, errorCode: null };
    }),
    storeFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
  },
  guards: {
    backwards: (_, params: { filter: TransactionFilter }) => params.filter.from !== '' && params.filter.to !== '' && params.filter.to < params.filter.from,
    pageHasRows: (_, params: { page: TransactionsPage }) => params.page.rows.length > 0,
    hasMore: ({ context }) => hasMoreTransactions(context),
  },
}).createMachine({
  id: 'transactions',
  context: ({ input }) => ({
    currencyCode: input.currencyCode,
    filter: { type: null, from: '', to: '' },
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
      { ...reload, reenter: true, actions: { type: 'storeFilter', params: ({ event }) => ({ filter: event.filter }) } },
    ],
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
    empty: {
      on: { 'LIVE.WALLETS': reload, 'LIVE.RECONNECTED': reload },
    },
    shown: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            LOAD_MORE: { guard: 'hasMore', target: 'loadingMore' },
            'LIVE.WALLETS': reload,
            'LIVE.RECONNECTED': reload,
          },
        },
        loadingMore: {
          invoke: {
            src: 'loadTransactions',
            input: ({ context }) => transactionsRequest(context, context.page + 1),
            onDone: { target: 'idle', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
            onError: { target: 'moreFailed', actions: { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
          },
        },
        moreFailed: {
          on: { RETRY: 'loadingMore' },
        },
      },
    },
  },
});
