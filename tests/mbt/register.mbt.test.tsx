// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { registerFixtures } from '../../src/flows/fixtures/register.ts';
import type { MessageKey } from '../../src/i18n/index.ts';
import {
  passwordTicks,
  SIGNUP_FIELDS,
  type registerMachine,
  type SignupField,
} from '../../src/machines/register.machine.ts';
import RegisterDialog from '../../src/views/dialogs/RegisterDialog.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue, fillsInOrder } from './filters.ts';
import { describeModel, type View } from './run.tsx';
import { button, expectButton, expectField, formAlerts, setField } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type RegisterView = View<typeof registerMachine>;
type RegisterSnapshot = SnapshotFrom<typeof registerMachine>;

const OPTIONAL: readonly SignupField[] = ['middleName', 'referralCode'];
const LABEL_KEYS: Record<SignupField, MessageKey> = {
  firstName: 'auth.register.firstName',
  middleName: 'auth.register.middleName',
  lastName: 'auth.register.lastName',
  email: 'auth.register.email',
  username: 'auth.register.username',
  password: 'auth.register.password',
  confirmPassword: 'auth.register.confirmPassword',
  gender: 'auth.register.gender',
  dateOfBirth: 'auth.register.dateOfBirth',
  phoneCode: 'auth.register.phoneCode',
  phone: 'auth.register.phone',
  address: 'auth.register.address',
  countryCode: 'auth.register.country',
  stateCode: 'auth.register.state',
  city: 'auth.register.city',
  zipCode: 'auth.register.zipCode',
  referralCode: 'auth.register.referralCode',
};

function label(view: RegisterView, field: SignupField): string {
  const text = view.t(LABEL_KEYS[field]);
  return OPTIONAL.includes(field) ? `${text} (${view.t('common.optional')})` : text;
}

const countriesAlert = (view: RegisterView) => formAlerts().filter((text) => text.startsWith(view.t('auth.register.countriesUnavailable')));
const formAlertsOnly = (view: RegisterView) => formAlerts().filter((text) => !text.startsWith(view.t('auth.register.countriesUnavailable')));

/** Every field with its value and messages, the password checklist, and the form's alert. */
function seeForm(view: RegisterView, snapshot: RegisterSnapshot, alert: string | null) {
  expect(screen.getByRole('dialog', { name: view.t('auth.register.title') })).toBeTruthy();
  for (const field of SIGNUP_FIELDS) {
    expectField(view.t, label(view, field), snapshot.context.values[field], snapshot.context.fieldErrors[field]);
  }
  const rules = screen.getByRole('list', { name: view.t('auth.register.passwordRulesTitle') });
  const met = within(rules)
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('data-met') === 'true');
  expect(met).toEqual(Object.values(passwordTicks(snapshot.context)));
  expect(formAlertsOnly(view)).toEqual(alert === null ? [] : [alert]);
}

const formDone = (snapshot: RegisterSnapshot) => snapshot.matches({ form: 'done' });
const country = (view: RegisterView) => screen.getByLabelText(label(view, 'countryCode')) as HTMLSelectElement;
const fillOrder = fillsInOrder(registerFixtures.events['FIELD.CHANGE']);

describeModel('register', {
  fixtures: registerFixtures,
  filterEvents: (snapshot, event) => {
    if (event.type === 'FIELD.CHANGE' && 'field' in event) {
      const field = event.field as SignupField;
      // The country and state pickers are disabled until the countries are loaded.
      if ((field === 'countryCode' || field === 'stateCode') && !snapshot.matches({ countries: 'loaded' })) return false;
      return changesAValue(snapshot, event) && fillOrder(snapshot, event);
    }
    // Once registered, the form (and its retry button) is gone.
    if (event.type === 'COUNTRIES.RETRY') return !snapshot.matches({ form: 'done' });
    return true;
  },
  render: (view) =>
    renderWithServices(<RegisterDialog onClose={() => {}} switchTo={() => {}} />, { actors: view.actors }),
  events: {
    'FIELD.CHANGE': (view, event) => setField(view.user, label(view, event.field), event.value),
    SUBMIT: (view) => view.user.click(button(view.t('auth.register.submit'))),
    'COUNTRIES.RETRY': (view) => view.user.click(button(view.t('common.retry'))),
  },
  states: {
    'form.editing': (view, snapshot) => {
      seeForm(view, snapshot, null);
      expectButton(view.t('auth.register.submit'), false);
    },
    'form.submitting': (view, snapshot) => {
      seeForm(view, snapshot, null);
      expectButton(view.t('auth.register.submitting'), true);
    },
    'form.failed': (view, snapshot) => {
      seeForm(view, snapshot, view.t(errorMessageKey(snapshot.context.errorCode, 'signup')));
      expectButton(view.t('auth.register.submit'), false);
    },
    'form.done': (view, snapshot) => {
      // The form gives way to the news, and asks the player to confirm the email.
      expect(screen.getByRole('status').textContent).toBe(
        view.t('messages.registerSuccess') + view.t('auth.register.checkInbox', { email: snapshot.context.values.email }),
      );
      expect(screen.queryByLabelText(label(view, 'email'))).toBeNull();
      expect(document.activeElement?.textContent).toBe(view.t('common.close'));
      expect(view.harness.notices).toEqual([{ tone: 'success', message: 'messages.registerSuccess' }]);
    },
    'countries.loading': (view, snapshot) => {
      if (formDone(snapshot)) return;
      expect(country(view).disabled).toBe(true);
      expect(country(view).getAttribute('aria-busy')).toBe('true');
      expect(country(view).options[0]?.textContent).toBe(view.t('states.loading'));
      expect(countriesAlert(view)).toEqual([]);
    },
    'countries.loaded': (view, snapshot) => {
      if (formDone(snapshot)) return;
      expect(country(view).disabled).toBe(false);
      expect([...country(view).options].map((option) => option.textContent)).toEqual([
        view.t('auth.register.countryPlaceholder'),
        ...snapshot.context.countries.map((candidate) => candidate.name),
      ]);
      expect(countriesAlert(view)).toEqual([]);
    },
    'countries.unavailable': (view, snapshot) => {
      if (formDone(snapshot)) return;
      // Load failures are not reported as errors (SPEC §8), but the picker says why it is empty and offers a retry.
      expect(country(view).disabled).toBe(true);
      expect(countriesAlert(view)).toEqual([`${view.t('auth.register.countriesUnavailable')} ${view.t('common.retry')}`]);
    },
  },
});
