// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { resetPasswordFixtures } from '../../src/flows/fixtures/resetPassword.ts';
import {
  passwordTicks,
  type resetPasswordMachine,
  type ResetPasswordField,
} from '../../src/machines/resetPassword.machine.ts';
import ResetPasswordDialog from '../../src/views/dialogs/ResetPasswordDialog.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue, fillsInOrder } from './filters.ts';
import { describeModel, type View } from './run.tsx';
import { button, expectButton, expectField, formAlerts, setField } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type ResetView = View<typeof resetPasswordMachine>;
type ResetSnapshot = SnapshotFrom<typeof resetPasswordMachine>;

const LABELS: Record<ResetPasswordField, 'auth.resetPassword.newPassword' | 'auth.resetPassword.confirmPassword'> = {
  newPassword: 'auth.resetPassword.newPassword',
  confirmPassword: 'auth.resetPassword.confirmPassword',
};

function seeForm(view: ResetView, snapshot: ResetSnapshot) {
  expect(screen.getByRole('dialog', { name: view.t('auth.resetPassword.title') })).toBeTruthy();
  for (const field of ['newPassword', 'confirmPassword'] as const) {
    expectField(view.t, view.t(LABELS[field]), snapshot.context.values[field], snapshot.context.fieldErrors[field]);
  }
  // The checklist ticks the rules the new password meets.
  const rules = screen.getByRole('list', { name: view.t('auth.register.passwordRulesTitle') });
  const met = within(rules)
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('data-met') === 'true');
  expect(met).toEqual(Object.values(passwordTicks(snapshot.context)));
}

const fillOrder = fillsInOrder(resetPasswordFixtures.events['FIELD.CHANGE']);

describeModel('resetPassword', {
  fixtures: resetPasswordFixtures,
  filterEvents: (snapshot, event) => changesAValue(snapshot, event) && fillOrder(snapshot, event),
  render: (view) => renderWithServices(<ResetPasswordDialog token={view.input.token} onClose={() => {}} />, { actors: view.actors }),
  events: {
    'FIELD.CHANGE': (view, event) => setField(view.user, view.t(LABELS[event.field]), event.value),
    SUBMIT: (view) => view.user.click(button(view.t('auth.resetPassword.submit'))),
  },
  states: {
    editing: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([]);
      expectButton(view.t('auth.resetPassword.submit'), false);
    },
    submitting: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([]);
      expectButton(view.t('common.submitting'), true);
    },
    failed: (view, snapshot) => {
      // A link without a token fails as an unknown one, before anything is sent.
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([view.t(errorMessageKey(snapshot.context.errorCode, 'default'))]);
      expectButton(view.t('auth.resetPassword.submit'), false);
    },
    done: (view) => {
      expect(screen.getByRole('status').textContent).toBe(view.t('messages.passwordReset'));
      expect(screen.queryByLabelText(view.t(LABELS.newPassword))).toBeNull();
      expect(document.activeElement?.textContent).toBe(view.t('common.close'));
      expect(view.harness.notices).toEqual([{ tone: 'success', message: 'messages.passwordReset' }]);
      expect(view.harness.navigations).toEqual(['/']);
    },
  },
});
