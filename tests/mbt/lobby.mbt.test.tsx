// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { FIRST_GAMES, lobbyFixtures } from '../../src/flows/fixtures/games.ts';
import type { GamesPage } from '../../src/machines/gameList.machine.ts';
import type { lobbyMachine } from '../../src/machines/lobby.machine.ts';
import Lobby from '../../src/views/games/Lobby.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type LobbyView = View<typeof lobbyMachine>;

/*
 * The lobby: the banners (a link each, with its title and subtitle) or, without any, a welcome in their
 * place; below, a skeleton row while the catalogue's three lists load, then a row per category and the
 * providers with their game counts, or the alert with Retry when a list could not be had. The banners and
 * the catalogue load side by side, in any order.
 *
 * The rows are gameRow flows of their own (tests/mbt/gameRow.mbt.test.tsx): here every row's loadGames
 * answers FIRST_GAMES at once, so a ready lobby shows each category's tiles and its "View all".
 */

const ROW_PAGE: GamesPage = FIRST_GAMES;

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

function bannerRegion(view: LobbyView): HTMLElement {
  return screen.getByRole('region', { name: view.t('games.banners') });
}

/** Where the catalogue goes: the skeleton row, the rows and providers, or the alert. */
function categoryHeadings(): string[] {
  return screen.queryAllByRole('heading', { level: 2 }).map((heading) => heading.textContent ?? '');
}

/** The catalogue not ready: no category row, no providers. */
function seeNoCatalogue(view: LobbyView) {
  expect(categoryHeadings(), 'no rows').toEqual([]);
  expect(screen.queryByRole('region', { name: view.t('games.providers') })).toBeNull();
  expect(screen.queryAllByRole('article'), 'no tiles').toEqual([]);
}

describeModel('lobby', {
  fixtures: lobbyFixtures,
  render: (view) =>
    renderWithServices(<Lobby />, {
      actors: { ...view.actors, loadGames: fromPromise(async () => ROW_PAGE) },
      address: '/',
    }),
  events: {
    RETRY: (view) => view.user.click(buttonNamed(view.t('common.retry'))!),
  },
  states: {
    'banners.loading': (view) => {
      // The welcome holds the banners' place until they come.
      const region = bannerRegion(view);
      expect(region.textContent).toBe(view.t('games.lobbyWelcome', { site: view.t('app.name') }));
      expect(within(region).queryAllByRole('link')).toEqual([]);
    },
    'banners.none': (view) => {
      const region = bannerRegion(view);
      expect(region.textContent).toBe(view.t('games.lobbyWelcome', { site: view.t('app.name') }));
      expect(within(region).queryAllByRole('link')).toEqual([]);
    },
    'banners.shown': (view, snapshot) => {
      const region = bannerRegion(view);
      const links = within(region).getAllByRole('link');
      expect(
        links.map((link) => ({ title: link.querySelector('strong')?.textContent, text: link.textContent, href: link.getAttribute('href') })),
        'a link per banner',
      ).toEqual(snapshot.context.banners.map((banner) => ({ title: banner.title, text: `${banner.title}${banner.subtitle ?? ''}`, href: banner.linkUrl ?? '/' })));
      expect(region.textContent).not.toContain(view.t('games.lobbyWelcome', { site: view.t('app.name') }));
    },
    'catalogue.loading': (view) => {
      seeNoCatalogue(view);
      const skeleton = view.harness.container.querySelector('section[aria-busy="true"]');
      expect(skeleton, 'the skeleton row').not.toBeNull();
      // Its header holds the rows' place, hidden like its tiles (no empty heading for a screen reader).
      expect(skeleton!.querySelector('header')?.getAttribute('aria-hidden'), 'the placeholder header hidden').toBe('true');
      const tiles = skeleton!.querySelectorAll('article');
      expect(tiles.length, 'skeleton tiles').toBe(6);
      for (const tile of tiles) expect(tile.getAttribute('aria-hidden')).toBe('true');
      expect(screen.queryByRole('alert')).toBeNull();
      expect(buttonNamed(view.t('common.retry'))).toBeNull();
    },
    'catalogue.failed': (view) => {
      seeNoCatalogue(view);
      expect(view.harness.container.querySelector('section[aria-busy="true"]'), 'no skeleton row').toBeNull();
      expect(screen.getByRole('alert').textContent).toBe(view.t('games.loadFailed'));
      expect(buttonNamed(view.t('common.retry'))).not.toBeNull();
    },
    'catalogue.ready': async (view, snapshot) => {
      const { categories, providers } = snapshot.context;
      expect(screen.queryByRole('alert')).toBeNull();
      expect(buttonNamed(view.t('common.retry'))).toBeNull();
      // A row per category in the catalogue's order, then the providers.
      expect(categoryHeadings()).toEqual([...categories!.map((category) => category.name), view.t('games.providers')]);
      // Each row's games once its own flow has them, and "View all" as the category has more.
      for (const category of categories!) {
        const row = screen.getByRole('region', { name: category.name });
        await waitFor(() => expect(within(row).queryAllByRole('article').map((tile) => tile.getAttribute('aria-label'))).toEqual(ROW_PAGE.rows.map((game) => game.name)));
        expect(within(row).getByRole('link', { name: view.t('games.viewAll') }).getAttribute('href')).toBe(`/category/${category.slug}`);
      }
      const list = screen.getByRole('region', { name: view.t('games.providers') });
      expect(
        within(list).getAllByRole('link').map((link) => ({ text: link.textContent, count: link.querySelector('small')?.textContent, href: link.getAttribute('href') })),
      ).toEqual(
        providers!.map((provider) => ({
          text: `${provider.name}${view.t('games.gameCount', { count: provider.gameCount })}`,
          count: view.t('games.gameCount', { count: provider.gameCount }),
          href: `/provider/${provider.slug}`,
        })),
      );
      expect(view.harness.container.querySelector('section[aria-busy="true"]'), 'no skeleton row').toBeNull();
    },
  },
});
