import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { CREDITED_WALLETS } from '../../../src/flows/fixtures/wallets.ts';
import { SEEN, TOO_SMALL } from '../../../src/flows/fixtures/deposit.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import {
  TRANSACTIONS_PAGE_SIZE,
  transactionsMachine,
  transactionsRequest,
  type Transaction,
  type TransactionFilter,
  type TransactionsPage,
  type TransactionsRequest,
} from '../../../src/machines/transactions.machine.ts';
import { deferred, flush, type Deferred } from './fixtures.ts';

function aRow(n: number, type: Transaction['type'] = 'deposit'): Transaction {
  return {
    transactionId: `6a1b2c3d-4e5f-4a6b-8c7d-${String(n).padStart(12, '0')}`,
    type,
    actionType: type === 'deposit' ? 'deposit' : 'withdraw',
    status: 'completed',
    amount: '0.1',
    beforeBalance: '0',
    afterBalance: '0.1',
    currencyCode: 'LTC',
    gameIdentifier: null,
    createdAt: `2025-02-01T10:${String(n % 60).padStart(2, '0')}:00.000Z`,
  };
}

const NO_FILTER: TransactionFilter = { type: null, from: '', to: '' };
const page = (rows: Transaction[], count: number): TransactionsPage => ({ rows, count });

/** The machine with a fake GET /user/get-transactions: every call waits until the test answers it. */
function run() {
  const calls: { request: TransactionsRequest; answer: Deferred<TransactionsPage> }[] = [];
  const machine = transactionsMachine.provide({
    actors: {
      // Like a server that answers anyway: the answer to a call the machine stopped still arrives.
      loadTransactions: fromPromise<TransactionsPage, TransactionsRequest>(({ input }) => {
        const answer = deferred<TransactionsPage>();
        calls.push({ request: input, answer });
        return answer.promise;
      }),
      liveEvents: fromCallback(() => undefined),
    },
  });
  const actor = createActor(machine, { input: { currencyCode: 'LTC' } }).start();
  const answer = async (index: number, result: TransactionsPage | Error) => {
    const call = calls[index]!;
    if (result instanceof Error) call.answer.reject(result);
    else call.answer.resolve(result);
    await flush();
  };
  return { actor, calls, answer };
}

describe('transactionsRequest', () => {
  const request = (filter: TransactionFilter, pageNumber = 1) => transactionsRequest({ currencyCode: 'LTC', query: filter }, pageNumber);
  const localMidnight = (year: number, month: number, day: number) => new Date(year, month - 1, day).toISOString();

  it('asks for a page of the currency, every type and day without a filter', () => {
    expect(request(NO_FILTER, 3)).toEqual({ page: 3, limit: TRANSACTIONS_PAGE_SIZE, currencyCode: 'LTC' });
  });

  it('sends the type, "from" as the start of its day and "to" as the start of the next (endDate is exclusive)', () => {
    expect(request({ type: 'withdraw', from: '2025-02-01', to: '2025-02-03' })).toEqual({
      page: 1,
      limit: TRANSACTIONS_PAGE_SIZE,
      currencyCode: 'LTC',
      type: 'withdraw',
      startDate: localMidnight(2025, 2, 1),
      endDate: localMidnight(2025, 2, 4),
    });
    // The last day of a year ends at the first of the next.
    expect(request({ type: null, from: '', to: '2025-12-31' }).endDate).toBe(localMidnight(2026, 1, 1));
    // One day: from its start to the next day's.
    const oneDay = request({ type: null, from: '2025-02-28', to: '2025-02-28' });
    expect([oneDay.startDate, oneDay.endDate]).toEqual([localMidnight(2025, 2, 28), localMidnight(2025, 3, 1)]);
  });

  it('leaves out a day that is not one', () => {
    expect(request({ type: null, from: '2025-2-1', to: 'tomorrow' })).toEqual({ page: 1, limit: TRANSACTIONS_PAGE_SIZE, currencyCode: 'LTC' });
  });
});

describe('transactionsMachine', () => {
  it('loads page 1, then appends the next pages while the count says there are more, each row once', async () => {
    const { actor, calls, answer } = run();
    expect(actor.getSnapshot().value).toBe('loading');
    await answer(0, page([aRow(5), aRow(4)], 5));
    expect(actor.getSnapshot().value).toEqual({ shown: 'idle' });
    actor.send({ type: 'LOAD_MORE' });
    expect(actor.getSnapshot().value).toEqual({ shown: 'loadingMore' });
    // A new movement pushed row 4 down onto page 2.
    await answer(1, page([aRow(4), aRow(3)], 6));
    expect(actor.getSnapshot().context.rows.map((row) => row.transactionId)).toEqual([aRow(5), aRow(4), aRow(3)].map((row) => row.transactionId));
    actor.send({ type: 'LOAD_MORE' });
    // The list ended sooner than its count said: nothing more to offer.
    await answer(2, page([], 6));
    expect(actor.getSnapshot().context.count).toBe(3);
    actor.send({ type: 'LOAD_MORE' });
    expect(actor.getSnapshot().value).toEqual({ shown: 'idle' });
    expect(calls.map((call) => call.request.page)).toEqual([1, 2, 3]);
  });

  it('says a failure with its code, and tries again on RETRY', async () => {
    const { actor, calls, answer } = run();
    await answer(0, new ApiFailure(500, 'INTERNAL_SERVER_ERROR'));
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('INTERNAL_SERVER_ERROR');
    actor.send({ type: 'RETRY' });
    await answer(1, page([], 0));
    expect(actor.getSnapshot().value).toBe('empty');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    expect(calls).toHaveLength(2);
  });

  it('a filter changed while a page loads stops that call: its late answer is never shown', async () => {
    const { actor, calls, answer } = run();
    actor.send({ type: 'FILTER', filter: { type: 'withdraw', from: '', to: '' } });
    expect(calls.map((call) => call.request.type)).toEqual([undefined, 'withdraw']);
    await answer(1, page([aRow(2, 'withdraw')], 1));
    await answer(0, page([aRow(9), aRow(8)], 2));
    expect(actor.getSnapshot().value).toEqual({ shown: 'idle' });
    expect(actor.getSnapshot().context.rows).toEqual([aRow(2, 'withdraw')]);
  });

  it('a filter changed while loading more starts again from page 1: the old page 2 is never appended', async () => {
    const { actor, calls, answer } = run();
    await answer(0, page([aRow(9)], 2));
    actor.send({ type: 'LOAD_MORE' });
    actor.send({ type: 'FILTER', filter: { type: null, from: '2025-02-01', to: '' } });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(calls[2]!.request).toMatchObject({ page: 1, startDate: expect.any(String) });
    await answer(1, page([aRow(8)], 2));
    expect(actor.getSnapshot().value).toBe('loading');
    await answer(2, page([aRow(7)], 1));
    expect(actor.getSnapshot().context.rows).toEqual([aRow(7)]);
  });

  it('refuses a "to" before "from" without asking, and keeps listing with the filter accepted until it is mended', async () => {
    const { actor, calls, answer } = run();
    const from = { type: null, from: '2025-02-01', to: '' };
    actor.send({ type: 'FILTER', filter: from });
    await answer(1, page([aRow(9), aRow(8)], 3));
    actor.send({ type: 'FILTER', filter: { ...from, to: '2025-01-31' } });
    expect(actor.getSnapshot().value).toEqual({ shown: 'idle' });
    expect(actor.getSnapshot().context).toMatchObject({ filterError: 'dateRange', filter: { ...from, to: '2025-01-31' }, query: from });
    expect(calls).toHaveLength(2);
    // "Load more" and a live update ask with the filter the rows are for.
    actor.send({ type: 'LOAD_MORE' });
    expect(calls[2]!.request).toEqual(transactionsRequest({ currencyCode: 'LTC', query: from }, 2));
    await answer(2, page([aRow(7)], 3));
    actor.send({ type: 'LIVE.WALLETS', wallets: CREDITED_WALLETS });
    expect(calls[3]!.request).toEqual(transactionsRequest({ currencyCode: 'LTC', query: from }, 1));
    await answer(3, page([aRow(9), aRow(8)], 3));
    expect(actor.getSnapshot().context.filterError).toBe('dateRange');
    // Another type with the range still backwards is refused too; the range mended is accepted.
    actor.send({ type: 'FILTER', filter: { type: 'deposit', from: '2025-02-01', to: '2025-01-31' } });
    expect(calls).toHaveLength(4);
    actor.send({ type: 'FILTER', filter: { type: 'deposit', from: '2025-02-01', to: '2025-02-01' } });
    expect(actor.getSnapshot().context.filterError).toBeNull();
    expect(calls[4]!.request).toMatchObject({ page: 1, type: 'deposit' });
  });

  it('a balance that moves loads page 1 again with the rows left on screen, and stops a "Load more" in flight', async () => {
    const { actor, calls, answer } = run();
    await answer(0, page([aRow(9)], 2));
    actor.send({ type: 'LOAD_MORE' });
    actor.send({ type: 'LIVE.WALLETS', wallets: CREDITED_WALLETS });
    expect(actor.getSnapshot().value).toEqual({ shown: 'refreshing' });
    expect(actor.getSnapshot().context.rows).toEqual([aRow(9)]);
    expect(calls[2]!.request.page).toBe(1);
    await answer(1, page([aRow(8)], 2));
    expect(actor.getSnapshot().context.rows).toEqual([aRow(9)]);
    await answer(2, page([aRow(10), aRow(9)], 3));
    expect(actor.getSnapshot().value).toEqual({ shown: 'idle' });
    expect(actor.getSnapshot().context).toMatchObject({ page: 1, rows: [aRow(10), aRow(9)], count: 3 });
  });

  it('a live update while page 1 loads or after a failure asks again (what was loading may predate it)', async () => {
    const { actor, calls, answer } = run();
    actor.send({ type: 'LIVE.RECONNECTED' });
    expect(calls).toHaveLength(2);
    await answer(0, page([aRow(1)], 1));
    expect(actor.getSnapshot().value).toBe('loading');
    await answer(1, new ApiFailure(0, null));
    expect(actor.getSnapshot().value).toBe('failed');
    actor.send({ type: 'LIVE.WALLETS', wallets: CREDITED_WALLETS });
    await answer(2, page([aRow(2), aRow(1)], 2));
    expect(actor.getSnapshot().context.rows).toEqual([aRow(2), aRow(1)]);
  });

  it('loads again for a deposit of its currency that settled (one under the minimum moves no balance), not for one only seen or of another currency', async () => {
    const { actor, calls, answer } = run();
    await answer(0, page([], 0));
    actor.send({ type: 'LIVE.DEPOSIT', deposit: SEEN });
    actor.send({ type: 'LIVE.DEPOSIT', deposit: { ...TOO_SMALL, currencyCode: 'BTC' } });
    expect(actor.getSnapshot().value).toBe('empty');
    expect(calls).toHaveLength(1);
    actor.send({ type: 'LIVE.DEPOSIT', deposit: TOO_SMALL });
    expect(actor.getSnapshot().value).toBe('loading');
    await answer(1, page([aRow(1)], 1));
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    actor.send({ type: 'LIVE.DEPOSIT', deposit: TOO_SMALL });
    expect(actor.getSnapshot().value).toEqual({ shown: 'refreshing' });
  });
});
