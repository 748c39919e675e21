// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { formatAmount, formatDate } from '../../src/format.ts';
import { betHistoryFixtures, LAST_PAGE, NONE } from '../../src/flows/fixtures/betHistory.ts';
import {
  betHistoryRequest,
  hasMoreBets,
  isBetHistoryFiltered,
  type BetHistoryItem,
  type betHistoryMachine,
  type BetHistoryPage,
} from '../../src/machines/betHistory.machine.ts';
import { BetHistory } from '../../src/views/screens/BetHistoryScreen.tsx';
import { fairnessLink } from '../../src/machines/fairness.address.ts';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type BetHistoryView = View<typeof betHistoryMachine>;
type BetHistorySnapshot = SnapshotFrom<typeof betHistoryMachine>;
type BetHistoryContext = BetHistorySnapshot['context'];

/*
 * The bet history: the player's rounds in every currency, the filters (a game among those of the rounds
 * loaded so far, days; a "to" before "from" refused beside the field while the list keeps the filter
 * accepted), "Load more", and the first page again when a balance moves (a round just played) or the
 * live stream comes back (the rows stay on screen meanwhile). The player may change a filter at any
 * time, a call in flight included: the call is stopped and only the answer to the new filter is shown.
 */

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

/** The controls show the player's last choice; the game picker offers every game seen, by name; the error under "To" while refused. */
function seeFilters(view: BetHistoryView, context: BetHistoryContext) {
  const game = screen.getByLabelText(view.t('betHistory.game')) as HTMLSelectElement;
  expect(game.value).toBe(context.filter.gameId === null ? '' : String(context.filter.gameId));
  expect([...game.options].map((option) => option.textContent)).toEqual([view.t('betHistory.allGames'), ...context.games.map((known) => known.name)]);
  expect((screen.getByLabelText(view.t('betHistory.from')) as HTMLInputElement).value).toBe(context.filter.from);
  const to = screen.getByLabelText(view.t('betHistory.to')) as HTMLInputElement;
  expect(to.value).toBe(context.filter.to);
  expect(to.getAttribute('aria-invalid')).toBe(String(context.filterError === 'dateRange'));
  expect(screen.queryByText(view.t('betHistory.dateRange')) !== null).toBe(context.filterError === 'dateRange');
}

/** Every round loaded, newest first, each value in its column; "Load more" while there are more, busy or not. */
function seeRows(view: BetHistoryView, context: BetHistoryContext, more: 'idle' | 'busy') {
  const list = screen.getByRole('region', { name: view.t('betHistory.list') });
  const table = list.querySelector('table')!;
  const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  const columns = ['date', 'game', 'betAmount', 'multiplier', 'payout', 'status'] as const;
  expect(headers).toEqual([...columns.map((column) => view.t(`betHistory.${column}`)), view.t('betHistory.fairness.column')]);
  const rows = [...table.querySelectorAll('tbody tr')];
  const cells = rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
  expect(cells).toEqual(
    context.rows.map((row) => [
      formatDate(row.createdAt, view.language, 'datetime'),
      row.game.name,
      formatAmount(row.betAmount, row.currencyCode, view.language),
      row.multiplier === null ? '—' : `${formatAmount(row.multiplier, '', view.language)}×`,
      formatAmount(row.payout, row.currencyCode, view.language),
      view.t(`betHistory.statuses.${row.status}`),
      // A house round's seeds folded under "Seeds" (with Verify once the server seed is revealed); a dash for another provider's.
      row.fairness
        ? `${view.t('betHistory.fairness.seeds')}${view.t('betHistory.fairness.serverSeedHash')}${row.fairness.serverSeedHash}${view.t('betHistory.fairness.clientSeed')}${row.fairness.clientSeed}${view.t('betHistory.fairness.nonce')}${row.fairness.nonce}${view.t('betHistory.fairness.serverSeed')}${row.fairness.serverSeed ?? view.t('betHistory.fairness.hidden')}${row.fairness.serverSeed === null ? '' : view.t('betHistory.fairness.verify')}`
        : '—',
    ]),
  );
  rows.forEach((tr, index) => {
    const row = context.rows[index]!;
    // A win's payout stands out; a missing multiplier is named for a screen reader.
    expect(tr.querySelector('[data-won]')?.getAttribute('data-won')).toBe(String(row.status === 'won'));
    if (row.multiplier === null) expect(tr.querySelector(`[aria-label="${view.t('betHistory.noMultiplier')}"]`)).not.toBeNull();
    // Verify leads to /fairness with the bet filled in.
    const verify = tr.querySelector('a[href^="/fairness?"]');
    expect(verify === null, 'Verify').toBe(row.fairness?.serverSeed == null);
    if (verify && row.fairness) expect(verify.getAttribute('href')).toBe(fairnessLink(row.fairness));
    // Each card (a phone) names its values by their column.
    expect([...tr.querySelectorAll('td')].map((td) => td.getAttribute('data-label'))).toEqual(headers);
  });
  const loadMore = buttonNamed(more === 'busy' ? view.t('states.loading') : view.t('common.loadMore'));
  if (hasMoreBets(context)) expect(loadMore?.getAttribute('aria-busy'), '"Load more" busy').toBe(String(more === 'busy'));
  else expect(loadMore, 'no "Load more" once all are loaded').toBeNull();
  expect(screen.queryByRole('status'), 'no loading or empty panel').toBeNull();
}

/** An honest "could not load" with the reason and Retry, never an empty list. */
function seeFailure(view: BetHistoryView, context: BetHistoryContext) {
  expect(screen.getByRole('alert').textContent).toBe(`${view.t('betHistory.loadFailed')} ${view.t(errorMessageKey(context.errorCode, 'default'))}`);
  expect(buttonNamed(view.t('common.retry'))).not.toBeNull();
}

const isAnswer = (event: EventObject) => event.type.startsWith('xstate.done.actor.');

/** Whether a round can be in the answer to the filter accepted (its game, its start within the days). */
function matches(row: BetHistoryItem, context: BetHistoryContext): boolean {
  const request = betHistoryRequest(context, 1);
  const at = Date.parse(row.createdAt);
  return (
    (request.gameId === undefined || row.game.id === request.gameId) &&
    (request.startDate === undefined || at >= Date.parse(request.startDate)) &&
    (request.endDate === undefined || at < Date.parse(request.endDate))
  );
}

describeModel('betHistory', {
  fixtures: betHistoryFixtures,
  filterEvents: (snapshot, event) => {
    const context = snapshot.context as BetHistoryContext;
    if (isAnswer(event)) {
      const page = (event as EventObject & { output: BetHistoryPage }).output;
      if (!page.rows.every((row) => matches(row, context))) return false;
      // Page 2 follows the page of 4; the first page is never the last one.
      if (snapshot.matches({ shown: 'loadingMore' })) return page === LAST_PAGE || page === NONE;
      if (page === LAST_PAGE) return false;
      // Once rounds are listed they stay: a first page again has them (or the list ended, which it handles).
      if (snapshot.matches({ shown: 'refreshing' })) return page === NONE || context.rows.every((row) => page.rows.some((other) => other.roundId === row.roundId));
      return true;
    }
    // The player changes one filter at a time, from none, in any state (a call in flight too): a game
    // among those offered, or a "from" day then a "to" day before it.
    if (event.type === 'FILTER') {
      const { filter } = event as EventObject & { filter: BetHistoryContext['filter'] };
      const changed = (['gameId', 'from', 'to'] as const).filter((key) => filter[key] !== context.filter[key]);
      if (filter.gameId !== null && !context.games.some((game) => game.id === filter.gameId)) return false;
      return changed.length === 1 && context.filter.gameId === null && context.filterError === null;
    }
    if (event.type === 'LOAD_MORE') return context.page < 2;
    // Live updates reach the list without a game filter, and with the refused days (the list keeps its own).
    if (event.type.startsWith('LIVE.')) return context.filter.gameId === null && context.page < 2;
    return true;
  },
  render: (view) => renderWithServices(<BetHistory />, { actors: view.actors, live: view.live }),
  events: {
    FILTER: async (view, event) => {
      const { filter } = event;
      const before = (view.steps.at(-2)!.state.context as BetHistoryContext).filter;
      if (filter.gameId !== before.gameId) {
        await view.user.selectOptions(screen.getByLabelText(view.t('betHistory.game')), filter.gameId === null ? '' : String(filter.gameId));
      }
      // Date inputs take a whole day at once, as a browser's date picker gives it.
      if (filter.from !== before.from) fireEvent.change(screen.getByLabelText(view.t('betHistory.from')), { target: { value: filter.from } });
      if (filter.to !== before.to) fireEvent.change(screen.getByLabelText(view.t('betHistory.to')), { target: { value: filter.to } });
    },
    LOAD_MORE: (view) => view.user.click(buttonNamed(view.t('common.loadMore'))!),
    RETRY: (view) => view.user.click(buttonNamed(view.t('common.retry'))!),
    'LIVE.WALLETS': (view, event) => view.live.send(event),
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
    empty: (view, snapshot) => {
      const empty = screen.getByRole('status');
      expect(screen.queryByRole('alert')).toBeNull();
      expect(buttonNamed(view.t('common.loadMore'))).toBeNull();
      // No table headings over nothing.
      expect(screen.queryByRole('table')).toBeNull();
      if (isBetHistoryFiltered(snapshot.context.query)) {
        seeFilters(view, snapshot.context);
        expect(empty.textContent).toBe(view.t('betHistory.emptyFiltered'));
        return;
      }
      // A player who never played has nothing to filter; what to do next: find a game to play.
      expect(screen.queryByLabelText(view.t('betHistory.game')), 'no filters over an empty history').toBeNull();
      expect(empty.querySelector('p')?.textContent).toBe(`${view.t('betHistory.empty')} ${view.t('betHistory.emptyHint')}`);
      const browse = screen.getByRole('link', { name: view.t('betHistory.browseGames') });
      expect(browse.getAttribute('href')).toBe('/casino');
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
      // The rounds loaded stay above the error.
      const table = screen.getByRole('region', { name: view.t('betHistory.list') }).querySelector('table')!;
      expect(table.querySelectorAll('tbody tr').length).toBe(snapshot.context.rows.length);
    },
  },
});
