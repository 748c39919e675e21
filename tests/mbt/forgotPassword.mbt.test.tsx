// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { forgotPasswordFixtures } from '../../src/flows/fixtures/forgotPassword.ts';
import type { forgotPasswordMachine } from '../../src/machines/forgotPassword.machine.ts';
import ForgotPasswordDialog from '../../src/views/dialogs/ForgotPasswordDialog.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue } from './filters.ts';
import { describeModel, type View } from './run.tsx';
import { button, expectButton, expectField, formAlerts, setField } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type ForgotView = View<typeof forgotPasswordMachine>;
type ForgotSnapshot = SnapshotFrom<typeof forgotPasswordMachine>;

function seeForm(view: ForgotView, snapshot: ForgotSnapshot) {
  expect(screen.getByRole('dialog', { name: view.t('auth.forgotPassword.title') })).toBeTruthy();
  expectField(view.t, view.t('auth.forgotPassword.email'), snapshot.context.values.email, snapshot.context.fieldErrors.email);
}

describeModel('forgotPassword', {
  fixtures: forgotPasswordFixtures,
  filterEvents: changesAValue,
  render: (view) => renderWithServices(<ForgotPasswordDialog onClose={() => {}} switchTo={() => {}} />, { actors: view.actors }),
  events: {
    'FIELD.CHANGE': (view, event) => setField(view.user, view.t('auth.forgotPassword.email'), event.value),
    SUBMIT: (view) => view.user.click(button(view.t('auth.forgotPassword.submit'))),
  },
  states: {
    editing: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([]);
      expectButton(view.t('auth.forgotPassword.submit'), false);
    },
    submitting: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([]);
      expectButton(view.t('common.submitting'), true);
    },
    failed: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([view.t(errorMessageKey(snapshot.context.errorCode, 'default'))]);
      expectButton(view.t('auth.forgotPassword.submit'), false);
    },
    done: (view, snapshot) => {
      // The form gives way to word that the link is on its way, and a toast says so.
      expect(screen.getByRole('status').textContent).toBe(view.t('auth.forgotPassword.sent', { email: snapshot.context.values.email }));
      expect(screen.queryByLabelText(view.t('auth.forgotPassword.email'))).toBeNull();
      // Focus moves to the way out.
      expect(document.activeElement?.textContent).toBe(view.t('common.close'));
      expect(view.harness.notices).toEqual([{ tone: 'success', message: 'messages.resetLinkSent' }]);
    },
  },
});
