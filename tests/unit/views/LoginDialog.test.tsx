// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { LoginRequest, Session } from '../../../src/machines/login.machine.ts';
import type { FacebookLoginRequest, GoogleLoginRequest, SocialSession } from '../../../src/machines/socialSignIn.machine.ts';
import type { Settings } from '../../../src/machines/settings.machine.ts';
import type { SocialSignIn } from '../../../src/views/social.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import LoginDialog, { type LoginDialogProps } from '../../../src/views/dialogs/LoginDialog.tsx';
import { aUser, DEFAULT_SETTINGS } from '../machines/fixtures.ts';
import { deferred, renderWithServices, type HarnessOptions } from './harness.tsx';

function renderLogin(props: Partial<LoginDialogProps> = {}, options: HarnessOptions = {}) {
  const onClose = vi.fn();
  const switchTo = vi.fn();
  // Opened from the address, as the app opens it: the flow closes it there when the player is signed in.
  const harness = renderWithServices(<LoginDialog onClose={onClose} switchTo={switchTo} {...props} />, {
    address: '/casino?dialog=login',
    ...options,
  });
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
    const { user, appEvents, notices, navigations } = renderLogin({}, { actors: { login } });
    await user.type(screen.getByLabelText('Email or username'), 'ana7');
    await user.type(screen.getByLabelText('Password'), 'Secret1!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const busy = screen.getByRole('button', { name: 'Sending…' });
    expect(busy).toHaveProperty('disabled', true);
    expect(calls).toEqual([{ email: 'ana7', password: btoa('Secret1!') }]);

    answer.resolve(session);
    await waitFor(() => expect(navigations).toEqual(['/casino']));
    expect(appEvents).toEqual([{ type: 'SESSION.LOGGED_IN', accessToken: 'token-1', user: session.user }]);
    expect(notices).toEqual([{ tone: 'success', message: 'messages.loginSuccess' }]);
  });

  it("shows the code's message for a refusal", async () => {
    const { login } = loginActor(async () => {
      throw new ApiFailure(401, 'WRONG_PASSWORD');
    });
    const { user, onClose, navigations } = renderLogin({}, { actors: { login } });
    await user.type(screen.getByLabelText('Email or username'), 'ana7');
    await user.type(screen.getByLabelText('Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong Password!');
    expect(onClose).not.toHaveBeenCalled();
    expect(navigations).toEqual([]);
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

  it('has no social buttons when sign-in providers are not configured', async () => {
    const renderGoogleButton = vi.fn<SocialSignIn['renderGoogleButton']>();
    const { services } = renderLogin({}, { social: { renderGoogleButton } });
    await waitFor(() => expect(services.settings.getSnapshot().value).toBe('loaded'));
    expect(screen.queryByRole('button', { name: /Google/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).toBeNull();
    expect(screen.queryByText('or')).toBeNull();
    expect(renderGoogleButton).not.toHaveBeenCalled();
  });

  it("signs in with Google's button: the credential goes to google-login, the login time is stored", async () => {
    const inputs: GoogleLoginRequest[] = [];
    const googleLogin = fromPromise<SocialSession, GoogleLoginRequest>(async ({ input }) => {
      inputs.push(input);
      return { ...session, isNewUser: false };
    });
    const rendered: { clientId: string; locale: string }[] = [];
    // Like Google Identity Services: its own button in the slot, the ID token through the callback.
    const renderGoogleButton: SocialSignIn['renderGoogleButton'] = async (element, options) => {
      rendered.push({ clientId: options.clientId, locale: options.locale });
      const button = document.createElement('button');
      button.textContent = 'Sign in with Google';
      button.onclick = () => options.onCredential('google-jwt');
      element.append(button);
      return () => button.remove();
    };
    const { user, appEvents, loginTimes, notices, navigations } = renderLogin(
      {},
      { actors: { googleLogin }, settings: { socialLogin: { googleClientId: 'client-id', facebookAppId: null } }, social: { renderGoogleButton } },
    );
    await user.click(await screen.findByRole('button', { name: 'Sign in with Google' }));
    await waitFor(() => expect(navigations).toEqual(['/casino']));
    expect(rendered).toEqual([{ clientId: 'client-id', locale: 'en' }]);
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).toBeNull();
    expect(inputs).toEqual([{ credential: 'google-jwt' }]);
    expect(appEvents.map((event) => event.type)).toEqual(['SESSION.LOGGED_IN']);
    expect(loginTimes).toEqual([session.user.lastLoginAt]);
    expect(notices).toEqual([{ tone: 'success', message: 'messages.loginSuccess' }]);
  });

  it('asks again for settings that failed to load, once per opening, and then shows the buttons', async () => {
    let calls = 0;
    const { services } = renderLogin(
      {},
      {
        loadSettings: fromPromise<Settings>(async () => {
          calls += 1;
          if (calls === 1) throw new ApiFailure(0, null);
          return { ...DEFAULT_SETTINGS, socialLogin: { googleClientId: null, facebookAppId: 'app-id' } };
        }),
      },
    );
    await screen.findByRole('button', { name: 'Continue with Facebook' });
    expect(calls).toBe(2);
    expect(services.settings.getSnapshot().value).toBe('loaded');
  });

  it('does not ask a failing server for settings in a loop', async () => {
    let calls = 0;
    const { services } = renderLogin(
      {},
      {
        loadSettings: fromPromise<Settings>(async () => {
          calls += 1;
          throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
        }),
      },
    );
    await waitFor(() => expect(calls).toBe(2));
    await waitFor(() => expect(services.settings.getSnapshot().value).toBe('failed'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(2);
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).toBeNull();
  });

  it('shows no Google button when its SDK cannot be loaded', async () => {
    const { services } = renderLogin({}, { settings: { socialLogin: { googleClientId: 'client-id', facebookAppId: null } } });
    await waitFor(() => expect(services.settings.getSnapshot().value).toBe('loaded'));
    await waitFor(() => expect(document.querySelector('[data-provider="google"]')).toBeNull());
    expect(screen.queryByText('or')).toBeNull();
  });

  it('signs in with Facebook, and shows its failure', async () => {
    const inputs: FacebookLoginRequest[] = [];
    const facebookLogin = fromPromise<SocialSession, FacebookLoginRequest>(async ({ input }) => {
      inputs.push(input);
      throw new ApiFailure(401, 'SOCIAL_LOGIN_FAILED');
    });
    const asked: { appId: string; locale: string }[] = [];
    const { user, onClose, navigations } = renderLogin(
      {},
      {
        actors: { facebookLogin },
        settings: { socialLogin: { googleClientId: null, facebookAppId: 'app-id' } },
        social: {
          facebookLogin: async (options) => {
            asked.push(options);
            return { accessToken: 'fb-token', userID: 'fb-1' };
          },
        },
        language: 'pt',
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Continuar com o Facebook' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('O início de sessão social falhou. Tente novamente.');
    expect(asked).toEqual([{ appId: 'app-id', locale: 'pt' }]);
    expect(inputs).toEqual([{ accessToken: 'fb-token', userID: 'fb-1' }]);
    expect(onClose).not.toHaveBeenCalled();
    expect(navigations).toEqual([]);
  });

  it('stays open and quiet when the player closes the Facebook popup', async () => {
    const facebookLogin = vi.fn();
    const { user, onClose, notices, navigations } = renderLogin(
      {},
      {
        actors: { facebookLogin: fromPromise<SocialSession, FacebookLoginRequest>(async () => facebookLogin()) },
        settings: { socialLogin: { googleClientId: null, facebookAppId: 'app-id' } },
        social: { facebookLogin: async () => null },
      },
    );
    const button = await screen.findByRole('button', { name: 'Continue with Facebook' });
    await user.click(button);
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(facebookLogin).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(navigations).toEqual([]);
    expect(notices).toEqual([]);
  });

  it('speaks the chosen language', () => {
    renderLogin({}, { language: 'pt' });
    expect(screen.getByRole('dialog', { name: 'Iniciar sessão' })).toBeTruthy();
    expect(screen.getByLabelText('E-mail ou nome de utilizador')).toBeTruthy();
  });
});
