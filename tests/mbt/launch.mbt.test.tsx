// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { formatAmount } from '../../src/format.ts';
import { launchFixtures } from '../../src/flows/fixtures/games.ts';
import { EMPTY_WALLETS, FUNDED_WALLETS } from '../../src/flows/fixtures/wallets.ts';
import { canRetry, type GameSession, type HouseTable, type launchMachine, type OpenGameSession } from '../../src/machines/launch.machine.ts';
import type { Wallet } from '../../src/machines/wallets.machine.ts';
import { GamePage } from '../../src/views/games/GamePage.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import type { ModelStep } from './model.ts';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type LaunchView = View<typeof launchMachine>;
type LaunchSnapshot = SnapshotFrom<typeof launchMachine>;
type LaunchContext = LaunchSnapshot['context'];

/*
 * The game page: a tile's Play or Demo opens a real or demo session, puts it in the address
 * (/play/SESSION, keeping where the player came from) and reads it back with its game; a reload of
 * /play/SESSION only reads it. Then the session's house table says which engine the title runs on: the
 * game's own page opens in a frame filling the page, or a live dealer or sports title says it cannot be
 * played here, with the Originals and the way back (never an empty frame). A visitor asked for real money
 * is asked to log in; a refusal is shown with
 * its message, with Retry when the page knows what to try again, and a way back to the games. Once
 * playing, the bar names the game, shows the balance (play money in demo) and switches between real money
 * and demo; "Leave game" goes back to where the player came from, in every state.
 */

const FROM = '/casino';

// happy-dom loads no frame's page and says so on the console: the frame's address is what is checked here.
const consoleError = console.error.bind(console);
vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  if (String(args[0]).includes('Iframe page loading is disabled')) return;
  consoleError(...args);
});

/** The address the page was opened at, for each of the fixtures' inputs. */
function startAddress(input: LaunchView['input']): string {
  const from = `from=${encodeURIComponent(FROM)}`;
  if (input.sessionId !== null) return `/play/${input.sessionId}?${from}`;
  if (input.gameId === null) return `/play?${from}`;
  return `/play?game=${input.gameId}&mode=${input.mode}&${from}`;
}

/** A player's wallets: a reload finds the LTC wallet empty, a game opened from a tile finds it funded. */
function walletsOf(input: LaunchView['input']): Wallet[] {
  return input.sessionId !== null ? EMPTY_WALLETS : FUNDED_WALLETS;
}

/**
 * The addresses the page should have gone to after the path's steps, in order: the session put in the
 * address in place of the launch link (the `from` kept), the login dialog over the page, and back to
 * `from` on leaving.
 */
function expectedNavigations(view: LaunchView): string[] {
  const navigations: string[] = [];
  let address = new URL(startAddress(view.input), 'http://localhost');
  const go = (to: string) => {
    navigations.push(to);
    address = new URL(to, address);
  };
  for (const step of view.steps.slice(1)) {
    if (step.kind.kind === 'done' && (step.kind.src === 'launchGame' || step.kind.src === 'launchDemo')) {
      const session = (step.event as EventObject & { output: GameSession }).output;
      go(`/play/${encodeURIComponent(session.sessionId)}?from=${encodeURIComponent(FROM)}`);
    } else if (step.event.type === 'LOG_IN') {
      const params = new URLSearchParams(address.search);
      params.set('dialog', 'login');
      go(`${address.pathname}?${params.toString()}`);
    } else if (step.event.type === 'CLOSE') {
      go(FROM);
    }
  }
  return navigations;
}

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

/** The bar: the game's name once known (else "Game"), "Leave game" always, and the effects so far. */
function seeBar(view: LaunchView, context: LaunchContext) {
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(context.game?.name ?? view.t('gamePage.title'));
  expect(screen.getByRole('button', { name: view.t('games.exitGame') })).toBeTruthy();
  expect(view.harness.navigations, 'where the page sent the player').toEqual(expectedNavigations(view));
}

/** Not playing: no balance, no real money or demo switch, no frame. */
function seeNoGame(view: LaunchView) {
  expect(document.querySelector('iframe')).toBeNull();
  expect(screen.queryByRole('group', { name: view.t('gamePage.mode') })).toBeNull();
  expect(screen.queryByText(view.t('gamePage.playMoney'))).toBeNull();
  expect(screen.queryByLabelText(view.t('gamePage.balance'))).toBeNull();
}

/** Starting the game (a session opened, or read): the busy status, nothing else in the stage. */
function seeStarting(view: LaunchView, snapshot: LaunchSnapshot) {
  seeBar(view, snapshot.context);
  seeNoGame(view);
  const status = screen.getByRole('status');
  expect(status.getAttribute('aria-busy')).toBe('true');
  expect(status.textContent).toBe(view.t('games.launching'));
  expect(screen.queryByRole('alert')).toBeNull();
  expect(buttonNamed(view.t('nav.login'))).toBeNull();
}

/** What the path has the player do to switch: the bar's other mode, or "Play the demo" beside an empty wallet. */
async function switchMode(view: LaunchView) {
  const playDemo = buttonNamed(view.t('gamePage.switchToDemo'));
  if (playDemo) {
    await view.user.click(playDemo);
    return;
  }
  const demo = screen.getByRole('button', { name: view.t('games.demo') });
  const real = screen.getByRole('button', { name: view.t('gamePage.real') });
  await view.user.click(demo.getAttribute('aria-pressed') === 'true' ? real : demo);
}

const answerOf = <T,>(event: EventObject) => (event as EventObject & { output: T }).output;

describeModel('launch', {
  fixtures: launchFixtures,
  filterEvents: (snapshot, event, history: readonly ModelStep[]) => {
    // Leaving ends the page: nothing happens on it afterwards.
    if (history.at(-1)?.event.type === 'CLOSE') return false;
    const context = snapshot.context as LaunchContext;
    // The server reads back the session the page asked for.
    if (event.type.startsWith('xstate.done.actor.') && snapshot.matches('reading')) {
      return answerOf<OpenGameSession>(event).gameSession.sessionId === context.sessionId;
    }
    // ... and the table of that session.
    if (event.type.startsWith('xstate.done.actor.') && snapshot.matches('loadingTable')) {
      return answerOf<HouseTable>(event).sessionId === context.sessionId;
    }
    return true;
  },
  render: (view) =>
    renderWithServices(<GamePage {...view.input} />, {
      actors: { ...view.actors, loadWallets: fromPromise(async () => walletsOf(view.input)) },
      address: startAddress(view.input),
    }),
  events: {
    SWITCH_MODE: (view) => switchMode(view),
    RETRY: (view) => view.user.click(buttonNamed(view.t('common.retry'))!),
    LOG_IN: (view) => view.user.click(buttonNamed(view.t('nav.login'))!),
    // The bar's "Leave game" in every state; "Back to the games" under a refusal.
    CLOSE: (view) => view.user.click(buttonNamed(view.t('gamePage.back')) ?? screen.getByRole('button', { name: view.t('games.exitGame') })),
  },
  states: {
    starting: () => {
      throw new Error('starting is passed through, never rested in');
    },
    launching: seeStarting,
    launchingDemo: seeStarting,
    reading: seeStarting,
    loadingTable: seeStarting,
    unavailable: (view, snapshot) => {
      const { context } = snapshot;
      seeBar(view, context);
      seeNoGame(view);
      // What the title is and why it does not open, the Originals and the way back: never an empty frame.
      expect(screen.getByRole('note').textContent).toBe(view.t('gamePage.unavailable', { name: context.game!.name }));
      expect(screen.getByRole('link', { name: view.t('gamePage.originals') }).getAttribute('href')).toBe('/category/originals');
      expect(buttonNamed(view.t('gamePage.back'))).not.toBeNull();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
    },
    loginRequired: (view, snapshot) => {
      seeBar(view, snapshot.context);
      seeNoGame(view);
      const status = screen.getByRole('status');
      expect(status.getAttribute('aria-busy')).toBeNull();
      expect(status.querySelector('p')?.textContent).toBe(view.t('messages.pleaseLogin'));
      expect(buttonNamed(view.t('nav.login'))).not.toBeNull();
      expect(screen.queryByRole('alert')).toBeNull();
    },
    failed: (view, snapshot) => {
      const { context } = snapshot;
      seeBar(view, context);
      seeNoGame(view);
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(context.errorCode, 'default')));
      // Retry when the page knows the game or the session; a link without either only leads back.
      expect(buttonNamed(view.t('common.retry')) !== null, 'Retry').toBe(canRetry(context));
      expect(buttonNamed(view.t('gamePage.back'))).not.toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
    },
    playing: async (view, snapshot) => {
      const { context } = snapshot;
      const session = context.session!;
      const game = context.game!;
      seeBar(view, context);
      expect(screen.queryByRole('alert')).toBeNull();
      // The house game's own page fills the page, named by the game.
      const frame = document.querySelector('iframe')!;
      expect(frame.getAttribute('src')).toBe(`/house/${context.table!.engine}.html?session=${encodeURIComponent(session.sessionId)}`);
      expect(frame.getAttribute('title')).toBe(game.name);
      expect(screen.queryByRole('note')).toBeNull();
      // Covered until its page has loaded: never a blank frame.
      const starting = screen.queryByRole('status', { busy: true });
      if (starting) {
        expect(starting.textContent).toBe(view.t('games.launching'));
        fireEvent.load(frame);
        await waitFor(() => expect(screen.queryByRole('status', { busy: true })).toBeNull());
      }
      // Real money or demo: the one in use pressed, the other one usable when the machine can switch.
      const switchable = snapshot.can({ type: 'SWITCH_MODE' });
      const real = screen.getByRole('button', { name: view.t('gamePage.real') });
      const demo = screen.getByRole('button', { name: view.t('games.demo') });
      expect(real.getAttribute('aria-pressed')).toBe(String(!session.demo));
      expect(demo.getAttribute('aria-pressed')).toBe(String(session.demo));
      const [inUse, other] = (session.demo ? [demo, real] : [real, demo]) as HTMLButtonElement[];
      expect(inUse!.disabled, `"${inUse!.textContent}" in use`).toBe(false);
      expect(other!.disabled, `"${other!.textContent}" usable`).toBe(!switchable);
      if (session.demo) {
        expect(screen.getByText(view.t('gamePage.playMoney')).tagName).toBe('OUTPUT');
        expect(screen.queryByLabelText(view.t('gamePage.balance'))).toBeNull();
        expect(buttonNamed(view.t('gamePage.switchToDemo'))).toBeNull();
        return;
      }
      // The balance of the session's currency, live from the player's wallets.
      const wallet = walletsOf(view.input).find((candidate) => candidate.currencyCode === session.currencyCode)!;
      await waitFor(() => expect(screen.getByLabelText(view.t('gamePage.balance')).textContent).toBe(formatAmount(wallet.available, wallet.currencyCode, view.language)));
      // An empty wallet says to deposit, and offers the demo when the game has one.
      const empty = wallet.available === '0';
      expect(screen.queryByText(view.t('gamePage.emptyWallet', { currency: wallet.currencyCode })) !== null, 'empty wallet').toBe(empty);
      expect(buttonNamed(view.t('balance.deposit')) !== null, 'Deposit').toBe(empty);
      expect(buttonNamed(view.t('gamePage.switchToDemo')) !== null, 'Play the demo').toBe(empty && game.hasDemo && switchable);
    },
  },
});
