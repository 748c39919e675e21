// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { realityCheckFixtures } from '../../src/flows/fixtures/responsibleGambling.ts';
import type { realityCheckMachine } from '../../src/machines/realityCheck.machine.ts';
import { RealityCheckTimer } from '../../src/views/RealityCheck.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type RealityCheckView = View<typeof realityCheckMachine>;
type RealityCheckSnapshot = SnapshotFrom<typeof realityCheckMachine>;

/*
 * The reality check: nothing shows and nothing is said until the session has lasted its limit (the
 * simulated clock moves to it: from the login, or at once for a page opened after it); then it tells the
 * app, once, how long the player has played (SESSION.LIMIT_REACHED: the app ends the session and opens
 * the session-limit dialog, tested with the app and the dialog host). No limit, or no answer: nothing.
 */

function seeNothing(view: RealityCheckView, snapshot: RealityCheckSnapshot) {
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(document.body.textContent).toBe('');
  if (!snapshot.matches('reached')) {
    expect(view.harness.appEvents).toEqual([]);
    return;
  }
  const { playedMs, limitMinutes } = snapshot.context;
  // Played: the limit, or from the login for a page opened after the limit.
  const sinceLogin = Date.parse(view.input.now) - Date.parse(view.input.sessionStartedAt);
  expect(playedMs).toBe(Math.max(limitMinutes! * 60_000, sinceLogin));
  expect(view.harness.appEvents).toEqual([{ type: 'SESSION.LIMIT_REACHED', playedMs }]);
}

describeModel('realityCheck', {
  fixtures: realityCheckFixtures,
  render: (view) => renderWithServices(<RealityCheckTimer sessionStartedAt={view.input.sessionStartedAt} now={view.input.now} />, { actors: view.actors }),
  events: {},
  states: {
    loading: seeNothing,
    unlimited: seeNothing,
    unavailable: seeNothing,
    waiting: seeNothing,
    reached: seeNothing,
  },
});
