// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { CATEGORIES, gameRowFixtures } from '../../src/flows/fixtures/games.ts';
import type { Category } from '../../src/machines/gameList.machine.ts';
import type { gameRowMachine } from '../../src/machines/gameRow.machine.ts';
import { CategoryRow } from '../../src/views/games/Lobby.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type GameRowView = View<typeof gameRowMachine>;
type GameRowSnapshot = SnapshotFrom<typeof gameRowMachine>;

/*
 * A lobby row: its category's heading over skeleton tiles while its first games load, then a tile per
 * game, with "View all" (the category's page) when the category has more than the row shows; a category
 * without games leaves no row at all; a failure says so in the row, with Retry.
 */

function categoryOf(view: GameRowView): Category {
  const category = CATEGORIES.find((candidate) => candidate.id === view.input.categoryId);
  if (!category) throw new Error(`no fixture category ${view.input.categoryId}`);
  return category;
}

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

/** The row: its category's heading, and "View all" to the category's page only when it has more games. */
function seeRow(view: GameRowView, snapshot: GameRowSnapshot) {
  const { context } = snapshot;
  const category = categoryOf(view);
  const row = screen.getByRole('region', { name: category.name });
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(category.name);
  const viewAll = screen.queryByRole('link', { name: view.t('games.viewAll') });
  if (context.count > context.rows.length) expect(viewAll?.getAttribute('href'), '"View all"').toBe(`/category/${category.slug}`);
  else expect(viewAll, 'no "View all" when the row holds every game').toBeNull();
  return row;
}

/** The strip of tiles: busy with skeletons (hidden from screen readers) while loading, else the games. */
function seeStrip(row: HTMLElement, busy: boolean) {
  const strip = row.querySelector('[aria-busy]');
  expect(strip?.getAttribute('aria-busy'), 'the strip busy').toBe(String(busy));
  return strip!;
}

describeModel('gameRow', {
  fixtures: gameRowFixtures,
  strategy: 'simple',
  render: (view) => renderWithServices(<CategoryRow category={categoryOf(view)} />, { actors: view.actors, address: '/' }),
  events: {
    RETRY: (view) => view.user.click(buttonNamed(view.t('common.retry'))!),
  },
  states: {
    loading: (view, snapshot) => {
      const row = seeRow(view, snapshot);
      const strip = seeStrip(row, true);
      const skeletons = [...strip.children];
      expect(skeletons.length, 'skeleton tiles').toBe(6);
      for (const skeleton of skeletons) expect(skeleton.getAttribute('aria-hidden')).toBe('true');
      expect(screen.queryAllByRole('article'), 'no tile a screen reader finds').toEqual([]);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(buttonNamed(view.t('common.retry'))).toBeNull();
    },
    shown: (view, snapshot) => {
      const row = seeRow(view, snapshot);
      seeStrip(row, false);
      // A tile per game, named by it, with its Play link.
      expect(screen.getAllByRole('article').map((tile) => tile.getAttribute('aria-label'))).toEqual(snapshot.context.rows.map((game) => game.name));
      for (const game of snapshot.context.rows) {
        expect(screen.getByRole('heading', { level: 3, name: game.name })).toBeTruthy();
        expect(screen.getByRole('link', { name: `${view.t('games.play')}: ${game.name}` })).toBeTruthy();
      }
      expect(row.querySelectorAll('article[aria-hidden="true"]').length, 'no skeleton left').toBe(0);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(buttonNamed(view.t('common.retry'))).toBeNull();
    },
    empty: (view) => {
      expect(view.harness.container.innerHTML, 'no row for a category without games').toBe('');
    },
    failed: (view, snapshot) => {
      const row = seeRow(view, snapshot);
      expect(row.querySelector('[aria-busy]'), 'no strip').toBeNull();
      expect(screen.getByRole('alert').textContent).toBe(view.t('games.loadFailed'));
      expect(buttonNamed(view.t('common.retry'))).not.toBeNull();
      expect(screen.queryAllByRole('article')).toEqual([]);
    },
  },
});
