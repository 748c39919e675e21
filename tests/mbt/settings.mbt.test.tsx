// @vitest-environment happy-dom
import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { settingsFixtures } from '../../src/flows/fixtures/settings.ts';
import type { settingsMachine } from '../../src/machines/settings.machine.ts';
import LoginDialog from '../../src/views/dialogs/LoginDialog.tsx';
import { useT } from '../../src/views/i18n-context.ts';
import type { SocialSignIn } from '../../src/views/social.ts';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';
import { button } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type SettingsView = View<typeof settingsMachine>;

/*
 * The settings are loaded once at start, by the app's services; what the player sees of them is the
 * social sign-in of the login (and register) dialog. The page starts with the dialog closed; the
 * header's "Log in" opens it (stood for here by a button that does what the header's does).
 */
function Page() {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  return open ? (
    <LoginDialog onClose={() => setOpen(false)} switchTo={() => {}} />
  ) : (
    <button type="button" onClick={() => setOpen(true)}>
      {t('nav.login')}
    </button>
  );
}

/** Google's SDK, as far as the dialog sees it: its own button in the slot. */
const renderGoogleButton: SocialSignIn['renderGoogleButton'] = async (element) => {
  const google = document.createElement('button');
  google.textContent = 'Sign in with Google';
  element.append(google);
  return () => google.remove();
};

const dialogOpen = (view: SettingsView) => screen.queryByRole('dialog', { name: view.t('auth.login.title') }) !== null;

function seeNoSocialSignIn(view: SettingsView) {
  expect(screen.queryByText(view.t('auth.social.divider'))).toBeNull();
  expect(screen.queryByRole('button', { name: view.t('auth.social.facebook') })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Sign in with Google' })).toBeNull();
}

describeModel('settings', {
  fixtures: settingsFixtures,
  strategy: 'simple',
  // Once the dialog is open, a failed load is asked for again at once (SocialSignIn sends RETRY when it
  // sees `failed`), so the model stops offering failures after the first RETRY.
  filterEvents: (_snapshot, event, history) =>
    !(event.type.startsWith('xstate.error.actor.') && history.some((step) => step.event.type === 'RETRY')),
  render: (view) =>
    renderWithServices(<Page />, {
      ...(view.actors.loadSettings ? { loadSettings: view.actors.loadSettings } : {}),
      inspect: view.inspect,
      social: { renderGoogleButton },
    }),
  events: {
    // Opening a dialog that needs the settings asks for them again.
    RETRY: (view) => view.user.click(button(view.t('nav.login'))),
  },
  states: {
    loading: (view) => {
      if (dialogOpen(view)) seeNoSocialSignIn(view);
      else expect(button(view.t('nav.login'))).toBeTruthy();
    },
    loaded: async (view, snapshot) => {
      // The player opens the login dialog (the settings are loaded: nothing is asked again).
      if (!dialogOpen(view)) await view.user.click(button(view.t('nav.login')));
      const social = snapshot.context.settings!.socialLogin;
      if (social.googleClientId === null && social.facebookAppId === null) {
        seeNoSocialSignIn(view);
        return;
      }
      expect(screen.getByText(view.t('auth.social.divider'))).toBeTruthy();
      expect(screen.queryByRole('button', { name: view.t('auth.social.facebook') }) !== null).toBe(social.facebookAppId !== null);
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Sign in with Google' }) !== null).toBe(social.googleClientId !== null));
    },
    failed: (view) => {
      // Nothing needs the settings yet: the player sees the page as it is.
      expect(dialogOpen(view)).toBe(false);
      expect(button(view.t('nav.login'))).toBeTruthy();
    },
  },
});
