// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { errorMessageKey } from '../../src/api/errors.ts';
import { SOCIAL_SETTINGS } from '../../src/flows/fixtures/settings.ts';
import { socialSignInFixtures } from '../../src/flows/fixtures/socialSignIn.ts';
import type { SocialSession, socialSignInMachine } from '../../src/machines/socialSignIn.machine.ts';
import LoginDialog from '../../src/views/dialogs/LoginDialog.tsx';
import type { FacebookLogin, SocialSignIn } from '../../src/views/social.ts';
import { describeModel, outputOf, type View } from './run.tsx';
import { button, formAlerts, renderDialogInAddress } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type SocialView = View<typeof socialSignInMachine>;

/*
 * Social sign-in as the login dialog offers it (the register dialog hosts the same component), with
 * both providers configured. Google's SDK is stood for by a button in its slot that hands over the
 * credential the path's event carries; Facebook's popup is the `askFacebook` actor, whose answer the
 * path settles.
 */
let credential = '';
const renderGoogleButton: SocialSignIn['renderGoogleButton'] = async (element, options) => {
  const google = document.createElement('button');
  google.type = 'button';
  google.textContent = 'Sign in with Google';
  google.onclick = () => options.onCredential(credential);
  element.append(google);
  return () => google.remove();
};

async function seeButtons(view: SocialView, busy: boolean) {
  const google = await screen.findByRole('button', { name: 'Sign in with Google' });
  expect(google.closest('[data-provider="google"]')?.getAttribute('aria-busy')).toBe(String(busy));
  const facebook = button(view.t('auth.social.facebook'));
  expect(facebook.disabled, 'Facebook button disabled').toBe(busy);
  expect(facebook.getAttribute('aria-busy')).toBe(String(busy));
}

describeModel('socialSignIn', {
  fixtures: socialSignInFixtures,
  render: (view) =>
    renderDialogInAddress('login', (close) => <LoginDialog onClose={close} switchTo={() => {}} />, {
      actors: view.actors,
      settings: { socialLogin: SOCIAL_SETTINGS.socialLogin },
      social: {
        renderGoogleButton,
        facebookLogin: (options) => view.call<FacebookLogin | null>('askFacebook', options),
      },
    }),
  events: {
    'GOOGLE.CREDENTIAL': async (view, event) => {
      credential = event.credential;
      await view.user.click(await screen.findByRole('button', { name: 'Sign in with Google' }));
    },
    'FACEBOOK.START': async (view) => view.user.click(await screen.findByRole('button', { name: view.t('auth.social.facebook') })),
  },
  states: {
    idle: async (view) => {
      await seeButtons(view, false);
      expect(formAlerts()).toEqual([]);
    },
    askingFacebook: (view) => seeButtons(view, true),
    signingInWithGoogle: (view) => seeButtons(view, true),
    signingInWithFacebook: (view) => seeButtons(view, true),
    failed: async (view, snapshot) => {
      await seeButtons(view, false);
      expect(formAlerts()).toEqual([view.t(errorMessageKey(snapshot.context.errorCode, 'login'))]);
    },
    done: (view) => {
      // Signed in: the dialog has closed, the app has the session, the login time is kept, a toast says so.
      const session = outputOf<SocialSession>(view.step);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(view.harness.appEvents).toEqual([{ type: 'SESSION.LOGGED_IN', accessToken: session.accessToken, user: session.user }]);
      expect(view.harness.loginTimes).toEqual([session.user.lastLoginAt]);
      expect(view.harness.notices).toEqual([{ tone: 'success', message: 'messages.loginSuccess' }]);
    },
  },
});
