// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { ApiFailure } from '../../../src/machines/failure.ts';
import type { ForgotPasswordRequest } from '../../../src/machines/forgotPassword.machine.ts';
import ForgotPasswordDialog from '../../../src/views/dialogs/ForgotPasswordDialog.tsx';
import { deferred, renderWithServices, type HarnessOptions } from './harness.tsx';

function renderForgot(options: HarnessOptions = {}) {
  const onClose = vi.fn();
  const switchTo = vi.fn();
  const harness = renderWithServices(<ForgotPasswordDialog onClose={onClose} switchTo={switchTo} />, options);
  return { ...harness, onClose, switchTo };
}

describe('ForgotPasswordDialog', () => {
  it('asks for a valid email before sending', async () => {
    const { user } = renderForgot();
    expect(screen.getByRole('dialog', { name: 'Forgot password' }).contains(document.activeElement)).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('This field is required')).toBeTruthy();
    await user.type(screen.getByLabelText('Email'), 'ana@');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Enter a valid email address')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  });

  it('sends the email: busy while sending, then the done panel and a toast', async () => {
    const answer = deferred<void>();
    const requests: ForgotPasswordRequest[] = [];
    const forgotPassword = fromPromise<void, ForgotPasswordRequest>(async ({ input }) => {
      requests.push(input);
      return answer.promise;
    });
    const { user, notices, onClose } = renderForgot({ actors: { forgotPassword } });
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByRole('button', { name: 'Sending…' })).toHaveProperty('disabled', true);
    expect(requests).toEqual([{ email: 'ana@example.com' }]);
    answer.resolve();
    expect(
      await screen.findByText(
        'If an account uses ana@example.com, a link to reset its password is on its way. Check your inbox.',
      ),
    ).toBeTruthy();
    expect(notices).toEqual([{ tone: 'success', message: 'messages.resetLinkSent' }]);
    expect(screen.queryByLabelText('Email')).toBeNull();
    await user.click(screen.getByText('Close', { selector: 'button' }));
    expect(onClose).toHaveBeenCalled();
  });

  it("shows the code's message, else 'Internal Server Error!'", async () => {
    let failure = new ApiFailure(429, 'RATE_LIMITED');
    const forgotPassword = fromPromise<void, ForgotPasswordRequest>(async () => {
      throw failure;
    });
    const { user } = renderForgot({ actors: { forgotPassword } });
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Please wait a moment and try again.');
    failure = new ApiFailure(0, null);
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Internal Server Error!'));
  });

  it('goes back to log in, and closes on Escape', async () => {
    const { user, switchTo, onClose } = renderForgot();
    await user.click(screen.getByRole('button', { name: 'Back to log in' }));
    expect(switchTo).toHaveBeenCalledWith('login');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});
