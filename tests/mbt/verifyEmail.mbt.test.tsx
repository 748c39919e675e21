// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { verifyEmailFixtures } from '../../src/flows/fixtures/verifyEmail.ts';
import EmailVerifiedDialog from '../../src/views/dialogs/EmailVerifiedDialog.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

// The machine takes no event from the player: the link's token is its input, the answer settles it.
describeModel('verifyEmail', {
  fixtures: verifyEmailFixtures,
  strategy: 'simple',
  render: (view) => renderWithServices(<EmailVerifiedDialog token={view.input.token} onClose={() => {}} />, { actors: view.actors }),
  events: {},
  states: {
    verifying: (view) => {
      expect(screen.getByRole('dialog', { name: view.t('auth.verifyEmail.title') })).toBeTruthy();
      const status = screen.getByRole('status');
      expect(status.textContent).toBe(view.t('auth.verifyEmail.verifying'));
      expect(status.getAttribute('aria-busy')).toBe('true');
      expect(view.harness.navigations).toEqual([]);
    },
    verified: (view) => {
      // Back to '/' with the email-verified popup, which offers to log in.
      expect(screen.getByRole('dialog', { name: view.t('auth.verifyEmail.successTitle') })).toBeTruthy();
      expect(screen.getByRole('status').textContent).toBe(view.t('auth.verifyEmail.successBody'));
      expect(document.activeElement?.textContent).toBe(view.t('auth.login.submit'));
      expect(view.harness.navigations).toEqual(['/']);
      expect(view.harness.notices).toEqual([]);
    },
    failed: (view, snapshot) => {
      // No popup: a toast says why, and the player is back on '/'.
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(view.harness.notices).toEqual([{ tone: 'error', code: snapshot.context.errorCode, fallback: 'verification' }]);
      expect(view.harness.navigations).toEqual(['/']);
    },
  },
});
