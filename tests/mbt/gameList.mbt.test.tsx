// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { EventObject, SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { gameListFixtures, FIRST_GAMES, LAST_GAMES } from '../../src/flows/fixtures/games.ts';
import { formatNumber } from '../../src/format.ts';
import {
  categoryOf,
  gamesRequest,
  hasMoreGames,
  providerOf,
  searchOf,
  type Game,
  type GameAddress,
  type gameListMachine,
  type GamesPage,
} from '../../src/machines/gameList.machine.ts';
import GamesScreen, { addressOf } from '../../src/views/games/GamesScreen.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type GameListView = View<typeof gameListMachine>;
type GameListSnapshot = SnapshotFrom<typeof gameListMachine>;
type GameListContext = GameListSnapshot['context'];

/*
 * Every grid of games (src/machines/gameList.machine.ts through src/views/games/GamesScreen.tsx): all
 * games with the search box and the filters, whose values live in the address, and the favourites. The
 * player types in the box (a search is sent after the pause and put into the address in place of the
 * entry), chooses a category or a provider (a new address), follows a link to a search, loads more and
 * retries. What the player sees in each state: "Loading" and skeletons, the failure with Retry, the hint
 * of a search too short, the empty grid, the tiles in order with the count and "Load more", and the
 * controls holding the address's filters.
 */

/** The catalogue the fixtures' pages come from: a page answers its request with these games only. */
const CATALOGUE: Game[] = [...FIRST_GAMES.rows, ...LAST_GAMES.rows];

const PATHS = { all: '/games', favourites: '/favourites' } as const;

function pathOf(view: GameListView): string {
  return view.input.scope.kind === 'favourites' ? PATHS.favourites : PATHS.all;
}

function addressHref(path: string, address: GameAddress): string {
  const params = new URLSearchParams();
  for (const key of ['category', 'sub', 'provider', 'q'] as const) if (address[key]) params.set(key, address[key]);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** Whether each navigation of the grid replaced the entry (the search after the pause) or added one. */
let replaced: boolean[] = [];

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

function matches(game: Game, request: ReturnType<typeof gamesRequest>): boolean {
  return (
    (request.categoryId === undefined || game.categoryId === request.categoryId) &&
    (request.subCategoryId === undefined || game.subCategoryId === request.subCategoryId) &&
    (request.providerId === undefined || game.providerId === request.providerId) &&
    (request.search === undefined || game.name.toLowerCase().includes(request.search.toLowerCase()))
  );
}

/**
 * Whether a page answers the request the machine sent in a snapshot: games of the request only, as many
 * as the catalogue has for it, a full page unless it is the last; an empty page may always come (nothing
 * matches, or the list ended sooner than its count said).
 */
function answers(snapshot: GameListSnapshot, page: GamesPage): boolean {
  const context = snapshot.context;
  const more = snapshot.matches({ listing: { shown: 'loadingMore' } }) || snapshot.matches({ listing: { shown: 'loadingMoreFavourites' } });
  const number = more ? context.page + 1 : 1;
  const request = gamesRequest(context, number);
  if (page.rows.length === 0) return true;
  if (!page.rows.every((game) => matches(game, request))) return false;
  if (page.count !== CATALOGUE.filter((game) => matches(game, request)).length) return false;
  const before = (number - 1) * request.limit;
  if (page.rows.length !== Math.min(request.limit, page.count - before)) return false;
  return page.rows.every((game) => !context.rows.some((known) => known.id === game.id));
}

/** The addresses the grid should have gone to so far, and whether each replaced the entry. */
function expectedNavigations(view: GameListView): { to: string; replace: boolean }[] {
  const path = pathOf(view);
  const navigations: { to: string; replace: boolean }[] = [];
  for (const step of view.steps.slice(1)) {
    if (step.event.type === 'FILTER') navigations.push({ to: addressHref(path, (step.event as EventObject & { address: GameAddress }).address), replace: false });
    // showSearch: the search applied after the pause goes into the address, in place of the entry.
    if (step.kind.kind === 'after') navigations.push({ to: addressHref(path, (step.state.context as GameListContext).address), replace: true });
  }
  return navigations;
}

/** The heading, the search box and the filters (not on the favourites), and where the grid sent the player. */
function seeControls(view: GameListView, context: GameListContext, settled = true) {
  const favourites = context.scope.kind === 'favourites';
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(view.t(favourites ? 'games.favouritesTitle' : 'games.allGamesTitle'));
  const navigations = view.harness.navigations.map((to) => {
    const url = new URL(to, 'http://localhost');
    return addressHref(url.pathname, addressOf(url.search));
  });
  expect(navigations.map((to, index) => ({ to, replace: replaced[index] })), 'where the grid sent the player').toEqual(expectedNavigations(view));
  if (favourites) {
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryAllByRole('combobox')).toEqual([]);
    return;
  }
  const box = screen.getByRole('searchbox', { name: view.t('nav.search') }) as HTMLInputElement;
  expect(box.value, 'the search box').toBe(context.typed);
  // Once the grid lists (the player not typing), the box holds the search of the address, which the grid shows.
  if (settled) {
    const address = addressOf(new URL(view.harness.navigations.at(-1) ?? pathOf(view), 'http://localhost').search);
    expect(box.value.trim(), 'the search box holds the search in the address').toBe(address.q.trim());
  }
  const categories = screen.getByLabelText(view.t('games.categories')) as HTMLSelectElement;
  expect([...categories.options].map((option) => option.textContent)).toEqual([view.t('games.allCategories'), ...(context.categories ?? []).map((one) => one.name)]);
  expect(categories.value, 'the category chosen').toBe(categoryOf(context)?.slug ?? '');
  const shown = categoryOf(context);
  const subs = shown ? (context.subCategories ?? []).filter((one) => one.categoryId === shown.id) : [];
  const sub = screen.queryByLabelText(view.t('games.subCategories')) as HTMLSelectElement | null;
  if (subs.length === 0) expect(sub, 'no sub-categories without a category that has some').toBeNull();
  else {
    expect([...sub!.options].map((option) => option.textContent)).toEqual([view.t('games.allSubCategories'), ...subs.map((one) => one.name)]);
    expect(sub!.value).toBe(context.address.sub);
  }
  const providers = screen.getByLabelText(view.t('games.providers')) as HTMLSelectElement;
  expect([...providers.options].map((option) => option.textContent)).toEqual([view.t('games.allProviders'), ...(context.providers ?? []).map((one) => one.name)]);
  expect(providers.value, 'the provider chosen').toBe(providerOf(context)?.slug ?? '');
}

/** The tiles, each an article named by its game, in the order loaded. */
function tileNames(): (string | null)[] {
  return screen.queryAllByRole('article').map((tile) => tile.getAttribute('aria-label'));
}

/** The first page on its way: "Loading" and the skeletons, no tiles. */
function seeLoading(view: GameListView, snapshot: GameListSnapshot) {
  // The box may hold what the player is typing, or typed while the catalogue loaded.
  seeControls(view, snapshot.context, !snapshot.matches('preparing') && !snapshot.matches({ listing: 'typing' }));
  const status = screen.getByRole('status');
  expect(status.textContent).toBe(view.t('states.loading'));
  const skeletons = document.querySelector('[aria-busy="true"]');
  expect(skeletons?.querySelectorAll('article[aria-hidden="true"]').length, 'skeleton tiles').toBe(12);
  expect(tileNames()).toEqual([]);
  expect(screen.queryByRole('alert')).toBeNull();
  expect(buttonNamed(view.t('common.loadMore'))).toBeNull();
}

/** The SPEC §8 message of the failure, and Retry. */
function seeFailure(view: GameListView, context: GameListContext) {
  expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(context.errorCode, 'default')));
  expect(buttonNamed(view.t('common.retry'))).not.toBeNull();
}

function seeNoGrid(view: GameListView) {
  expect(tileNames()).toEqual([]);
  expect(document.querySelector('[aria-busy="true"]'), 'no skeletons').toBeNull();
  expect(buttonNamed(view.t('common.loadMore'))).toBeNull();
}

/** The games loaded, with the count; "Load more" while there are more, busy while the next page loads. */
function seeTiles(view: GameListView, context: GameListContext, more: 'idle' | 'busy' | 'failed') {
  seeControls(view, context);
  const count = view.t('games.showing', { shown: formatNumber(context.rows.length, view.language), total: formatNumber(context.count, view.language) });
  expect(screen.getByRole('status').textContent).toBe(count);
  expect(tileNames(), 'the tiles, in order').toEqual(context.rows.map((game) => game.name));
  const loadMore = buttonNamed(more === 'busy' ? view.t('states.loading') : view.t('common.loadMore'));
  if (more === 'failed') {
    seeFailure(view, context);
    expect(buttonNamed(view.t('common.loadMore'))).toBeNull();
  } else {
    expect(screen.queryByRole('alert')).toBeNull();
    if (hasMoreGames(context)) expect(loadMore?.getAttribute('aria-busy'), '"Load more" busy').toBe(String(more === 'busy'));
    else expect(loadMore, 'no "Load more" once all are loaded').toBeNull();
  }
}

const isPage = (output: unknown): output is GamesPage => typeof output === 'object' && output !== null && 'rows' in output;

describeModel('gameList', {
  fixtures: gameListFixtures,
  filterEvents: (snapshot, event) => {
    const context = snapshot.context as GameListContext;
    const favourites = context.scope.kind === 'favourites';
    if (event.type.startsWith('xstate.done.actor.')) {
      const output = (event as EventObject & { output: unknown }).output;
      return !isPage(output) || answers(snapshot as GameListSnapshot, output);
    }
    // The favourites have no search box and no filters.
    if (event.type === 'SEARCH') return !favourites && (event as EventObject & { text: string }).text !== context.typed;
    // One filter at a time: the address changes in one of its values.
    if (event.type === 'FILTER') {
      const { address } = event as EventObject & { address: GameAddress };
      const changed = (['category', 'sub', 'provider', 'q'] as const).filter((key) => address[key] !== context.address[key]);
      return !favourites && changed.length === 1;
    }
    return true;
  },
  render: (view) => {
    const path = pathOf(view);
    const memory = memoryLocation({ path });
    replaced = [];
    const favourites = view.input.scope.kind === 'favourites';
    return renderWithServices(
      <Router hook={memory.hook} searchHook={memory.searchHook}>
        <GamesScreen
          title={favourites ? 'games.favouritesTitle' : 'games.allGamesTitle'}
          scope={view.input.scope}
          empty={favourites ? 'games.emptyFavourites' : 'games.empty'}
          pageSize={view.input.pageSize!}
        />
      </Router>,
      {
        actors: view.actors,
        address: path,
        navigate: (to, options) => {
          replaced.push(options?.replace === true);
          memory.navigate(to, options);
        },
      },
    );
  },
  events: {
    // What the player types arrives whole (a paste, or the last key of a word).
    SEARCH: async (view, event) => {
      fireEvent.change(screen.getByRole('searchbox', { name: view.t('nav.search') }), { target: { value: event.text } });
    },
    // A category or a provider chosen in its select, once the catalogue offers it; else a link (a search's).
    FILTER: async (view, event) => {
      const before = (view.steps.at(-2)!.state.context as GameListContext).address;
      const { address } = event;
      const select = (label: string, value: string) => {
        const element = screen.getByLabelText(label) as HTMLSelectElement;
        return [...element.options].some((option) => option.value === value) ? element : null;
      };
      const categories = address.category !== before.category ? select(view.t('games.categories'), address.category) : null;
      const providers = address.provider !== before.provider ? select(view.t('games.providers'), address.provider) : null;
      if (categories) await view.user.selectOptions(categories, address.category);
      else if (providers) await view.user.selectOptions(providers, address.provider);
      else act(() => view.harness.services.navigate(addressHref(pathOf(view), address)));
    },
    LOAD_MORE: (view) => view.user.click(buttonNamed(view.t('common.loadMore'))!),
    RETRY: (view) => view.user.click(buttonNamed(view.t('common.retry'))!),
  },
  states: {
    // The catalogue the address is read against: the grid is loading; the filters offer what came.
    preparing: seeLoading,
    unavailable: (view, snapshot) => {
      seeControls(view, snapshot.context, false);
      seeFailure(view, snapshot.context);
      seeNoGrid(view);
    },
    'listing.deciding': () => {
      throw new Error('deciding is passed through, never rested in');
    },
    // Until the pause, the grid waits for the search.
    'listing.typing': seeLoading,
    'listing.tooShort': (view, snapshot) => {
      seeControls(view, snapshot.context);
      expect(screen.getByRole('status').textContent).toBe(view.t('games.searchHint'));
      expect(screen.queryByRole('alert')).toBeNull();
      seeNoGrid(view);
    },
    'listing.loading': seeLoading,
    'listing.loadingFavourites': seeLoading,
    'listing.failed': (view, snapshot) => {
      seeControls(view, snapshot.context);
      seeFailure(view, snapshot.context);
      seeNoGrid(view);
    },
    'listing.empty': (view, snapshot) => {
      const { context } = snapshot;
      seeControls(view, context);
      const search = searchOf(context.address);
      const favourites = context.scope.kind === 'favourites';
      expect(screen.getByRole('status').textContent).toBe(
        search ? view.t('games.emptySearch', { query: search }) : view.t(favourites ? 'games.emptyFavourites' : 'games.empty'),
      );
      expect(screen.queryByRole('alert')).toBeNull();
      seeNoGrid(view);
    },
    'listing.shown.idle': (view, snapshot) => seeTiles(view, snapshot.context, 'idle'),
    'listing.shown.loadingMore': (view, snapshot) => seeTiles(view, snapshot.context, 'busy'),
    'listing.shown.loadingMoreFavourites': (view, snapshot) => seeTiles(view, snapshot.context, 'busy'),
    'listing.shown.moreFailed': (view, snapshot) => seeTiles(view, snapshot.context, 'failed'),
  },
});
