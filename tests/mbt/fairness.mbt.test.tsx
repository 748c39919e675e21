// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { fairnessFixtures, FAIR_SERVER_SEED } from '../../src/flows/fixtures/fairness.ts';
import { hundredthsText } from '../../src/machines/fairness.address.ts';
import { betOf, type Bet, type fairnessMachine, type FairnessContext, type VerifiedBet } from '../../src/machines/fairness.machine.ts';
import type { MessageKey } from '../../src/i18n/index.ts';
import { Fairness } from '../../src/views/screens/FairnessScreen.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';
import { button, formAlerts } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type FairnessView = View<typeof fairnessMachine>;
type FairnessSnapshot = SnapshotFrom<typeof fairnessMachine>;

/*
 * The /fairness page: opened from the bet history's Verify link, the bet is recomputed at once and the page
 * says whether the server seed matches the hash shown before the bet and the roll the one recorded; a
 * changed nonce recomputes another roll, which does not match; a nonce that is no number, or a seed the
 * library refuses, is said beside its field; Mines draws its board; a browser that cannot hash says so,
 * with Retry. Opened empty, the page waits for a bet.
 */

const FIELD_LABELS = { nonce: 'fairness.nonce', game: 'fairness.game' } as const;

function fieldOf(view: FairnessView, field: keyof typeof FIELD_LABELS): HTMLInputElement | HTMLSelectElement {
  return screen.getByLabelText(view.t(FIELD_LABELS[field])) as HTMLInputElement | HTMLSelectElement;
}

/** The form shows what the machine holds, and the message of a refusal beside its field. */
function seeForm(view: FairnessView, context: FairnessContext) {
  expect(fieldOf(view, 'game').value).toBe(context.form.game);
  expect((screen.getByLabelText(view.t('fairness.serverSeed')) as HTMLInputElement).value).toBe(context.form.serverSeed);
  expect(fieldOf(view, 'nonce').value).toBe(context.form.nonce);
  // The game's own parameters only.
  expect(screen.queryByLabelText(view.t('fairness.diceTarget')) !== null, 'dice target').toBe(context.form.game === 'dice');
  expect(screen.queryByLabelText(view.t('fairness.mineCount')) !== null, 'mine count').toBe(context.form.game === 'mines');
  const invalid = [...document.querySelectorAll('[aria-invalid="true"]')].map((field) => field.id);
  if (context.error === null) expect(invalid).toEqual([]);
  else {
    expect(invalid).toHaveLength(1);
    expect(screen.getByText(view.t(`fairness.errors.${context.error}` as MessageKey))).toBeTruthy();
  }
  // "How it works" is always there.
  expect(screen.getByRole('heading', { name: view.t('fairness.howTitle') })).toBeTruthy();
}

function seeNoResult(view: FairnessView) {
  expect(screen.queryByText(view.t('fairness.computedHash'))).toBeNull();
  expect(screen.queryByText(view.t('fairness.matches'))).toBeNull();
  expect(screen.queryByText(view.t('fairness.doesNotMatch'))).toBeNull();
}

const seedIsHex = (context: FairnessContext) => /^[0-9a-f]{64}$/.test(context.form.serverSeed);

describeModel('fairness', {
  fixtures: fairnessFixtures,
  filterEvents: (snapshot, event: EventObject) => {
    const context = snapshot.context as FairnessContext;
    if (event.type === 'CHANGE') {
      const change = event as EventObject & { field: keyof FairnessContext['form']; value: string };
      return context.form[change.field] !== change.value;
    }
    // What the library answers for the bet the form describes.
    if (event.type.startsWith('xstate.done.actor.') && snapshot.matches('verifying')) {
      const output = (event as EventObject & { output: VerifiedBet }).output;
      const bet = betOf(context.form) as Bet;
      if (!output.ok) return !seedIsHex(context);
      if (!seedIsHex(context)) return false;
      if (output.outcome.mines) return bet.game === 'mines';
      return bet.game === 'dice' && (output.outcome.roll === 5012 ? bet.pair.nonce === 4 : bet.pair.nonce === 5);
    }
    return true;
  },
  render: (view) =>
    renderWithServices(<Fairness form={view.input.form} />, {
      verifyBet: (bet, signal) => view.call<VerifiedBet>('verifyBet', bet, signal),
    }),
  events: {
    // One change event with the whole value, as a paste or a picked option gives it.
    CHANGE: async (view, event) => {
      fireEvent.change(fieldOf(view, event.field as keyof typeof FIELD_LABELS), { target: { value: event.value } });
    },
    VERIFY: (view) => view.user.click(button(view.t('fairness.verify'))),
    RETRY: (view) => view.user.click(button(view.t('common.retry'))),
  },
  states: {
    checking: () => {
      throw new Error('checking is passed through, never rested in');
    },
    editing: (view, snapshot: FairnessSnapshot) => {
      seeForm(view, snapshot.context);
      seeNoResult(view);
      expect(screen.getByText(view.t('fairness.nothingYet'))).toBeTruthy();
      expect(button(view.t('fairness.verify')).getAttribute('aria-busy')).toBe('false');
    },
    invalid: (view, snapshot) => {
      seeForm(view, snapshot.context);
      seeNoResult(view);
      expect(snapshot.context.error).not.toBeNull();
    },
    verifying: (view, snapshot) => {
      seeForm(view, snapshot.context);
      seeNoResult(view);
      expect(button(view.t('fairness.verifying')).getAttribute('aria-busy')).toBe('true');
    },
    failed: (view, snapshot) => {
      seeForm(view, snapshot.context);
      seeNoResult(view);
      expect(formAlerts()).toEqual([view.t('fairness.failed')]);
      expect(button(view.t('common.retry'))).toBeTruthy();
    },
    verified: (view, snapshot) => {
      const { context } = snapshot;
      const result = context.result!;
      seeForm(view, context);
      expect(screen.getByText(result.serverSeedHash)).toBeTruthy();
      expect(screen.getByText(result.numbers.join(', '))).toBeTruthy();
      // The verdicts: the link's hash is that of the seed; its roll is the one at nonce 4.
      const verdicts = [...document.querySelectorAll('[data-check]')].map((element) => [element.getAttribute('data-check'), element.textContent]);
      const words = { match: view.t('fairness.matches'), mismatch: view.t('fairness.doesNotMatch'), none: view.t('fairness.notCompared') };
      expect(verdicts).toEqual([
        [result.hashCheck, words[result.hashCheck]],
        [result.outcomeCheck, words[result.outcomeCheck]],
      ]);
      expect(result.hashCheck).toBe(context.form.serverSeed === FAIR_SERVER_SEED && context.form.expectedHash !== '' ? 'match' : context.form.expectedHash === '' ? 'none' : 'mismatch');
      if (context.form.expectedOutcome !== '' && result.game === 'dice') expect(result.outcomeCheck).toBe(context.form.nonce === '4' ? 'match' : 'mismatch');
      if (result.game === 'dice') {
        expect(
          screen.getByText(
            (text) => text.startsWith(view.t('fairness.roll', { roll: hundredthsText(result.outcome.roll!), direction: view.t('fairness.over'), target: context.form.diceTarget })),
          ),
        ).toBeTruthy();
      }
      if (result.game === 'mines') {
        const board = screen.getByRole('list', { name: view.t('fairness.minesBoard') });
        const mined = [...board.querySelectorAll('li[data-mine="true"]')].map((tile) => Number(tile.textContent === '✱' ? tile.getAttribute('aria-label')!.split(':')[0] : -1));
        expect(mined.sort((a, b) => a - b)).toEqual([...result.outcome.mines!].sort((a, b) => a - b));
        expect(board.querySelectorAll('li')).toHaveLength(25);
      }
    },
  },
});
