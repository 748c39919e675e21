// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { profileFixtures } from '../../src/flows/fixtures/profile.ts';
import type { MessageKey } from '../../src/i18n/index.ts';
import { PROFILE_FIELDS, profileRequest, type ProfileField, type profileMachine, type ProfileRequest } from '../../src/machines/profile.machine.ts';
import { ProfileForm } from '../../src/views/profile/BasicInformation.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue } from './filters.ts';
import { describeModel, outputOf, type View } from './run.tsx';
import { button, expectButton, expectField, formAlerts, setField } from './see.tsx';
import { fromPromise } from 'xstate';
import type { User } from '../../src/machines/effects.ts';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type ProfileView = View<typeof profileMachine>;
type ProfileSnapshot = SnapshotFrom<typeof profileMachine>;

/*
 * The profile's basic information: every field filled with the player's details and its rules beside
 * it, the email shown but not editable, the save sent only for a valid form and with every member, and
 * on success the toast, the player stored in the app, and the section closed.
 */

const LABEL_KEYS: Record<ProfileField, MessageKey> = {
  firstName: 'auth.register.firstName',
  middleName: 'auth.register.middleName',
  lastName: 'auth.register.lastName',
  username: 'auth.register.username',
  gender: 'auth.register.gender',
  dateOfBirth: 'auth.register.dateOfBirth',
  phoneCode: 'auth.register.phoneCode',
  phone: 'auth.register.phone',
  address: 'auth.register.address',
  countryCode: 'auth.register.country',
  stateCode: 'auth.register.state',
  city: 'auth.register.city',
  zipCode: 'auth.register.zipCode',
};

function label(view: ProfileView, field: ProfileField): string {
  const text = view.t(LABEL_KEYS[field]);
  return field === 'middleName' ? `${text} (${view.t('common.optional')})` : text;
}

const closed = new WeakMap<ProfileView, number>();
const sent = new WeakMap<ProfileView, ProfileRequest[]>();

const countriesAlert = (view: ProfileView) => formAlerts().filter((text) => text.startsWith(view.t('auth.register.countriesUnavailable')));
const formAlertsOnly = (view: ProfileView) => formAlerts().filter((text) => !text.startsWith(view.t('auth.register.countriesUnavailable')));

function seeForm(view: ProfileView, snapshot: ProfileSnapshot) {
  const { context } = snapshot;
  for (const field of PROFILE_FIELDS) expectField(view.t, label(view, field), context.values[field], context.fieldErrors[field]);
  const email = screen.getByLabelText(view.t('profile.basicInformation.email')) as HTMLInputElement;
  expect(email.value).toBe(context.email);
  expect(email.readOnly).toBe(true);
  expect(formAlertsOnly(view)).toEqual(context.errorCode ? [view.t(errorMessageKey(context.errorCode, 'default'))] : []);
  // Nothing is stored nor closed before a save succeeds; every save sent the form as it stood.
  expect(view.harness.notices).toEqual([]);
  expect(view.harness.appEvents.filter((event) => event.type === 'USER.UPDATED')).toEqual([]);
  expect(closed.get(view) ?? 0).toBe(0);
  const sendings = view.steps.filter((step, index) => step.state.matches({ form: 'saving' }) && !view.steps[index - 1]?.state.matches({ form: 'saving' }));
  expect(sent.get(view)!.length).toBe(sendings.length);
}

const country = (view: ProfileView) => screen.getByLabelText(label(view, 'countryCode')) as HTMLSelectElement;
const isDone = (snapshot: ProfileSnapshot) => snapshot.matches({ form: 'done' });

describeModel('profile', {
  fixtures: profileFixtures,
  filterEvents: (snapshot, event) => {
    if (isDone(snapshot as ProfileSnapshot)) return false;
    if (event.type === 'FIELD.CHANGE') return changesAValue(snapshot, event);
    return true;
  },
  render: (view) => {
    const requests: ProfileRequest[] = [];
    sent.set(view, requests);
    const updateProfile = fromPromise<User, ProfileRequest>(({ input, signal }) => {
      requests.push(input);
      return view.call('updateProfile', input, signal);
    });
    return renderWithServices(<ProfileForm user={view.input.user} close={() => closed.set(view, (closed.get(view) ?? 0) + 1)} />, {
      actors: { ...view.actors, updateProfile },
    });
  },
  events: {
    'FIELD.CHANGE': (view, event) => setField(view.user, label(view, event.field), event.value),
    SUBMIT: (view) => view.user.click(button(view.t('profile.basicInformation.submit'))),
    'COUNTRIES.RETRY': (view) => view.user.click(button(view.t('common.retry'))),
  },
  states: {
    'form.editing': (view, snapshot) => {
      seeForm(view, snapshot);
      expectButton(view.t('profile.basicInformation.submit'), false);
    },
    'form.saving': (view, snapshot) => {
      seeForm(view, snapshot);
      expectButton(view.t('profile.basicInformation.saving'), true);
      expect(sent.get(view)!.at(-1)).toEqual(profileRequest(snapshot.context.values));
    },
    'form.done': (view) => {
      const user = outputOf<User>(view.step);
      expect(view.harness.notices).toEqual([{ tone: 'success', message: 'messages.profileUpdated' }]);
      expect(view.harness.appEvents.filter((event) => event.type === 'USER.UPDATED')).toEqual([{ type: 'USER.UPDATED', user }]);
      // The section closes (the page's accordion folds it).
      expect(closed.get(view)).toBe(1);
    },
    'countries.loading': (view, snapshot) => {
      if (isDone(snapshot)) return;
      expect(country(view).disabled).toBe(true);
      expect(country(view).getAttribute('aria-busy')).toBe('true');
      expect(countriesAlert(view)).toEqual([]);
    },
    'countries.loaded': (view, snapshot) => {
      if (isDone(snapshot)) return;
      expect(country(view).disabled).toBe(false);
      expect([...country(view).options].map((option) => option.textContent)).toEqual([
        view.t('auth.register.countryPlaceholder'),
        ...snapshot.context.countries.map((candidate) => candidate.name),
      ]);
      expect(countriesAlert(view)).toEqual([]);
    },
    'countries.unavailable': (view, snapshot) => {
      if (isDone(snapshot)) return;
      expect(country(view).disabled).toBe(true);
      expect(countriesAlert(view)).toEqual([`${view.t('auth.register.countriesUnavailable')} ${view.t('common.retry')}`]);
    },
  },
});
