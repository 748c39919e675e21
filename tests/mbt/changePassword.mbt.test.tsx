// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { changePasswordFixtures } from '../../src/flows/fixtures/changePassword.ts';
import { newPasswordTicks, type changePasswordMachine, type ChangePasswordField, type ChangePasswordRequest } from '../../src/machines/changePassword.machine.ts';
import ChangePassword from '../../src/views/profile/ChangePassword.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue, fillsInOrder } from './filters.ts';
import { describeModel, type View } from './run.tsx';
import { button, expectButton, expectField, formAlerts, setField } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type ChangeView = View<typeof changePasswordMachine>;
type ChangeSnapshot = SnapshotFrom<typeof changePasswordMachine>;

/*
 * The profile's change-password section: the three fields with the new password's rules ticked as it is
 * typed, the request with both passwords base64-encoded, the SPEC §8 toast and the refusals' messages.
 */

const LABELS = {
  oldPassword: 'profile.changePassword.currentPassword',
  newPassword: 'profile.changePassword.newPassword',
  confirmPassword: 'profile.changePassword.confirmPassword',
} as const satisfies Record<ChangePasswordField, string>;

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function seeForm(view: ChangeView, snapshot: ChangeSnapshot) {
  for (const field of ['oldPassword', 'newPassword', 'confirmPassword'] as const) {
    expectField(view.t, view.t(LABELS[field]), snapshot.context.values[field], snapshot.context.fieldErrors[field]);
  }
  const rules = screen.getByRole('list', { name: view.t('auth.register.passwordRulesTitle') });
  const met = within(rules)
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('data-met') === 'true');
  expect(met).toEqual(Object.values(newPasswordTicks(snapshot.context)));
}

/** The toasts so far: one per change made. */
function seeNotices(view: ChangeView) {
  const changes = view.steps.filter((step) => step.kind.kind === 'done' && step.kind.src === 'updatePassword').length;
  expect(view.harness.notices).toEqual(Array.from({ length: changes }, () => ({ tone: 'success', message: 'messages.passwordChanged' })));
}

/** The requests each path's view sent, in order. */
const sent = new WeakMap<ChangeView, ChangePasswordRequest[]>();

const fillOrder = fillsInOrder(changePasswordFixtures.events['FIELD.CHANGE']);

describeModel('changePassword', {
  fixtures: changePasswordFixtures,
  filterEvents: (snapshot, event) => changesAValue(snapshot, event) && fillOrder(snapshot, event),
  render: (view) => {
    const requests: ChangePasswordRequest[] = [];
    sent.set(view, requests);
    const updatePassword = fromPromise<void, ChangePasswordRequest>(({ input, signal }) => {
      requests.push(input);
      return view.call('updatePassword', input, signal);
    });
    return renderWithServices(<ChangePassword />, { actors: { ...view.actors, updatePassword } });
  },
  events: {
    'FIELD.CHANGE': (view, event) => setField(view.user, view.t(LABELS[event.field]), event.value),
    SUBMIT: (view) => view.user.click(button(view.t('profile.changePassword.submit'))),
  },
  states: {
    editing: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([]);
      expect(screen.queryByRole('status')).toBeNull();
      expectButton(view.t('profile.changePassword.submit'), false);
      seeNotices(view);
    },
    submitting: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([]);
      expectButton(view.t('common.submitting'), true);
      // Both passwords as typed, base64-encoded (SPEC §5, §7), once per sending.
      const { values } = snapshot.context;
      expect(sent.get(view)!.at(-1)).toEqual({ oldPassword: base64(values.oldPassword), newPassword: base64(values.newPassword) });
      expect(sent.get(view)!.length).toBe(view.steps.filter((step) => step.event.type === 'SUBMIT' && step.state.matches('submitting')).length);
      seeNotices(view);
    },
    failed: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([view.t(errorMessageKey(snapshot.context.errorCode, 'default'))]);
      expectButton(view.t('profile.changePassword.submit'), false);
      seeNotices(view);
    },
    changed: (view, snapshot) => {
      seeForm(view, snapshot);
      expect(snapshot.context.values).toEqual({ oldPassword: '', newPassword: '', confirmPassword: '' });
      expect(screen.getByRole('status').textContent).toBe(view.t('messages.passwordChanged'));
      // SPEC §8, spelled as written.
      if (view.language === 'en') expect(screen.getByRole('status').textContent).toBe('Password Updated Sucessfully');
      seeNotices(view);
    },
  },
});
