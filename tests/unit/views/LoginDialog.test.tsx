// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { LoginRequest, Session, SocialSession } from '../../../src/machines/login.machine.ts';
import type { FacebookLoginRequest, GoogleLoginRequest } from '../../../src/machines/login.machine.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import LoginDialog, { type LoginDialogProps } from '../../../src/views/dialogs/LoginDialog.tsx';
import { aUser } from '../machines/fixtures.ts';
import { deferred, renderWithServices, type HarnessOptions } from './harness.tsx';

function renderLogin(props: Partial<LoginDialogProps> = {}, options: HarnessOptions = {}) {
  const onClose = vi.fn();
  const switchTo = vi.fn();
  const harness = renderWithServices(<LoginDialog onClose={onClose} switchTo={switchTo} {...props} />, options);
  return { ...harness, onClose, switchTo };
}

const session: Session = { accessToken: 'token-1', user: aUser() };

function loginActor(answer: (input: LoginRequest) => Promise<Session>) {
  const calls: LoginRequest[] = [];
  const login = fromPromise<Session, LoginRequest>(async ({ input }) => {
    calls.push(input);
    return answer(input);
  });
  return { login, calls };
}

describe('LoginDialog', () => {
  it('is a labelled dialog with labelled fields, and focus starts inside it', () => {
    renderLogin();
    const dialog = screen.getByRole('dialog', { name: 'Log in' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(screen.getByLabelText('Email or username')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toHaveProperty('type', 'password');
  });

  it('shows and hides the password', async () => {
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText('Password')).toHaveProperty('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(screen.getByLabelText('Password')).toHaveProperty('type', 'password');
  });

  it('shows rule errors beside the empty fields on submit, tied to them', async () => {
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const email = screen.getByLabelText('Email or username');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(email.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('This field is required');
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
  });

  it('signs in: busy while sending, then SESSION.LOGGED_IN to the app, a toast and the dialog closes', async () => {
    const answer = deferred<Session>();
    const { login, calls } = loginActor(() => answer.promise);
    const { user, appEvents, notices, onClose } = renderLogin({}, { actors: { login } });
    await user.type(screen.getByLabelText('Email or username'), 'ana7');
    await user.type(screen.getByLabelText('Password'), 'Secret1!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const busy = screen.getByRole('button', { name: 'Sending…' });
    expect(busy).toHaveProperty('disabled', true);
    expect(calls).toEqual([{ email: 'ana7', password: btoa('Secret1!') }]);

    answer.resolve(session);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(appEvents).toEqual([{ type: 'SESSION.LOGGED_IN', accessToken: 'token-1', user: session.user }]);
    expect(notices).toEqual([{ tone: 'success', message: 'messages.loginSuccess' }]);
  });

  it("shows the code's message for a refusal", async () => {
    const { login } = loginActor(async () => {
      throw new ApiFailure(401, 'WRONG_PASSWORD');
    });
    const { user, onClose } = renderLogin({}, { actors: { login } });
    await user.type(screen.getByLabelText('Email or username'), 'ana7');
    await user.type(screen.getByLabelText('Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong Password!');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Log in' })).toHaveProperty('disabled', false);
  });

  it("shows 'Failed to login' when the failure has no code, and clears it as the player types", async () => {
    const { login } = loginActor(async () => {
      throw new ApiFailure(0, null);
    });
    const { user } = renderLogin({}, { actors: { login } });
    await user.type(screen.getByLabelText('Email or username'), 'ana7');
    await user.type(screen.getByLabelText('Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to login');
    await user.type(screen.getByLabelText('Password'), 'x');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's field codes beside the field", async () => {
    const { login } = loginActor(async () => {
      throw new ApiFailure(400, 'PLEASE_CHECK_REQUEST_DATA', [{ field: 'email', code: 'loginId' }]);
    });
    const { user } = renderLogin({}, { actors: { login } });
    await user.type(screen.getByLabelText('Email or username'), 'ana7');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Enter a valid email or username')).toBeTruthy();
    expect(screen.getByText('Please check the request data')).toBeTruthy();
  });

  it('links to the forgot-password and register dialogs', async () => {
    const { user, switchTo } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(switchTo.mock.calls).toEqual([['forgot-password'], ['register']]);
  });

  it('closes on Escape', async () => {
    const { user, onClose } = renderLogin();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('has no social buttons when sign-in providers are not configured', () => {
    renderLogin({ getGoogleCredential: async () => 'x', getFacebookLogin: async () => ({ accessToken: 'a', userID: 'u' }) });
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).toBeNull();
  });

  it('signs in with Google: the credential goes to google-login, the login time is stored', async () => {
    const inputs: GoogleLoginRequest[] = [];
    const googleLogin = fromPromise<SocialSession, GoogleLoginRequest>(async ({ input }) => {
      inputs.push(input);
      return { ...session, isNewUser: false };
    });
    const { user, appEvents, loginTimes, onClose } = renderLogin(
      { googleClientId: 'client-id', facebookAppId: null, getGoogleCredential: async () => 'google-jwt' },
      { actors: { googleLogin } },
    );
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(inputs).toEqual([{ credential: 'google-jwt' }]);
    expect(appEvents.map((event) => event.type)).toEqual(['SESSION.LOGGED_IN']);
    expect(loginTimes).toEqual([session.user.lastLoginAt]);
  });

  it('signs in with Facebook, and shows its failure', async () => {
    const inputs: FacebookLoginRequest[] = [];
    const facebookLogin = fromPromise<SocialSession, FacebookLoginRequest>(async ({ input }) => {
      inputs.push(input);
      throw new ApiFailure(401, 'SOCIAL_LOGIN_FAILED');
    });
    const { user } = renderLogin(
      { facebookAppId: 'app-id', getFacebookLogin: async () => ({ accessToken: 'fb-token', userID: 'fb-1' }) },
      { actors: { facebookLogin } },
    );
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue with Facebook' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Social sign-in failed. Please try again.')).toBeTruthy();
    expect(inputs).toEqual([{ accessToken: 'fb-token', userID: 'fb-1' }]);
  });

  it('speaks the chosen language', () => {
    renderLogin({}, { language: 'pt' });
    expect(screen.getByRole('dialog', { name: 'Iniciar sessão' })).toBeTruthy();
    expect(screen.getByLabelText('E-mail ou nome de utilizador')).toBeTruthy();
  });
});
