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
 * simulated clock moves to it: from the login, less what the device's clock counted while the limit was
 * read, or at once for a page opened after it); then it tells the
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
  // Played: the limit, or from the login to the check's start and on by the device's clock (the time read
  // once the limit was known), when that is longer.
  const read = view.steps.find((step) => step.kind.kind === 'done' && step.kind.src === 'readClock')?.event as { output: string } | undefined;
  const sinceLogin = Date.parse(view.input.now) - Date.parse(view.input.sessionStartedAt) + (Date.parse(read!.output) - Date.parse(view.input.deviceNow));
  expect(playedMs).toBe(Math.max(limitMinutes! * 60_000, sinceLogin));
  expect(view.harness.appEvents).toEqual([{ type: 'SESSION.LIMIT_REACHED', playedMs }]);
}

describeModel('realityCheck', {
  fixtures: realityCheckFixtures,
  render: (view) =>
    renderWithServices(<RealityCheckTimer sessionStartedAt={view.input.sessionStartedAt} now={view.input.now} deviceNow={view.input.deviceNow} />, {
      actors: view.actors,
      readClock: () => view.call<string>('readClock'),
    }),
  events: {},
  states: {
    loading: seeNothing,
    unlimited: seeNothing,
    unavailable: seeNothing,
    timing: seeNothing,
    waiting: seeNothing,
    reached: seeNothing,
  },
});
