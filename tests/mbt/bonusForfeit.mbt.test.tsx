// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { formatAmount } from '../../src/format.ts';
import { bonusForfeitFixtures } from '../../src/flows/fixtures/bonus.ts';
import type { bonusForfeitMachine } from '../../src/machines/bonusForfeit.machine.ts';
import type { Notice } from '../../src/machines/effects.ts';
import { toFailure } from '../../src/machines/failure.ts';
import { ForfeitDialog } from '../../src/views/screens/BonusScreen.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type ForfeitView = View<typeof bonusForfeitMachine>;
type ForfeitSnapshot = SnapshotFrom<typeof bonusForfeitMachine>;

/*
 * Forfeiting a bonus: the confirmation says what is lost (an active bonus's money and wagering, or that a
 * queued one never starts); Keep closes it, Forfeit sends POST /bonus/cancel; a refusal is a toast with
 * its SPEC §8 message (or "Something went wrong.") and the confirmation stays; success is the toast "Bonus
 * Forfeited." and the confirmation's address goes.
 */

const ADDRESS = '/bonus?tab=active&forfeit=';

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

/** The toasts the path has shown: one per refusal, and the success. */
function expectedNotices(view: ForfeitView): Notice[] {
  return view.steps.flatMap((step): Notice[] => {
    if (step.kind.kind === 'error' && step.kind.src === 'forfeitBonus') {
      return [{ tone: 'error', code: toFailure((step.event as EventObject & { error: unknown }).error).code, fallback: 'bonus' }];
    }
    if (step.kind.kind === 'done' && step.kind.src === 'forfeitBonus') return [{ tone: 'success', message: 'messages.bonusForfeited' }];
    return [];
  });
}

function seeConfirmation(view: ForfeitView, snapshot: ForfeitSnapshot, busy: boolean) {
  const { bonus } = snapshot.context;
  const dialog = screen.getByRole('dialog', { name: view.t('bonus.forfeitTitle') });
  const money = (amount: string) => formatAmount(amount, 'LTC', view.language);
  expect(dialog.textContent).toContain(`${bonus.bonus.name} · ${view.t(`bonus.statuses.${bonus.status}`)}`);
  expect(dialog.textContent).toContain(
    bonus.status === 'active'
      ? view.t('bonus.forfeitLosesActive', { amount: money(bonus.amount), wagered: money(bonus.wageredAmount), total: money(bonus.amountToWager) })
      : view.t('bonus.forfeitLosesQueued'),
  );
  const confirm = buttonNamed(busy ? view.t('bonus.forfeiting') : view.t('bonus.forfeitConfirmButton'))!;
  expect(confirm.disabled).toBe(busy);
  expect(buttonNamed(view.t('bonus.forfeitKeep'))!.disabled).toBe(busy);
  expect(view.harness.notices).toEqual(expectedNotices(view));
  expect(view.harness.navigations).toEqual([]);
}

describeModel('bonusForfeit', {
  fixtures: bonusForfeitFixtures,
  render: (view) =>
    renderWithServices(<ForfeitDialog bonus={view.input.bonus} />, { actors: view.actors, address: `${ADDRESS}${view.input.bonus.id}` }),
  events: {
    CONFIRM: (view) => view.user.click(buttonNamed(view.t('bonus.forfeitConfirmButton'))!),
    CANCEL: (view) => view.user.click(buttonNamed(view.t('bonus.forfeitKeep'))!),
  },
  states: {
    confirming: (view, snapshot) => seeConfirmation(view, snapshot, false),
    forfeiting: (view, snapshot) => seeConfirmation(view, snapshot, true),
    // Closed: the address loses the confirmation (the tab stays), nothing is shown.
    cancelled: (view) => {
      expect(view.harness.navigations).toEqual(['/bonus?tab=active']);
      expect(view.harness.notices).toEqual(expectedNotices(view));
    },
    forfeited: (view) => {
      expect(view.harness.navigations).toEqual(['/bonus?tab=active']);
      expect(view.harness.notices.at(-1)).toEqual({ tone: 'success', message: 'messages.bonusForfeited' });
      expect(view.harness.notices).toEqual(expectedNotices(view));
    },
  },
});
