// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { realityCheckFixtures } from '../../src/flows/fixtures/responsibleGambling.ts';
import type { realityCheckMachine } from '../../src/machines/realityCheck.machine.ts';
import { formatDuration, RealityCheckDialog } from '../../src/views/RealityCheck.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type RealityCheckView = View<typeof realityCheckMachine>;
type RealityCheckSnapshot = SnapshotFrom<typeof realityCheckMachine>;

/*
 * The reality check: nothing shows until the session has lasted its limit (the simulated clock moves to
 * it: from the login, or at once for a page opened after it); then the dialog says how long the player has
 * played and what the limit is, with Keep playing (the next check one limit later) and Log out (the app's
 * logout). No limit, or no answer: nothing ever shows.
 */

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

function seeNothing(view: RealityCheckView, snapshot: RealityCheckSnapshot) {
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(view.harness.appEvents).toEqual(snapshot.matches('leaving') ? [{ type: 'LOGOUT' }] : []);
}

describeModel('realityCheck', {
  fixtures: realityCheckFixtures,
  // Going on twice says no more than going on once: the played time would grow without end.
  filterEvents: (snapshot, event) => {
    const { playedMs, limitMinutes } = snapshot.context as RealityCheckSnapshot['context'];
    return event.type !== 'CONTINUE' || playedMs < 2 * (limitMinutes ?? 0) * 60_000;
  },
  render: (view) => renderWithServices(<RealityCheckDialog sessionStartedAt={view.input.sessionStartedAt} now={view.input.now} />, { actors: view.actors }),
  events: {
    CONTINUE: (view) => view.user.click(buttonNamed(view.t('responsibleGambling.realityCheck.continue'))!),
    LOGOUT: (view) => view.user.click(buttonNamed(view.t('responsibleGambling.realityCheck.logout'))!),
  },
  states: {
    loading: seeNothing,
    unlimited: seeNothing,
    unavailable: seeNothing,
    waiting: seeNothing,
    leaving: seeNothing,
    checking: (view, snapshot) => {
      const { playedMs, limitMinutes } = snapshot.context;
      const dialog = screen.getByRole('dialog', { name: view.t('responsibleGambling.realityCheck.title') });
      expect(dialog.textContent).toContain(view.t('responsibleGambling.realityCheck.played', { duration: formatDuration(playedMs, view.t) }));
      expect(dialog.textContent).toContain(view.t('responsibleGambling.realityCheck.limit', { duration: formatDuration(limitMinutes! * 60_000, view.t) }));
      // Played: the limit times the checks shown, or from the login for a page opened after the limit.
      const checks = view.steps.filter((step) => step.kind.kind === 'after').length;
      const sinceLogin = Date.parse(view.input.now) - Date.parse(view.input.sessionStartedAt);
      expect(playedMs).toBe(Math.max(limitMinutes! * 60_000, sinceLogin) + (checks - 1) * limitMinutes! * 60_000);
      expect(buttonNamed(view.t('responsibleGambling.realityCheck.logout'))).not.toBeNull();
      expect(view.harness.appEvents).toEqual([]);
    },
  },
});
