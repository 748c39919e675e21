// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { User } from '../../../src/machines/effects.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import type { Country, SignupRequest } from '../../../src/machines/register.machine.ts';
import RegisterDialog from '../../../src/views/dialogs/RegisterDialog.tsx';
import { aUser } from '../machines/fixtures.ts';
import { deferred, renderWithServices, type HarnessOptions } from './harness.tsx';

const COUNTRIES: Country[] = [
  { code: 'PT', name: 'Portugal', phoneCode: '+351', states: [{ code: '11', name: 'Lisboa' }, { code: '13', name: 'Porto' }] },
  { code: 'BR', name: 'Brazil', phoneCode: '+55', states: [{ code: 'SP', name: 'São Paulo' }] },
];

const loadCountries = fromPromise<Country[]>(async () => COUNTRIES);

function renderRegister(options: HarnessOptions = {}) {
  const onClose = vi.fn();
  const switchTo = vi.fn();
  const harness = renderWithServices(<RegisterDialog onClose={onClose} switchTo={switchTo} />, {
    address: '/?dialog=register&ref=',
    ...options,
    actors: { loadCountries, ...options.actors },
  });
  return { ...harness, onClose, switchTo };
}

function ruleItem(label: string): HTMLElement {
  const list = screen.getByRole('list', { name: 'Your password must have:' });
  const item = within(list).getByText(label).closest('li');
  if (!item) throw new Error(`no rule ${label}`);
  return item;
}

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

type Harness = ReturnType<typeof renderRegister>;

/** Fills the form the way a password manager or a paste does: one change per field. */
async function fillValidForm({ user }: Harness) {
  const fill = async (label: string, value: string) => {
    await user.click(screen.getByLabelText(label));
    await user.paste(value);
  };
  await fill('First name', 'Ana');
  await fill('Last name', 'Silva');
  await fill('Email', 'ana@example.com');
  await fill('Username', 'ana7');
  await fill('Password', 'Secret1!');
  await fill('Confirm password', 'Secret1!');
  await user.selectOptions(screen.getByLabelText('Gender'), 'female');
  await fill('Date of birth', '1990-04-12');
  await fill('Phone code', '+351');
  await fill('Mobile number', '912345678');
  await fill('Street address', 'Rua Augusta 10');
  await waitFor(() => expect(screen.getByRole('option', { name: 'Portugal' })).toBeTruthy());
  await user.selectOptions(screen.getByLabelText('Country'), 'PT');
  await user.selectOptions(screen.getByLabelText('State'), '11');
  await fill('City', 'Lisboa');
  await fill('Zip code', '12345');
}

describe('RegisterDialog', () => {
  it('labels every field, and focus starts inside the dialog', () => {
    renderRegister();
    const dialog = screen.getByRole('dialog', { name: 'Create an account' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    for (const label of [
      'First name',
      'Middle name (Optional)',
      'Last name',
      'Email',
      'Username',
      'Password',
      'Confirm password',
      'Gender',
      'Date of birth',
      'Phone code',
      'Mobile number',
      'Street address',
      'Country',
      'State',
      'City',
      'Zip code',
      'Referral code (Optional)',
    ]) {
      expect(screen.getByLabelText(label), label).toBeTruthy();
    }
    expect(screen.getByLabelText('Date of birth')).toHaveProperty('type', 'date');
  });

  it('shows errors beside a field as the player types', async () => {
    const { user } = renderRegister();
    const username = screen.getByLabelText('Username');
    await user.type(username, 'a!');
    expect(username.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Use letters and numbers only')).toBeTruthy();
    await user.clear(username);
    await user.type(username, 'ana7');
    expect(username.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText('Use letters and numbers only')).toBeNull();
  });

  it('ticks the password rules as the password is typed, and says so to screen readers', async () => {
    const { user } = renderRegister();
    expect(ruleItem('At least 8 characters').textContent).toContain('not yet');
    expect(ruleItem('One uppercase letter').textContent).toContain('not yet');
    await user.type(screen.getByLabelText('Password'), 'S');
    expect(ruleItem('One uppercase letter').textContent).toContain('done');
    expect(ruleItem('At least 8 characters').textContent).toContain('not yet');
    await user.type(screen.getByLabelText('Password'), 'ecret1!');
    for (const label of ['At least 8 characters', 'One lowercase letter', 'One number', 'One special character: @ $ ! % * ? &']) {
      expect(ruleItem(label).textContent, label).toContain('done');
    }
  });

  it('says when the confirmation does not match', async () => {
    const { user } = renderRegister();
    await user.type(screen.getByLabelText('Password'), 'Secret1!');
    await user.type(screen.getByLabelText('Confirm password'), 'Secret1?');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
  });

  it('lists the loaded countries; the state picker waits for a country and lists its states', async () => {
    const { user } = renderRegister();
    const state = screen.getByLabelText('State');
    expect(state).toHaveProperty('disabled', true);
    await waitFor(() => expect(screen.getByRole('option', { name: 'Brazil' })).toBeTruthy());
    await user.selectOptions(screen.getByLabelText('Country'), 'BR');
    expect(screen.getByLabelText('State')).toHaveProperty('disabled', false);
    expect(within(screen.getByLabelText('State')).getByRole('option', { name: 'São Paulo' })).toBeTruthy();
    expect(within(screen.getByLabelText('State')).queryByRole('option', { name: 'Porto' })).toBeNull();
  });

  it('offers a retry when the countries could not be loaded', async () => {
    let attempts = 0;
    const flaky = fromPromise<Country[]>(async () => {
      attempts += 1;
      if (attempts === 1) throw new ApiFailure(0, null);
      return COUNTRIES;
    });
    const { user } = renderRegister({ actors: { loadCountries: flaky } });
    expect(await screen.findByText('The list of countries could not be loaded.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('option', { name: 'Portugal' })).toBeTruthy();
    expect(screen.queryByText('The list of countries could not be loaded.')).toBeNull();
  });

  it('prefills the referral code from the link', () => {
    window.history.replaceState(null, '', '/?dialog=register&ref=FRIEND42');
    renderRegister();
    expect(screen.getByLabelText('Referral code (Optional)')).toHaveProperty('value', 'FRIEND42');
  });

  it('shows every error on submitting an empty form, and sends nothing', async () => {
    const signup = vi.fn();
    const { user } = renderRegister({
      actors: { signup: fromPromise<User, SignupRequest>(async ({ input }) => signup(input)) },
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getAllByText('This field is required').length).toBeGreaterThanOrEqual(10);
    expect(signup).not.toHaveBeenCalled();
  });

  it('registers: busy while sending, then asks the player to check the email, and Close closes', async () => {
    const answer = deferred<User>();
    const requests: SignupRequest[] = [];
    const signup = fromPromise<User, SignupRequest>(async ({ input }) => {
      requests.push(input);
      return answer.promise;
    });
    const harness = renderRegister({ actors: { signup } });
    await fillValidForm(harness);
    await harness.user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByRole('button', { name: 'Creating your account…' })).toHaveProperty('disabled', true);
    expect(requests[0]).toMatchObject({ email: 'ana@example.com', countryCode: 'PT', stateCode: '11', gender: 'female' });

    answer.resolve(aUser());
    expect(
      await screen.findByText('We sent a verification link to ana@example.com. Open it to activate your account.'),
    ).toBeTruthy();
    expect(harness.notices).toEqual([{ tone: 'success', message: 'messages.registerSuccess' }]);
    // The panel's own Close button (the × in the corner has the same name).
    await harness.user.click(screen.getByText('Close', { selector: 'button' }));
    expect(harness.onClose).toHaveBeenCalled();
  });

  it("shows the code's message for a refusal, else 'Something went wrong!'", async () => {
    let failure = new ApiFailure(409, 'USERNAME_OR_EMAIL_ALREADY_EXISTS');
    const signup = fromPromise<User, SignupRequest>(async () => {
      throw failure;
    });
    const harness = renderRegister({ actors: { signup } });
    await fillValidForm(harness);
    await harness.user.click(screen.getByRole('button', { name: 'Register' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Username or Email already exists!');

    failure = new ApiFailure(0, null);
    await harness.user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Something went wrong!'));
  });

  it('signs up with Facebook when it is configured: the session starts and the dialog closes', async () => {
    const session = { accessToken: 'token-fb', user: aUser({ authProvider: 'facebook' }), isNewUser: true };
    const { user, navigations, appEvents, loginTimes } = renderRegister({
      actors: { facebookLogin: fromPromise(async () => session) },
      settings: { socialLogin: { googleClientId: null, facebookAppId: 'app-id' } },
      social: { facebookLogin: async () => ({ accessToken: 'fb-token', userID: 'fb-1' }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Continue with Facebook' }));
    await waitFor(() => expect(navigations).toEqual(['/?ref=']));
    expect(appEvents).toEqual([{ type: 'SESSION.LOGGED_IN', accessToken: 'token-fb', user: session.user }]);
    expect(loginTimes).toEqual([session.user.lastLoginAt]);
  });

  it('links to the login dialog and closes on Escape', async () => {
    const { user, switchTo, onClose } = renderRegister();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(switchTo).toHaveBeenCalledWith('login');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});
