// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { formatAmount, formatDate } from '../../src/format.ts';
import { LAST_PAGE, NONE, transactionsFixtures } from '../../src/flows/fixtures/transactions.ts';
import {
  hasMoreTransactions,
  isFiltered,
  transactionsRequest,
  type Transaction,
  type TransactionsPage,
  type transactionsMachine,
} from '../../src/machines/transactions.machine.ts';
import TransactionsTab from '../../src/views/wallet/TransactionsTab.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type TransactionsView = View<typeof transactionsMachine>;
type TransactionsSnapshot = SnapshotFrom<typeof transactionsMachine>;
type TransactionsContext = TransactionsSnapshot['context'];

/*
 * The wallet's Transactions tab: the list of the dialog's currency, its filters (type, days; a "to"
 * before "from" refused beside the field while the list keeps the filter accepted), "Load more", and the
 * first page again when a balance moves, a deposit settles or the live stream comes back (the rows stay
 * on screen meanwhile). The player may change a filter at any time, a call in flight included: the call
 * is stopped and only the answer to the new filter is shown.
 */

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

/** The controls show the player's last choice; the error under "To" while it is refused. */
function seeFilters(view: TransactionsView, context: TransactionsContext) {
  expect((screen.getByLabelText(view.t('wallet.transactions.type')) as HTMLSelectElement).value).toBe(context.filter.type ?? '');
  expect((screen.getByLabelText(view.t('wallet.transactions.from')) as HTMLInputElement).value).toBe(context.filter.from);
  const to = screen.getByLabelText(view.t('wallet.transactions.to')) as HTMLInputElement;
  expect(to.value).toBe(context.filter.to);
  expect(to.getAttribute('aria-invalid')).toBe(String(context.filterError === 'dateRange'));
  expect(screen.queryByText(view.t('wallet.transactions.dateRange')) !== null).toBe(context.filterError === 'dateRange');
}

/** Every row loaded, newest first, each value in its column; "Load more" while there are more, busy or not. */
function seeRows(view: TransactionsView, context: TransactionsContext, more: 'idle' | 'busy') {
  const list = screen.getByRole('region', { name: view.t('wallet.transactions.list') });
  const table = list.querySelector('table')!;
  const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  const columns = ['date', 'type', 'amount', 'status', 'beforeBalance', 'afterBalance', 'transactionId'] as const;
  expect(headers).toEqual(columns.map((column) => view.t(`wallet.transactions.${column}`)));
  const cells = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
  // The whole id is there for a screen reader and on hover.
  expect([...table.querySelectorAll('tbody abbr')].map((abbr) => abbr.getAttribute('title'))).toEqual(context.rows.map((row) => row.transactionId));
  expect(cells).toEqual(
    context.rows.map((row) => [
      formatDate(row.createdAt, view.language, 'datetime'),
      view.t(`wallet.transactions.actions.${row.actionType}`),
      formatAmount(row.amount, 'LTC', view.language),
      view.t(`wallet.transactions.statuses.${row.status}`),
      formatAmount(row.beforeBalance, 'LTC', view.language),
      formatAmount(row.afterBalance, 'LTC', view.language),
      `${row.transactionId.slice(0, 8)}…`,
    ]),
  );
  // Each card (a phone) names its values by their column.
  for (const tr of table.querySelectorAll('tbody tr')) {
    expect([...tr.querySelectorAll('td')].map((td) => td.getAttribute('data-label'))).toEqual(headers);
  }
  const loadMore = buttonNamed(more === 'busy' ? view.t('states.loading') : view.t('common.loadMore'));
  if (hasMoreTransactions(context)) expect(loadMore?.getAttribute('aria-busy'), '"Load more" busy').toBe(String(more === 'busy'));
  else expect(loadMore, 'no "Load more" once all are loaded').toBeNull();
  expect(screen.queryByRole('status'), 'no loading or empty panel').toBeNull();
}

function seeFailure(view: TransactionsView, context: TransactionsContext) {
  expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(context.errorCode, 'default')));
  expect(buttonNamed(view.t('common.retry'))).not.toBeNull();
}

const isAnswer = (event: EventObject) => event.type.startsWith('xstate.done.actor.');

/** Whether a row can be in the answer to the filter accepted (its type, its time within the days). */
function matches(row: Transaction, context: TransactionsContext): boolean {
  const request = transactionsRequest(context, 1);
  const at = Date.parse(row.createdAt);
  return (
    (request.type === undefined || row.type === request.type) &&
    (request.startDate === undefined || at >= Date.parse(request.startDate)) &&
    (request.endDate === undefined || at < Date.parse(request.endDate))
  );
}

describeModel('transactions', {
  fixtures: transactionsFixtures,
  filterEvents: (snapshot, event) => {
    const context = snapshot.context as TransactionsContext;
    if (isAnswer(event)) {
      const page = (event as EventObject & { output: TransactionsPage }).output;
      if (!page.rows.every((row) => matches(row, context))) return false;
      // Page 2 follows the page of 4; the first page is never the last one.
      if (snapshot.matches({ shown: 'loadingMore' })) return page === LAST_PAGE || page === NONE;
      if (page === LAST_PAGE) return false;
      // Once rows are listed they stay: a first page again has them (or the list ended, which it handles).
      if (snapshot.matches({ shown: 'refreshing' })) return page === NONE || context.rows.every((row) => page.rows.some((other) => other.transactionId === row.transactionId));
      return true;
    }
    // The player changes one filter at a time, from none, in any state (a call in flight too): a type, or
    // a "from" day then a "to" day before it.
    if (event.type === 'FILTER') {
      const { filter } = event as EventObject & { filter: TransactionsContext['filter'] };
      const changed = (['type', 'from', 'to'] as const).filter((key) => filter[key] !== context.filter[key]);
      return changed.length === 1 && context.filter.type === null && context.filterError === null;
    }
    if (event.type === 'LOAD_MORE') return context.page < 2;
    // Live updates reach the list without a filter, and with the refused one (the list keeps its own).
    if (event.type.startsWith('LIVE.')) return context.filter.type === null && context.page < 2;
    return true;
  },
  render: (view) => renderWithServices(<TransactionsTab currencyCode="LTC" />, { actors: view.actors, live: view.live }),
  events: {
    FILTER: async (view, event) => {
      const { filter } = event;
      const before = (view.steps.at(-2)!.state.context as TransactionsContext).filter;
      if (filter.type !== before.type) await view.user.selectOptions(screen.getByLabelText(view.t('wallet.transactions.type')), filter.type ?? '');
      // Date inputs take a whole day at once, as a browser's date picker gives it.
      if (filter.from !== before.from) fireEvent.change(screen.getByLabelText(view.t('wallet.transactions.from')), { target: { value: filter.from } });
      if (filter.to !== before.to) fireEvent.change(screen.getByLabelText(view.t('wallet.transactions.to')), { target: { value: filter.to } });
    },
    LOAD_MORE: (view) => view.user.click(buttonNamed(view.t('common.loadMore'))!),
    RETRY: (view) => view.user.click(buttonNamed(view.t('common.retry'))!),
    'LIVE.WALLETS': (view, event) => view.live.send(event),
    'LIVE.DEPOSIT': (view, event) => view.live.send(event),
    'LIVE.RECONNECTED': (view, event) => view.live.send(event),
  },
  states: {
    loading: (view, snapshot) => {
      seeFilters(view, snapshot.context);
      const status = screen.getByRole('status');
      expect(status.getAttribute('aria-busy')).toBe('true');
      expect(status.textContent).toBe(view.t('states.loading'));
      expect(screen.queryByRole('table'), 'no rows while the first page loads').toBeNull();
    },
    failed: (view, snapshot) => {
      seeFilters(view, snapshot.context);
      seeFailure(view, snapshot.context);
      expect(screen.queryByRole('table')).toBeNull();
    },
    empty: async (view, snapshot) => {
      seeFilters(view, snapshot.context);
      const empty = screen.getByRole('status');
      expect(screen.queryByRole('alert')).toBeNull();
      expect(buttonNamed(view.t('common.loadMore'))).toBeNull();
      if (isFiltered(snapshot.context.query)) {
        expect(empty.textContent).toBe(view.t('wallet.transactions.emptyFiltered'));
        return;
      }
      // What to do next: a deposit, one click away (the wallet dialog's Deposit tab).
      expect(empty.querySelector('p')?.textContent).toBe(`${view.t('wallet.transactions.empty')} ${view.t('wallet.transactions.emptyHint')}`);
      const deposit = buttonNamed(view.t('wallet.transactions.deposit'));
      expect(deposit).not.toBeNull();
      await view.user.click(deposit!);
      expect(view.harness.navigations.at(-1)).toBe('/?wallet=open&tab=deposit');
    },
    'shown.idle': (view, snapshot) => {
      seeFilters(view, snapshot.context);
      seeRows(view, snapshot.context, 'idle');
      expect(screen.queryByRole('alert')).toBeNull();
    },
    'shown.loadingMore': (view, snapshot) => {
      seeFilters(view, snapshot.context);
      seeRows(view, snapshot.context, 'busy');
    },
    'shown.refreshing': (view, snapshot) => {
      seeFilters(view, snapshot.context);
      seeRows(view, snapshot.context, 'busy');
    },
    'shown.moreFailed': (view, snapshot) => {
      seeFilters(view, snapshot.context);
      seeFailure(view, snapshot.context);
      expect(buttonNamed(view.t('common.loadMore'))).toBeNull();
      // The rows loaded stay above the error.
      const table = screen.getByRole('region', { name: view.t('wallet.transactions.list') }).querySelector('table')!;
      expect(table.querySelectorAll('tbody tr').length).toBe(snapshot.context.rows.length);
    },
  },
});
