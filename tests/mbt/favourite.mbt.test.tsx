// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { favouriteFixtures, FIRST_GAMES, LAST_GAMES } from '../../src/flows/fixtures/games.ts';
import type { Notice } from '../../src/machines/effects.ts';
import type { FavouriteToggle, favouriteMachine } from '../../src/machines/favourite.machine.ts';
import { toFailure } from '../../src/machines/failure.ts';
import type { Game } from '../../src/machines/gameList.machine.ts';
import FavouriteButton from '../../src/views/games/FavouriteButton.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type FavouriteView = View<typeof favouriteMachine>;
type FavouriteSnapshot = SnapshotFrom<typeof favouriteMachine>;

/*
 * The heart on a game tile, once its flow is loaded: a press turns it at once and the call follows (the
 * heart busy meanwhile); the server's answer is what it shows then; a refusal turns it back and says why.
 * A visitor's press changes nothing: "Please login first", and the login dialog over the page.
 */

/** The page the tile is on. */
const ADDRESS = '/casino?category=slots';

/** The fixtures' game, as the tile got it from its page (its heart as the input has it). */
function gameOf(view: FavouriteView): Game {
  const game = [...FIRST_GAMES.rows, ...LAST_GAMES.rows].find((candidate) => candidate.id === view.input.gameId);
  if (!game) throw new Error(`no fixture game ${view.input.gameId}`);
  return { ...game, isFavorite: view.input.isFavorite };
}

/** What the path's steps should have told the player (a refusal's reason, a visitor's "log in first"), in order. */
function expectedNotices(view: FavouriteView): Notice[] {
  return view.steps.slice(1).flatMap((step): Notice[] => {
    if (step.kind.kind === 'error') {
      const { code } = toFailure((step.event as EventObject & { error: unknown }).error);
      return [{ tone: 'error', code, fallback: 'default' }];
    }
    if (step.event.type === 'TOGGLE' && !view.input.signedIn) return [{ tone: 'error', message: 'messages.pleaseLogin' }];
    return [];
  });
}

/** A visitor's every press opens the login dialog over the page it is on. */
function expectedNavigations(view: FavouriteView): string[] {
  const presses = view.steps.filter((step) => step.event.type === 'TOGGLE').length;
  return view.input.signedIn ? [] : Array.from({ length: presses }, () => '/casino?category=slots&dialog=login');
}

function heart(view: FavouriteView): HTMLButtonElement {
  const name = gameOf(view).name;
  const hearts = screen.getAllByRole('button');
  expect(hearts, 'one heart').toHaveLength(1);
  const button = hearts[0] as HTMLButtonElement;
  const label = button.getAttribute('aria-label');
  expect([`${view.t('games.addFavourite')}: ${name}`, `${view.t('games.removeFavourite')}: ${name}`]).toContain(label);
  return button;
}

/** The heart as the machine holds it, named for what a press does; the notices and navigations so far. */
function seeHeart(view: FavouriteView, snapshot: FavouriteSnapshot, saving: boolean) {
  const { isFavorite } = snapshot.context;
  const name = gameOf(view).name;
  const button = screen.getByRole('button', { name: `${view.t(isFavorite ? 'games.removeFavourite' : 'games.addFavourite')}: ${name}` });
  expect(button.getAttribute('aria-pressed'), 'pressed').toBe(String(isFavorite));
  expect(button.getAttribute('aria-busy'), 'busy').toBe(String(saving));
  expect(button.getAttribute('title')).toBe(view.t(isFavorite ? 'games.removeFavourite' : 'games.addFavourite'));
  expect(view.harness.notices, 'what the player was told').toEqual(expectedNotices(view));
  expect(view.harness.navigations, 'where the player was sent').toEqual(expectedNavigations(view));
}

describeModel('favourite', {
  fixtures: favouriteFixtures,
  strategy: 'simple',
  filterEvents: (snapshot, event) => {
    // The server answers with the heart as the press turned it.
    if (event.type.startsWith('xstate.done.actor.')) {
      return (event as EventObject & { output: FavouriteToggle }).output.isFavorite === (snapshot as FavouriteSnapshot).context.isFavorite;
    }
    return true;
  },
  render: (view) =>
    renderWithServices(<FavouriteButton game={gameOf(view)} signedIn={view.input.signedIn} pressOnStart={false} />, {
      actors: view.actors,
      address: ADDRESS,
    }),
  events: {
    TOGGLE: (view) => view.user.click(heart(view)),
  },
  states: {
    idle: (view, snapshot) => seeHeart(view, snapshot, false),
    saving: (view, snapshot) => seeHeart(view, snapshot, true),
  },
});
