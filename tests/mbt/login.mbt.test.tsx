// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { errorMessageKey } from '../../src/api/errors.ts';
import { loginFixtures } from '../../src/flows/fixtures/login.ts';
import type { SnapshotFrom } from 'xstate';
import type { LoginField, loginMachine, Session } from '../../src/machines/login.machine.ts';
import LoginDialog from '../../src/views/dialogs/LoginDialog.tsx';
import { changesAValue, fillsInOrder } from './filters.ts';
import { describeModel, outputOf, type View } from './run.tsx';
import { button, renderDialogInAddress, expectButton, expectField, formAlerts, setField } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type LoginView = View<typeof loginMachine>;
type LoginSnapshot = SnapshotFrom<typeof loginMachine>;

const LABELS: Record<LoginField, 'auth.login.loginId' | 'auth.login.password'> = {
  email: 'auth.login.loginId',
  password: 'auth.login.password',
};

/** The form as the machine holds it: each field's value and messages. */
function seeForm(view: LoginView, snapshot: LoginSnapshot) {
  expect(screen.getByRole('dialog', { name: view.t('auth.login.title') })).toBeTruthy();
  for (const field of ['email', 'password'] as const) {
    expectField(view.t, view.t(LABELS[field]), snapshot.context.values[field], snapshot.context.fieldErrors[field]);
  }
}

describeModel('login', {
  fixtures: loginFixtures,
  filterEvents: (snapshot, event) => changesAValue(snapshot, event) && fillsInOrder(loginFixtures.events['FIELD.CHANGE'])(snapshot, event),
  render: (view) =>
    renderDialogInAddress('login', (close) => <LoginDialog onClose={close} switchTo={() => {}} />, { actors: view.actors }),
  events: {
    'FIELD.CHANGE': (view, event) => setField(view.user, view.t(LABELS[event.field]), event.value),
    SUBMIT: (view) => view.user.click(button(view.t('auth.login.submit'))),
  },
  states: {
    editing: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([]);
      expectButton(view.t('auth.login.submit'), false);
    },
    submitting: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([]);
      expectButton(view.t('common.submitting'), true);
    },
    failed: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([view.t(errorMessageKey(snapshot.context.errorCode, 'login'))]);
      expectButton(view.t('auth.login.submit'), false);
    },
    done: (view) => {
      // The dialog has closed; the app has the session and a toast says so.
      const session = outputOf<Session>(view.step);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(view.harness.appEvents).toEqual([{ type: 'SESSION.LOGGED_IN', accessToken: session.accessToken, user: session.user }]);
      expect(view.harness.notices).toEqual([{ tone: 'success', message: 'messages.loginSuccess' }]);
    },
  },
});
