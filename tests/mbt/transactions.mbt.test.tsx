// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { formatAmount, formatDate } from '../../src/format.ts';
import { FIRST_PAGE, LAST_PAGE, transactionsFixtures } from '../../src/flows/fixtures/transactions.ts';
import { hasMoreTransactions, type transactionsMachine } from '../../src/machines/transactions.machine.ts';
import TransactionsTab from '../../src/views/wallet/TransactionsTab.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type TransactionsView = View<typeof transactionsMachine>;
type TransactionsSnapshot = SnapshotFrom<typeof transactionsMachine>;
type TransactionsContext = TransactionsSnapshot['context'];

/*
 * The wallet's Transactions tab: the list of the dialog's currency, its filters (type, days; a "to"
 * before "from" refused beside the field), "Load more", and a reload when a balance moves.
 */

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

function seeFilters(view: TransactionsView, context: TransactionsContext) {
  expect((screen.getByLabelText(view.t('wallet.transactions.type')) as HTMLSelectElement).value).toBe(context.filter.type ?? '');
  expect((screen.getByLabelText(view.t('wallet.transactions.from')) as HTMLInputElement).value).toBe(context.filter.from);
  expect((screen.getByLabelText(view.t('wallet.transactions.to')) as HTMLInputElement).value).toBe(context.filter.to);
  expect(screen.queryByText(view.t('wallet.transactions.dateRange')) !== null).toBe(context.filterError === 'dateRange');
}

function seeRows(view: TransactionsView, context: TransactionsContext, more: 'idle' | 'loading') {
  const table = screen.getByRole('table');
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
  const loadMore = buttonNamed(more === 'loading' ? view.t('states.loading') : view.t('common.loadMore'));
  if (hasMoreTransactions(context)) expect(loadMore?.getAttribute('aria-busy')).toBe(String(more === 'loading'));
  else expect(loadMore).toBeNull();
}

const isAnswer = (event: EventObject, page: unknown) => event.type.startsWith('xstate.done.actor.') && (event as EventObject & { output?: unknown }).output === page;

describeModel('transactions', {
  fixtures: transactionsFixtures,
  filterEvents: (snapshot, event) => {
    const context = snapshot.context as TransactionsContext;
    // The first page is never the last one, nor the last one the first.
    if (snapshot.matches('loading') && isAnswer(event, LAST_PAGE)) return false;
    // The player changes one filter at a time: a type from no filter, a "from" day, then a "to" day before it.
    if (event.type === 'FILTER') {
      const { filter } = event as EventObject & { filter: TransactionsContext['filter'] };
      if (!snapshot.matches('shown') && !snapshot.matches('empty')) return false;
      const changed = (['type', 'from', 'to'] as const).filter((key) => filter[key] !== context.filter[key]);
      return changed.length === 1 && context.filter.type === null && context.filterError === null;
    }
    if (event.type === 'LOAD_MORE') return context.page < 2;
    if (event.type.startsWith('LIVE.')) return context.filter.type === null && context.filterError === null;
    if (snapshot.matches('loading') && isAnswer(event, FIRST_PAGE)) return context.filter.type === null;
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
    'LIVE.RECONNECTED': (view, event) => view.live.send(event),
  },
  states: {
    loading: (view, snapshot) => {
      seeFilters(view, snapshot.context);
      expect(screen.getByRole('status').getAttribute('aria-busy')).toBe('true');
    },
    failed: (view, snapshot) => {
      seeFilters(view, snapshot.context);
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
    },
    empty: (view, snapshot) => {
      seeFilters(view, snapshot.context);
      const empty = screen.getByRole('status');
      const filtered = snapshot.context.filter.type !== null || snapshot.context.filter.from !== '';
      if (filtered) expect(empty.textContent).toBe(view.t('wallet.transactions.emptyFiltered'));
      else expect(buttonNamed(view.t('wallet.transactions.emptyHint'))).not.toBeNull();
    },
    'shown.idle': (view, snapshot) => {
      seeFilters(view, snapshot.context);
      seeRows(view, snapshot.context, 'idle');
    },
    'shown.loadingMore': (view, snapshot) => {
      seeFilters(view, snapshot.context);
      seeRows(view, snapshot.context, 'loading');
    },
    'shown.moreFailed': (view, snapshot) => {
      seeFilters(view, snapshot.context);
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
      expect(buttonNamed(view.t('common.loadMore'))).toBeNull();
    },
  },
});
